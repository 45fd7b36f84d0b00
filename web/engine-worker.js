// The engine's worker (a Web Worker, or a worker_threads Worker in Node): runs the engine
// module on this one thread. Started by chariot.js, which sends {module, input} once: the
// compiled module and, when isolated, the SharedArrayBuffer through which lines arrive.
//
// Isolated, chariot.js writes lines into that ring and sends "wake": the engine reads the
// ring itself, also during a search, so `stop` is heard within a search. Not isolated, it
// sends each line as {line, seq}: the lines wait in a queue here, the engine reads them
// between runs, {ack: seq} says the line numbered seq has run, and {started: true} that a
// search or bench has started (the lines after it wait until it ends).
//
// A review worker (chariot.js's `review`) is sent {module, role: "review"} instead: it runs
// no engine loop, only the module's `review` export, once for each {review: bytes} it is
// sent, answering {reviewed: json} (or {error} if the module failed).

const decoder = new TextDecoder();
const encoder = new TextEncoder();

// This script's end of the channel, the same in a browser and in Node.
let port;
if (typeof self !== "undefined" && typeof self.postMessage === "function") {
  port = { post: (m) => self.postMessage(m), listen: (fn) => (self.onmessage = (e) => fn(e.data)) };
} else {
  const name = "node:worker_threads"; // a name, so that bundlers for browsers leave it alone
  const { parentPort } = await import(/* webpackIgnore: true */ /* @vite-ignore */ name);
  port = { post: (m) => parentPort.postMessage(m), listen: (fn) => parentPort.on("message", fn) };
}

let exports = null;
let header = null; // isolated: Int32Array: [0] bytes written (by chariot.js), [1] bytes read (here)
let ring = null; // isolated: Uint8Array: the input bytes, modulo its length
const queue = []; // not isolated: encoded lines not yet read
let lastSeq = 0; // not isolated: the number of the last line queued
let quit = false;

function bytes() {
  return new Uint8Array(exports.memory.buffer);
}

function readRing(ptr, cap) {
  const w = Atomics.load(header, 0);
  const r = Atomics.load(header, 1);
  const n = Math.min((w - r) | 0, cap);
  if (n <= 0) return 0;
  const mem = bytes();
  const mask = ring.length - 1;
  for (let i = 0; i < n; i++) mem[ptr + i] = ring[(r + i) & mask];
  Atomics.store(header, 1, (r + n) | 0);
  return n;
}

function readQueue(ptr, cap) {
  const mem = bytes();
  let n = 0;
  while (queue.length > 0 && n < cap) {
    const head = queue[0];
    const k = Math.min(head.length, cap - n);
    mem.set(head.subarray(0, k), ptr + n);
    n += k;
    if (k === head.length) queue.shift();
    else queue[0] = head.subarray(k);
  }
  return n;
}

const imports = {
  chariot: {
    now_ms: () => performance.now(),
    output(ptr, len) {
      port.post({ out: decoder.decode(bytes().slice(ptr, ptr + len)) });
    },
    input: (ptr, cap) => (header ? readRing(ptr, cap) : readQueue(ptr, cap)),
    // A search or bench has started (not isolated, chariot.js then answers for it).
    search_started: () => port.post({ started: true }),
    input_wait(ms) {
      // Not isolated, nothing can arrive while the engine runs: return at once.
      if (!header) return;
      const w = Atomics.load(header, 0);
      if (w === Atomics.load(header, 1)) Atomics.wait(header, 0, w, ms);
    },
    random_fill(ptr, len) {
      for (let at = 0; at < len; at += 65536) {
        crypto.getRandomValues(new Uint8Array(exports.memory.buffer, ptr + at, Math.min(65536, len - at)));
      }
    },
  },
};

// Functions the module names but never calls (pulled in by a dependency's browser support).
function stubs(module) {
  for (const imp of WebAssembly.Module.imports(module)) {
    if (imp.kind !== "function" || imp.module === "chariot") continue;
    imports[imp.module] = imports[imp.module] || {};
    imports[imp.module][imp.name] = () => {
      throw new Error("not available: " + imp.name);
    };
  }
}

/** Runs what there is to run; not isolated, then says which lines have run. */
function pump() {
  if (quit) return;
  try {
    if (exports.pump() === 1) {
      quit = true;
      port.post({ quit: true });
    }
  } catch (e) {
    quit = true;
    port.post({ error: String(e) });
  }
  if (!header && !quit) port.post({ ack: lastSeq });
}

/** Runs the module's `review` export on a request's bytes and posts the answer's text. */
function review(data) {
  try {
    let ptr = exports.exchange(data.length);
    bytes().set(data, ptr);
    const len = exports.review(data.length);
    ptr = exports.exchange(len);
    port.post({ reviewed: decoder.decode(bytes().slice(ptr, ptr + len)) });
  } catch (e) {
    port.post({ error: String(e) });
  }
}

// A review worker: whether its module is instantiated, and the requests sent before.
let reviewing = false;
const early = [];

/** A review worker: instantiates the module, then reviews what it is sent, one at a time. */
async function startReviews(msg) {
  try {
    stubs(msg.module);
    exports = (await WebAssembly.instantiate(msg.module, imports)).exports;
  } catch (e) {
    port.post({ error: String(e) });
    return;
  }
  reviewing = true;
  for (const data of early.splice(0)) review(data);
}

async function start(msg) {
  try {
    if (msg.input) {
      header = new Int32Array(msg.input, 0, 4);
      ring = new Uint8Array(msg.input, 16);
    }
    stubs(msg.module);
    const instance = await WebAssembly.instantiate(msg.module, imports);
    exports = instance.exports;
    exports.start();
    port.post({ ready: true });
    pump();
  } catch (e) {
    port.post({ error: String(e) });
  }
}

port.listen((msg) => {
  if (msg.review !== undefined) {
    if (reviewing) review(msg.review);
    else early.push(msg.review);
  } else if (msg.role === "review") {
    startReviews(msg);
  } else if (msg === "wake") {
    if (exports) pump();
  } else if (msg.line !== undefined) {
    queue.push(encoder.encode(msg.line + "\n"));
    lastSeq = msg.seq;
    if (exports) pump();
  } else if (msg.module) {
    start(msg);
  }
});
port.post({ loaded: true });
