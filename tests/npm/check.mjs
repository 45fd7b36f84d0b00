// The npm package as a user meets it: run by tests/npm.rs in a folder where the packed
// tarball was installed, it imports the package by name and writes what it saw on stdout, in
// sections (a line `== NAME`, then its lines); tests/npm.rs compares that with the native
// binary.
//
//   node check.mjs BAD_LINES.txt ROOT   # the bad lines, one a line; the repository (its
//                                       # records and notation sample)
import { createChariot, loadRules } from "chariot-xiangqi";
import { readFileSync } from "node:fs";
import http from "node:http";

// A worker left running keeps Node alive: this says so instead of hanging.
setTimeout(() => {
  console.error("check.mjs did not exit: a worker is still running");
  process.exit(3);
}, 300_000).unref();

const badLines = readFileSync(process.argv[2], "utf8").split("\n").slice(0, -1);
const root = process.argv[3];
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

/** A game of 24 plies (the notation's tests and the review's). */
const GAME =
  "h2e2 h9g7 h0g2 i9h9 i0h0 b9c7 c3c4 g6g5 b0c2 b7b3 e3e4 h7h3 a0a1 b3c3 c0a2 a9b9 a1d1 b9b3 d1d7 g9e7 d7c7 f9e8 f0e1 h3h4";

/**
 * The answers of the notation and record functions, as JSON lines `NAME\tANSWER`:
 * `engine`'s and `alone`'s (`loadRules`) for the same requests must be the same.
 */
async function records(engine, alone) {
  const lines = [];
  const say = (name, answer) => lines.push(`${name}\t${JSON.stringify(answer)}`);
  // The notation oracle's sample: FEN, ICCS, WXF, Chinese a line.
  const sample = readFileSync(`${root}/scripts/notation_oracle_sample.tsv`, "utf8").trim().split("\n");
  for (const [i, line] of sample.entries()) {
    const [fen, iccs, wxf, chinese] = line.split("\t");
    const spec = `fen ${fen} moves ${iccs}`;
    for (const n of ["iccs", "wxf", "chinese"]) say(`notate ${i} ${n}`, engine.notate(spec, n));
    for (const [n, text] of [["iccs", iccs], ["wxf", wxf], ["chinese", chinese]]) {
      say(`readMove ${i} ${n}`, engine.readMove(`fen ${fen}`, text));
    }
  }
  for (const n of ["iccs", "wxf", "chinese"]) {
    say(`notate game ${n}`, engine.notate(`startpos moves ${GAME}`, n));
    say(`alone notate game ${n}`, alone.notate(`startpos moves ${GAME}`, n));
  }
  // Records: text and bytes, each format.
  const file = (rel) => readFileSync(`${root}/tests/data/records/${rel}`);
  say("record pgn/utf8-wukong-chinese.pgn", engine.readRecord(file("pgn/utf8-wukong-chinese.pgn").toString("utf8")));
  say("record pgn/wxf-wukong-fullwidth.pgn", engine.readRecord(file("pgn/wxf-wukong-fullwidth.pgn").toString("utf8")));
  say("record pgn/big5-ccpd-zj-00000001.pgn", engine.readRecord(file("pgn/big5-ccpd-zj-00000001.pgn")));
  say("record xqf/v10-jindai-05.xqf", alone.readRecord(new Uint8Array(file("xqf/v10-jindai-05.xqf"))));
  const dhtml = "dhtmlxq/dpxq_liuyongfu_zhangyongsheng.txt";
  say(`record ${dhtml}`, engine.readRecord(file(dhtml).toString("utf8")));
  say("record fen", engine.readRecord("4k4/9/9/9/9/9/9/9/4A4/3AK4 w - - 0 1"));
  // writePgn, read back.
  const comments = { 2: "马跳正", 5: "two\nlines" };
  for (const notation of ["chinese", "wxf", "iccs"]) {
    const tags = { Event: "Club match", Red: "胡荣华", Black: "Bob" };
    const written = engine.writePgn({ spec: `startpos moves ${GAME}`, notation, tags, comments });
    say(`writePgn ${notation}`, written);
    say(`readback ${notation}`, written.ok ? engine.readRecord(written.pgn) : written);
  }
  say("writePgn mate", engine.writePgn({ spec: "fen 3k5/R8/9/9/9/9/9/9/9/1R3K3 w - - 0 1 moves b0b9" }));
  // Bad input: one message each, nothing thrown.
  const bad = [
    ["notate", () => engine.notate("startpos moves h2e2 zz", "wxf")],
    ["notate", () => engine.notate("startpos", "klingon")],
    ["readMove", () => engine.readMove("startpos", "炮二进九")],
    ["readMove", () => engine.readMove("startpos", "")],
    ["readMove", () => engine.readMove("fen nonsense", "h2e2")],
    ["readRecord", () => engine.readRecord("1. h2e2 h9g7 2. h2h8 *")],
    ["readRecord", () => engine.readRecord("rnbakabnr/9/9 w")],
    ["readRecord", () => engine.readRecord("")],
    ["readRecord", () => engine.readRecord(new Uint8Array(4096).map((_, i) => (i * 7919) % 256))],
    ["readRecord", () => engine.readRecord({})],
    ["readRecord", () => engine.readRecord(file("xqf/broken-main-v18-badmove3.xqf"))],
    ["writePgn", () => engine.writePgn({ spec: "startpos moves h2e2", tags: { "Bad name": "x" } })],
    ["writePgn", () => engine.writePgn({ spec: "startpos moves h2e2", comments: { 9: "no such ply" } })],
    ["writePgn", () => engine.writePgn({ spec: "startpos moves h2h8" })],
  ];
  for (const [name, f] of bad) {
    try {
      say(`bad ${name}`, f());
    } catch (e) {
      say(`bad ${name}`, { thrown: String(e) });
    }
  }
  say("rules after bad", engine.rules("startpos moves h2e2"));
  // Review in its own worker, while the engine stays free to answer.
  const pgn = `[Event "Test"]\n\n${GAME} *\n`;
  const t0 = performance.now();
  const reviewing = engine.review(pgn, { nodes: 20000, hash: 16, notation: "chinese" });
  const during = await session(engine, ["isready"], /^readyok$/);
  const reviewed = await reviewing;
  lines.push(`review ms\t${Math.round(performance.now() - t0)}`);
  lines.push(`isready during review\t${during.join(" ")}`);
  say("review", reviewed);
  say("review pgn", reviewed.pgn.trim());
  for (const [name, job] of [
    ["review bad", () => engine.review("1. h2e2 h9g7 2. h2h8 *", { nodes: 1000 })],
    ["review option", () => engine.review("1. h2e2 *", { nodes: "lots" })],
    ["review input", () => engine.review(12)],
  ]) {
    try {
      await job();
      lines.push(`${name}\tresolved`);
    } catch (e) {
      lines.push(`${name}\t${e.message}`);
    }
  }
  // Two at once: one after the other, both answered.
  const both = await Promise.all([1, 2].map(() => engine.review("1. h2e2 h9g7 *", { nodes: 2000 })));
  lines.push(`two reviews\t${both.map((r) => r.moves.length).join(" ")}`);
  return lines;
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

// Notation and records, from the rules-only module (the engine's and loadRules' alike).
const rulesAlone = await loadRules();
put("records", await records(engine, rulesAlone));
// After all the bad input: the engine still plays as natively.
put("depth6 after records", await session(engine, ["ucinewgame", ...DEPTH6], /^bestmove/));

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
