// chariot-xiangqi: the Chariot Xiangqi engine (UCI and UCCI) compiled to WebAssembly, for
// browsers and Node. An engine object in the manner of stockfish.js:
//
//   import { createChariot } from "chariot-xiangqi";
//   const engine = await createChariot();           // { base } says where the files are
//   engine.addMessageListener((line) => console.log(line));
//   engine.postMessage("position startpos moves h2e2 h9g7");
//   engine.postMessage("go depth 6");                // ... "bestmove h0g2 ponder g6g5"
//   engine.rules("startpos moves h2e2")              // legal moves, FEN, the referee's verdict
//   engine.notate("startpos moves h2e2", "chinese")  // {ok: true, texts: ["炮二平五"]}
//   await engine.review(pgn, { nodes: 20000 })       // evals, mistakes, accuracy (a worker)
//   engine.terminate();
//
// `rules`, `notate`, `readMove`, `readRecord` and `writePgn` run synchronously in the small
// rules-only module (shared by the engines of a page; `loadRules` gives them alone); `review`
// in a second worker on the engine's module.
//
// Each engine runs in its own worker (a Web Worker, or a worker_threads Worker in Node) on
// engine-worker.js. Lines reach it in one of two ways (docs/web.md):
// - isolated (SharedArrayBuffer available: a page served with COOP/COEP headers, or Node):
//   lines are written to a ring buffer in shared memory, which the engine reads also during a
//   search, so `stop` is heard inside the search as natively;
// - not isolated: lines are posted to the worker, which reads them only between searches.
//   This script then answers what a running search would have answered at once: `stop` with
//   the best move reported so far (the busy worker is replaced by a new one from the compiled
//   module, given the options and position again: the hash table is lost), `isready`,
//   `ponderhit` (the search is started again without `ponder`) and `quit`.

const RING = 1 << 21; // input bytes in flight (a power of two, above the 1 MiB line limit)
const MAX_LINE = 1 << 20; // the engine's limit: longer lines are refused whole
// (func (result v128) i32.const 0 i8x16.splat i8x16.popcnt): valid where 128-bit SIMD is.
const SIMD_TEST = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0, 253, 15, 253, 98, 11,
]);
const IN_NODE =
  typeof window === "undefined" && typeof process === "object" && typeof process.versions?.node === "string";
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Node's modules, loaded once (never in a browser: the names hide them from bundlers). */
let nodeModules = null;
async function node() {
  if (!nodeModules) {
    const load = (name) => import(/* webpackIgnore: true */ /* @vite-ignore */ name);
    const [fs, url, path, threads] = await Promise.all(
      ["node:fs/promises", "node:url", "node:path", "node:worker_threads"].map(load)
    );
    nodeModules = { fs, url, path, threads };
  }
  return nodeModules;
}

/** The folder `base` names, as a URL ending in "/": by default this module's own folder. */
async function folder(base) {
  let url;
  if (base === undefined || base === null) url = new URL(".", import.meta.url);
  else if (base instanceof URL) url = new URL(base.href);
  else if (IN_NODE && !/^[a-z][a-z0-9+.-]+:/i.test(String(base))) {
    const { url: nodeUrl, path } = await node();
    url = nodeUrl.pathToFileURL(path.resolve(String(base)));
  } else url = new URL(String(base), globalThis.document?.baseURI ?? globalThis.location?.href);
  if (!url.pathname.endsWith("/")) url.pathname += "/";
  return url;
}

/** Compiled modules by URL, shared by the engines of a page. */
const compiled = new Map();

/** Fetches and compiles the module at `url`; the error names the URL. */
function compile(url) {
  if (!compiled.has(url.href)) {
    const job = fetchModule(url).catch((e) => {
      compiled.delete(url.href);
      throw new Error(`chariot: cannot load ${url.href}: ${e.message || e}`);
    });
    compiled.set(url.href, job);
  }
  return compiled.get(url.href);
}

async function fetchModule(url) {
  if (IN_NODE && url.protocol === "file:") {
    const { fs } = await node();
    return WebAssembly.compile(await fs.readFile(url));
  }
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${response.status} ${response.statusText}`.trim());
  const type = response.headers.get("Content-Type") || "";
  if (WebAssembly.compileStreaming && type.startsWith("application/wasm")) {
    return WebAssembly.compileStreaming(response);
  }
  return WebAssembly.compile(await response.arrayBuffer());
}

/** Imports for a module whose imports are never called but must exist (`now_ms` may be). */
function inertImports(module) {
  const imports = {};
  for (const imp of WebAssembly.Module.imports(module)) {
    if (imp.kind !== "function") continue;
    imports[imp.module] = imports[imp.module] || {};
    imports[imp.module][imp.name] = imp.name === "now_ms" ? () => performance.now() : () => 0;
  }
  return imports;
}

/** The rules-only module's functions by URL: they are pure, so engines share one instance. */
const rulesApis = new Map();

/**
 * The synchronous functions of the rules-only module at `url`: `rules`, `notate`, `readMove`,
 * `readRecord`, `writePgn`. Each writes its request to the module's exchange buffer, calls the
 * export and parses the JSON it leaves there. A trap (the module never panics on input, but
 * memory can run out) leaves the instance unusable: the call answers `{ok: false, error}` and
 * a new instance replaces it (asynchronously: a browser's main thread may not instantiate a
 * module this size synchronously).
 */
function rulesApi(url) {
  if (!rulesApis.has(url.href)) {
    const job = compile(url).then(async (module) => {
      const instantiate = () => WebAssembly.instantiate(module, inertImports(module)).then((i) => i.exports);
      let ex = await instantiate();
      const call = (name, data) => {
        if (!ex) return { ok: false, error: "chariot: the rules module is restarting after an error; try again" };
        try {
          let ptr = ex.exchange(data.length);
          new Uint8Array(ex.memory.buffer, ptr, data.length).set(data);
          const len = ex[name](data.length);
          ptr = ex.exchange(len);
          return JSON.parse(decoder.decode(new Uint8Array(ex.memory.buffer, ptr, len).slice()));
        } catch (e) {
          ex = null;
          instantiate().then((fresh) => (ex = fresh), () => {});
          return { ok: false, error: `chariot: ${name} failed: ${e.message || e}` };
        }
      };
      return recordFunctions((name, text) => call(name, typeof text === "string" ? encoder.encode(text) : text));
    });
    job.catch(() => rulesApis.delete(url.href));
    rulesApis.set(url.href, job);
  }
  return rulesApis.get(url.href);
}

/** Text on one line: a request's option lines cannot hold a line break. */
function oneLine(value) {
  return String(value ?? "").replace(/[\r\n]+/g, " ");
}

/**
 * The entries of an object, a Map, an array of [key, value] pairs, or an array of values
 * (keyed from 1: `comments[i]` is said of ply i + 1, as `readRecord` gives them).
 */
function entries(x) {
  if (!x) return [];
  if (x instanceof Map) return [...x.entries()];
  if (Array.isArray(x)) return x.every(Array.isArray) ? x : x.map((v, i) => [i + 1, v]);
  return Object.entries(x);
}

/** Bytes of a record given as text, bytes or an ArrayBuffer; null for anything else. */
function recordBytes(record) {
  if (typeof record === "string") return encoder.encode(record);
  if (record instanceof Uint8Array) return record;
  if (record instanceof ArrayBuffer) return new Uint8Array(record);
  if (ArrayBuffer.isView(record)) return new Uint8Array(record.buffer, record.byteOffset, record.byteLength);
  return null;
}

/** The functions of the package's rules-only module, on `call(export, request)`. */
function recordFunctions(call) {
  return {
    rules: (spec) => call("rules", String(spec)),
    notate: (spec, notation = "chinese") => call("notate", `${oneLine(notation)} ${oneLine(spec)}`),
    readMove: (spec, text) => call("read_move", `${oneLine(spec)}\n${oneLine(text)}`),
    readRecord: (record) => {
      const bytes = recordBytes(record);
      if (!bytes) return { ok: false, error: "chariot: readRecord takes text, a Uint8Array or an ArrayBuffer" };
      return call("read_record", bytes);
    },
    writePgn: ({ spec = "startpos", notation = "chinese", tags, comments } = {}) => {
      const lines = [`notation ${oneLine(notation)}`];
      for (const [name, value] of entries(tags)) {
        // A tag's name is one word: the module refuses one it cannot write.
        lines.push(`tag ${oneLine(name).replace(/\s+/g, "?")} ${oneLine(value)}`);
      }
      for (const [ply, text] of entries(comments)) {
        if (text !== null && text !== undefined && text !== "") lines.push(`comment ${oneLine(ply)} ${oneLine(text)}`);
      }
      return call("write_pgn", `${lines.join("\n")}\n\n${oneLine(spec)}`);
    },
  };
}

/**
 * The rules, notation and record functions alone, without an engine: `rules`, `notate`,
 * `readMove`, `readRecord`, `writePgn`, as on an engine. Loads only chariot-rules.wasm (from
 * `base`, as `createChariot` takes it).
 */
export async function loadRules({ base } = {}) {
  if (IN_NODE) await node();
  const dir = await folder(base);
  return rulesApi(new URL("chariot-rules.wasm", dir));
}

/** A worker on engine-worker.js at `url`, behind one interface in browsers and in Node. */
function spawn(url) {
  if (IN_NODE) {
    const w = new nodeModules.threads.Worker(url);
    return {
      post: (m) => w.postMessage(m),
      listen: (fn) => w.on("message", fn),
      failed: (fn) => w.on("error", fn),
      terminate: () => w.terminate(),
    };
  }
  const w = new Worker(url, { type: "module" });
  return {
    post: (m) => w.postMessage(m),
    listen: (fn) => (w.onmessage = (e) => fn(e.data)),
    failed: (fn) => (w.onerror = (e) => (e.preventDefault(), fn(new Error(e.message || "the script did not run")))),
    terminate: () => w.terminate(),
  };
}

/** The words of a line as the engine's parser splits it (at ASCII whitespace). */
function words(line) {
  return line.split(/[\t\n\f\r ]+/).filter((w) => w !== "");
}

/**
 * Makes an engine. Options: `base` (the folder holding the .wasm files and engine-worker.js:
 * a URL, or in Node a path; default this module's folder), `isolated` (false: lines are
 * posted to the worker even where shared memory exists; true: fail without it; default: use
 * it where it exists), `simd` (false: the plain module even where SIMD exists).
 */
export async function createChariot({ base, isolated, simd } = {}) {
  const started = performance.now();
  if (IN_NODE) await node();
  const dir = await folder(base);
  const canShare = typeof SharedArrayBuffer === "function" && globalThis.crossOriginIsolated !== false;
  if (isolated === true && !canShare) {
    throw new Error(
      "chariot: isolated needs SharedArrayBuffer: serve the page with the headers " +
        "Cross-Origin-Opener-Policy: same-origin and Cross-Origin-Embedder-Policy: require-corp"
    );
  }
  const ring = isolated ?? canShare;
  const withSimd = simd !== false && WebAssembly.validate(SIMD_TEST);
  const engineUrl = new URL(withSimd ? "chariot-simd.wasm" : "chariot.wasm", dir);
  const [module, records] = await Promise.all([compile(engineUrl), rulesApi(new URL("chariot-rules.wasm", dir))]);
  const workerUrl = new URL("engine-worker.js", dir);
  const engine = ring ? new RingEngine(module, workerUrl) : new MessageEngine(module, workerUrl);
  engine.createdAt = started;
  await engine.loaded;
  return engine.facade(records, new Reviewer(module, workerUrl), { isolated: ring, simd: withSimd });
}

/** What both kinds of engine share: listeners, the worker's messages, readiness. */
class Base {
  constructor(module, workerUrl) {
    this.module = module;
    this.workerUrl = workerUrl;
    this.listeners = [];
    this.outbox = []; // lines for the listeners, in order
    this.draining = false;
    this.closed = false; // the worker has ended: lines posted now are ignored
    this.silenced = false; // terminate(): lines not yet delivered are dropped
    this.loadMs = null;
    this.ready = new Promise((resolve, reject) => {
      this.resolveReady = resolve;
      this.rejectReady = reject;
    });
    this.ready.catch(() => {}); // also reported through `loaded` or the console
  }

  /** Starts a worker; `first`: the one whose loading `loaded` reports. */
  start(message, first) {
    const worker = spawn(this.workerUrl);
    this.worker = worker;
    const loaded = new Promise((resolve, reject) => {
      worker.failed((e) => {
        const error = new Error(`chariot: cannot load ${this.workerUrl.href}: ${e.message || e}`);
        reject(error);
        if (worker === this.worker) this.failed(error);
      });
      worker.listen((msg) => {
        if (worker !== this.worker) return; // a replaced worker's last words
        if (msg.loaded) resolve();
        else if (msg.out !== undefined) this.output(msg.out, worker);
        else if (msg.ready) this.onReady(first);
        else if (msg.ack !== undefined) this.acked(msg.ack);
        else if (msg.started) this.begun();
        else if (msg.quit) this.close();
        else if (msg.error) this.failed(new Error("chariot: " + msg.error));
      });
    });
    worker.post(message);
    if (first) this.loaded = loaded;
    else loaded.catch(() => {});
  }

  onReady(first) {
    if (!first) return;
    this.loadMs = Math.round(performance.now() - this.createdAt);
    this.resolveReady();
  }

  failed(error) {
    console.error(error.message);
    this.rejectReady(error);
    this.close();
  }

  /**
   * Queues a line for the listeners. They are called from a microtask, never from inside
   * `postMessage`: a listener may post lines, and they meet the engine as it is once the
   * line it answers has taken effect.
   */
  emit(line) {
    this.outbox.push(line);
    if (!this.draining) {
      this.draining = true;
      queueMicrotask(() => this.drain());
    }
  }

  drain() {
    while (this.outbox.length > 0 && !this.silenced) {
      const line = this.outbox.shift();
      for (const fn of this.listeners.slice()) {
        try {
          fn(line);
        } catch (e) {
          setTimeout(() => {
            throw e; // reported as the listener's own error; the engine goes on
          });
        }
      }
    }
    this.outbox = [];
    this.draining = false;
  }

  /** The lines of one message of the engine's output. */
  output(text) {
    const lines = text.split("\n");
    if (lines[lines.length - 1] === "") lines.pop();
    for (const line of lines) this.emit(line);
  }

  acked() {}

  begun() {}

  close() {
    if (this.closed) return;
    this.closed = true;
    this.worker.terminate();
  }

  /** The object handed to the caller. */
  facade(records, reviewer, { isolated, simd }) {
    const engine = this;
    return {
      postMessage: (text) => {
        if (!engine.closed) engine.post(String(text));
      },
      addMessageListener: (fn) => {
        engine.listeners.push(fn);
      },
      removeMessageListener: (fn) => {
        const i = engine.listeners.indexOf(fn);
        if (i >= 0) engine.listeners.splice(i, 1);
      },
      terminate: () => {
        engine.silenced = true;
        engine.close();
        reviewer.terminate();
      },
      ...records,
      review: (record, options) => reviewer.review(record, options),
      ready: engine.ready,
      get loadMs() {
        return engine.loadMs;
      },
      isolated,
      simd,
    };
  }
}

/** Isolated: lines go through the ring buffer, which a running search reads. */
class RingEngine extends Base {
  constructor(module, workerUrl) {
    super(module, workerUrl);
    const input = new SharedArrayBuffer(16 + RING);
    this.header = new Int32Array(input, 0, 4); // [0] bytes written (here), [1] bytes read
    this.ring = new Uint8Array(input, 16);
    this.waiting = []; // encoded lines waiting for room in the ring
    this.flushTimer = null;
    this.start({ module, input }, true);
  }

  post(text) {
    let data = encoder.encode(text + "\n");
    if (data.length > MAX_LINE + 1) {
      // The engine refuses a line over the limit ("line too long"): send only its head.
      const head = new Uint8Array(MAX_LINE + 2);
      head.set(data.subarray(0, MAX_LINE + 1));
      head[MAX_LINE + 1] = 10;
      data = head;
    }
    this.waiting.push(data);
    this.flush();
  }

  flush() {
    this.flushTimer = null;
    if (this.closed) return;
    const { header, ring } = this;
    let wrote = false;
    while (this.waiting.length > 0) {
      const data = this.waiting[0];
      const w = Atomics.load(header, 0);
      const r = Atomics.load(header, 1);
      if (RING - ((w - r) | 0) < data.length) break;
      for (let i = 0; i < data.length; i++) ring[(w + i) & (RING - 1)] = data[i];
      Atomics.store(header, 0, (w + data.length) | 0);
      this.waiting.shift();
      wrote = true;
    }
    if (wrote) {
      Atomics.notify(header, 0);
      this.worker.post("wake");
    }
    if (this.waiting.length > 0 && this.flushTimer === null) this.flushTimer = setTimeout(() => this.flush(), 5);
  }

  close() {
    if (this.flushTimer !== null) clearTimeout(this.flushTimer);
    super.close();
  }
}

/** The state a new worker is given again: handshake, options, position, banned moves. */
function copyState(s) {
  return { handshake: s.handshake, options: new Map(s.options), position: s.position, bans: s.bans };
}

/**
 * Not isolated: lines are posted to the worker, one message each, and read between runs of
 * the engine. While a search runs here, the lines a native search hears at once are answered
 * here (see the file's head).
 */
class MessageEngine extends Base {
  constructor(module, workerUrl) {
    super(module, workerUrl);
    this.state = { handshake: null, options: new Map(), position: null, bans: null };
    this.seq = 0; // the number of the last line posted to the current worker
    this.inflight = []; // [seq, line] posted to the current worker and not yet run
    // The last `go` or `bench` posted, until it ends: whether it has `started` (a search or
    // bench runs: the worker said so) or is refused, the worker's answer tells.
    this.active = null;
    this.held = []; // lines waiting to know whether it started, or for a `stop`'s answer
    this.muted = false; // a new worker's answers to the state given again, until `readyok`
    this.start({ module }, true);
  }

  post(text) {
    for (const line of text.split("\n")) this.send(line);
  }

  /** One line, as the engine would take it. */
  send(line) {
    if (this.closed) return;
    if (line.length > MAX_LINE) line = line.slice(0, MAX_LINE + 1); // still too long: refused
    if (this.active && (!this.active.started || this.active.stopping)) {
      this.held.push(line);
      return;
    }
    const w = words(line);
    const word = (w[0] || "").toLowerCase();
    const a = this.active;
    if (a && this.during(a, word, line, w)) return;
    this.remember(word, line, w);
    this.seq += 1;
    this.inflight.push([this.seq, line]);
    if (word === "go" || word === "bench") {
      this.active = {
        kind: word,
        seq: this.seq,
        line,
        ponder: word === "go" && w.some((x) => x.toLowerCase() === "ponder"),
        before: copyState(this.state),
        pv: null,
        started: false,
        stopping: false,
      };
    }
    this.worker.post({ line, seq: this.seq });
  }

  /** A line arriving while `a` runs: true if it is answered here. */
  during(a, word, line, w) {
    switch (word) {
      case "isready":
        this.emit("readyok");
        return true;
      case "quit":
        if (a.kind === "go" && a.pv) this.emit(bestmove(a.pv));
        if (this.state.handshake === "ucci") this.emit("bye");
        this.close();
        return true;
      case "stop":
        if (a.kind === "go") this.stop();
        return true; // a bench runs to its end
      case "ponderhit":
        if (a.ponder) {
          const go = words(a.line).filter((x) => x.toLowerCase() !== "ponder");
          if (w.some((x) => x.toLowerCase() === "draw") && !go.some((x) => x.toLowerCase() === "draw")) go.push("draw");
          this.replace([go.join(" ")]);
        }
        return true;
      case "go":
      case "bench":
        // A new search supersedes the running one, as natively: stopped, then this one.
        if (a.kind !== "go") return false;
        this.held.push(line);
        this.stop();
        return true;
      default:
        return false;
    }
  }

  /** Keeps what a new worker must be told again. */
  remember(word, line, w) {
    const s = this.state;
    if (word === "uci" || word === "ucci") s.handshake = word;
    else if (word === "setoption") {
      // Keyed by the name: the words before `value` (UCI), or the second word (UCCI).
      const at = w.findIndex((x) => x.toLowerCase() === "value");
      const uci = (w[1] || "").toLowerCase() === "name";
      const key = (uci ? w.slice(2, at >= 0 ? at : w.length) : w.slice(1, 2)).join(" ").toLowerCase();
      s.options.delete(key);
      s.options.set(key, line);
    } else if (word === "position" || word === "startpos" || word === "fen") {
      s.position = line;
      s.bans = null;
    } else if (word === "banmoves") s.bans = line;
  }

  /** `stop` during a search: its best move so far now, or once it has reported one. */
  stop() {
    const a = this.active;
    if (a.pv) {
      this.emit(bestmove(a.pv));
      this.replace([]);
    } else a.stopping = true;
  }

  output(text, worker) {
    const lines = text.split("\n");
    if (lines[lines.length - 1] === "") lines.pop();
    for (const line of lines) {
      if (worker !== this.worker) return; // replaced meanwhile: the rest is the old worker's
      if (this.muted) {
        this.muted = line !== "readyok";
        continue;
      }
      const a = this.active;
      if (a && a.kind === "go") {
        if (line.startsWith("bestmove") || line.startsWith("nobestmove")) {
          this.emit(line);
          this.ended();
          continue;
        }
        const pv = principal(line);
        if (pv) a.pv = pv;
        this.emit(line);
        if (pv && a.stopping) {
          this.emit(bestmove(pv));
          this.replace([]);
        }
        continue;
      }
      this.emit(line);
    }
  }

  acked(seq) {
    while (this.inflight.length > 0 && this.inflight[0][0] <= seq) this.inflight.shift();
    if (this.active && seq >= this.active.seq) this.ended();
  }

  /** The search or bench has started: the lines held meet it as they would natively. */
  begun() {
    if (!this.active || this.active.started) return;
    this.active.started = true;
    this.release([]);
  }

  /**
   * The search ended on its own, or never started (the line was refused): the lines held
   * meet the idle engine, a `stop` waiting for the search first.
   */
  ended() {
    const a = this.active;
    this.active = null;
    this.release(a.stopping ? ["stop"] : []);
  }

  /** Sends `first`, then the lines held. */
  release(first) {
    const held = this.held;
    this.held = [];
    for (const line of [...first, ...held]) this.send(line);
  }

  /**
   * Replaces the busy worker with a new one from the compiled module: the state as it was
   * when the search began, then `first`, then the lines that waited behind the search.
   */
  replace(first) {
    const a = this.active;
    const waiting = this.inflight.filter(([seq]) => seq > a.seq).map(([, line]) => line);
    const held = this.held;
    this.worker.terminate();
    this.active = null;
    this.held = [];
    this.inflight = [];
    this.seq = 0;
    this.state = copyState(a.before);
    this.start({ module: this.module }, false);
    const s = this.state;
    const again = [s.handshake, ...s.options.values(), s.position, s.bans].filter((l) => l !== null);
    this.muted = true;
    for (const line of again) this.worker.post({ line, seq: 0 });
    this.worker.post({ line: "isready", seq: 0 });
    for (const line of [...first, ...waiting, ...held]) this.send(line);
  }
}

/**
 * Game review (`review(record, options)` of an engine): the engine module's `review` export,
 * run in a worker of its own on the module the engine compiled, so that the engine playing
 * is never blocked. Started at the first review; reviews run one after another (each waits
 * for the one before); ended with the engine.
 */
class Reviewer {
  constructor(module, workerUrl) {
    this.module = module;
    this.workerUrl = workerUrl;
    this.worker = null;
    this.pending = null; // {resolve, reject} of the review running
    this.queue = Promise.resolve();
    this.closed = false;
  }

  /** Queues a review: the Promise of its answer. */
  review(record, options = {}) {
    const job = this.queue.then(() => this.run(record, options));
    this.queue = job.catch(() => {});
    return job;
  }

  /** The request's bytes: the options, an empty line, the record; or an Error. */
  request(record, { nodes, movetime, hash, notation } = {}) {
    const bytes = recordBytes(record);
    if (!bytes) return new Error("chariot: review takes a record as text, a Uint8Array or an ArrayBuffer");
    const options = Object.entries({ nodes, movetime, hash, notation })
      .filter(([, v]) => v !== undefined && v !== null)
      .map(([k, v]) => `${k} ${oneLine(v)}`);
    const head = encoder.encode(options.map((l) => l + "\n").join("") + "\n");
    const data = new Uint8Array(head.length + bytes.length);
    data.set(head);
    data.set(bytes, head.length);
    return data;
  }

  run(record, options) {
    if (this.closed) return Promise.reject(new Error("chariot: review after terminate()"));
    const data = this.request(record, options);
    if (data instanceof Error) return Promise.reject(data);
    if (!this.worker) this.startWorker();
    return new Promise((resolve, reject) => {
      this.pending = { resolve, reject };
      this.worker.post({ review: data });
    });
  }

  startWorker() {
    const worker = spawn(this.workerUrl);
    this.worker = worker;
    const fail = (message) => {
      if (worker !== this.worker) return;
      // The worker is left: the next review starts a new one.
      worker.terminate();
      this.worker = null;
      this.settle(null, new Error(message));
    };
    worker.failed((e) => fail(`chariot: review failed: ${e.message || e}`));
    worker.listen((msg) => {
      if (worker !== this.worker) return;
      if (msg.reviewed !== undefined) {
        let answer;
        try {
          answer = JSON.parse(msg.reviewed);
        } catch (e) {
          this.settle(null, new Error(`chariot: review answered no JSON: ${e.message}`));
          return;
        }
        if (answer.ok) this.settle(answer, null);
        else this.settle(null, new Error(`chariot: review: ${answer.error}`));
      } else if (msg.error) fail(`chariot: review failed: ${msg.error}`);
    });
    worker.post({ module: this.module, role: "review" });
  }

  settle(answer, error) {
    const p = this.pending;
    this.pending = null;
    if (!p) return;
    if (error) p.reject(error);
    else p.resolve(answer);
  }

  terminate() {
    this.closed = true;
    if (this.worker) this.worker.terminate();
    this.worker = null;
    this.settle(null, new Error("chariot: the engine was terminated during the review"));
  }
}

/** The moves of a line's principal variation (`info … pv …`, the first of several). */
function principal(line) {
  if (!line.startsWith("info ")) return null;
  const w = words(line);
  const at = w.indexOf("pv");
  if (at < 0 || at + 1 >= w.length) return null;
  const multipv = w.indexOf("multipv");
  if (multipv >= 0 && w[multipv + 1] !== "1") return null;
  return w.slice(at + 1);
}

function bestmove(pv) {
  return pv.length > 1 ? `bestmove ${pv[0]} ponder ${pv[1]}` : `bestmove ${pv[0]}`;
}
