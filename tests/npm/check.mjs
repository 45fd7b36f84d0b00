// The npm package as a user meets it: run by tests/npm.rs in a folder where the packed
// tarball was installed, it imports the package by name and writes what it saw on stdout, in
// sections (a line `== NAME`, then its lines); tests/npm.rs compares that with the native
// binary.
//
//   node check.mjs BAD_LINES.txt      # the bad lines, one a line
import { createChariot } from "chariot-xiangqi";
import { readFileSync } from "node:fs";
import http from "node:http";

// A worker left running keeps Node alive: this says so instead of hanging.
setTimeout(() => {
  console.error("check.mjs did not exit: a worker is still running");
  process.exit(3);
}, 300_000).unref();

const badLines = readFileSync(process.argv[2], "utf8").split("\n").slice(0, -1);
const DEPTH6 = ["position startpos moves h2e2 h9g7", "go depth 6"];

/** Posts `lines`; resolves with every line written up to the `count`th matching `until`. */
function session(engine, lines, until, count = 1) {
  return new Promise((resolve) => {
    const seen = [];
    const listen = (line) => {
      seen.push(line);
      if (until.test(line) && --count === 0) {
        engine.removeMessageListener(listen);
        resolve(seen);
      }
    };
    engine.addMessageListener(listen);
    for (const line of lines) engine.postMessage(line);
  });
}

/** Resolves with the first line matching `re` (and the milliseconds it took from now). */
function next(engine, re) {
  const t0 = performance.now();
  return new Promise((resolve) => {
    const listen = (line) => {
      if (re.test(line)) {
        engine.removeMessageListener(listen);
        resolve({ line, ms: performance.now() - t0 });
      }
    };
    engine.addMessageListener(listen);
  });
}

/**
 * `go infinite`, `stop` once depth `depth` is reported: the milliseconds of `isready` during
 * the search, of `stop` to `bestmove` and of `isready` after it (until the engine answers
 * again), the first move of the last pv reported before `stop`, and the bestmove line.
 */
async function stopOnce(engine, depth) {
  let lastPv = null;
  const track = (line) => {
    const at = line.split(" ").indexOf("pv");
    if (line.startsWith("info depth") && at > 0) lastPv = line.split(" ")[at + 1];
  };
  engine.addMessageListener(track);
  const reached = next(engine, new RegExp(`^info depth ${depth} `));
  engine.postMessage("position startpos moves h2e2 h9g7");
  engine.postMessage("go infinite");
  await reached;
  const ready = next(engine, /^readyok$/);
  engine.postMessage("isready");
  const isreadyMs = (await ready).ms;
  const pvBefore = lastPv;
  const answer = next(engine, /^bestmove/);
  engine.postMessage("stop");
  const { line, ms } = await answer;
  engine.removeMessageListener(track);
  // Until the engine answers again (not isolated: a new worker has read its network).
  const again = next(engine, /^readyok$/);
  engine.postMessage("isready");
  const againMs = (await again).ms;
  return [isreadyMs, ms, againMs].map((x) => x.toFixed(1)).join(" ") + ` ${pvBefore} ${line}`;
}

/** The answers of a new engine (made with `options`) to the bad lines, up to `readyok`. */
async function badAnswers(options) {
  const fresh = await createChariot(options);
  const lines = await session(fresh, [...badLines, "isready"], /^readyok$/);
  fresh.terminate();
  return lines;
}

/** The messages of createChariot's rejections for a missing folder and an HTTP 404. */
async function wrongBases() {
  const out = {};
  try {
    await createChariot({ base: "/nonexistent/chariot" });
    out.file = "resolved";
  } catch (e) {
    out.file = e.message;
  }
  const server = http.createServer((req, res) => {
    res.statusCode = 404;
    res.end("not here");
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${server.address().port}/nowhere/`;
  try {
    await createChariot({ base });
    out.http = "resolved";
  } catch (e) {
    out.http = e.message;
  }
  server.close();
  return out;
}

const out = [];
/** A section of the output: `value` a line or a list of them. */
function put(name, value) {
  out.push(`== ${name}`, ...[].concat(value).map(String));
}

// Isolated (Node always has SharedArrayBuffer), the module chosen by feature detection.
const t0 = performance.now();
const engine = await createChariot();
let readyBefore = false;
engine.ready.then(() => (readyBefore = true));
// Posted before the engine is ready: queued, never dropped.
const queued = session(engine, ["uci", "isready"], /^readyok$/);
put("queued", [`ready ${readyBefore}`, ...(await queued)]);
await engine.ready;
put("load ms", [engine.loadMs, Math.round(performance.now() - t0)]);
put("mode", `isolated ${engine.isolated} simd ${engine.simd}`);
put("depth6 ring", await session(engine, DEPTH6, /^bestmove/));
put("bad ring", await badAnswers({}));
const ringStops = [];
for (let i = 0; i < 3; i++) ringStops.push(await stopOnce(engine, 8));
put("stop ring", ringStops);

// Two engines at once: the plain module, not isolated.
const other = await createChariot({ isolated: false, simd: false });
put("other mode", `isolated ${other.isolated} simd ${other.simd}`);
await other.ready;
const both = await Promise.all([
  session(other, DEPTH6, /^bestmove/),
  session(engine, ["ucinewgame", ...DEPTH6], /^bestmove/),
]);
put("depth6 message", both[0]);
put("depth6 ring again", both[1]);
put("bad message", await badAnswers({ isolated: false }));

// Not isolated: stop answered here, the worker replaced; then the engine plays on.
const messageStops = [];
for (let i = 0; i < 5; i++) messageStops.push(await stopOnce(other, 8));
put("stop message", messageStops);
// The position given again to the new worker: depth 6 from it with no new `position`.
put("depth6 after stop", await session(other, ["go depth 6"], /^bestmove/));
// ponderhit: the search started again without `ponder`.
const ponder = session(other, ["position startpos moves h2e2", "go ponder movetime 300"], /^bestmove/);
await next(other, /^info depth 3 /);
const hit = performance.now();
other.postMessage("ponderhit");
const ponderLines = await ponder;
put("ponderhit", [(performance.now() - hit).toFixed(1), ...ponderLines]);
put("legal", other.rules("startpos moves h2e2").legal.join(" "));

// A new `go` during `go infinite`: the first stopped, then the second: a bestmove each.
const infinite = session(other, ["position startpos", "go infinite"], /^info depth 6 /);
await infinite;
put("superseded", await session(other, ["go depth 4"], /^bestmove/, 2));

// terminate(): no more lines, and Node can exit (the timer above says if it cannot).
let after = 0;
other.addMessageListener(() => after++);
other.terminate();
other.postMessage("isready");
engine.terminate();
await new Promise((resolve) => setTimeout(resolve, 300));
put("lines after terminate", after);

const wrong = await wrongBases();
put("wrong base", [wrong.file, wrong.http]);
put("rules", [JSON.stringify(engine.rules("startpos moves h2e2 h9g7")), JSON.stringify(engine.rules("startpos moves a0a5"))]);
process.stdout.write(out.join("\n") + "\n");
