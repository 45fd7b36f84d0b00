// window.chariot: the Chariot engine in a Web Worker, as an engine object in the stockfish.js
// manner. Load this script from the folder that holds engine-worker.js and chariot.wasm.
//
//   chariot.postMessage("go depth 6");            // one or more protocol lines
//   chariot.addMessageListener(line => ...);      // each line of output
//   await chariot.ready;                          // resolved when the engine takes commands
//   chariot.rules("startpos moves h2e2")          // the page's rules (after ready): legal
//                                                 // moves, FEN and the referee's verdict
//
// Lines travel to the engine through a SharedArrayBuffer (so a running search reads them,
// "stop" included), which browsers give only to a page served with the headers
// Cross-Origin-Opener-Policy: same-origin and Cross-Origin-Embedder-Policy: require-corp.
"use strict";

(function () {
  const base = new URL(".", document.currentScript.src);
  const RING = 1 << 21; // input bytes in flight (a power of two, above the 1 MiB line limit)
  const MAX_LINE = 1 << 20; // the engine's limit: longer lines are refused whole
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  const listeners = [];
  const waiting = []; // encoded lines waiting for room in the ring
  let worker = null;
  let header = null;
  let ring = null;
  let rulesExports = null;
  let flushTimer = null;

  function deliver(text) {
    const lines = text.split("\n");
    if (lines[lines.length - 1] === "") lines.pop();
    for (const line of lines) for (const fn of listeners.slice()) fn(line);
  }

  function flush() {
    flushTimer = null;
    let wrote = false;
    while (waiting.length > 0) {
      const data = waiting[0];
      const w = Atomics.load(header, 0);
      const r = Atomics.load(header, 1);
      if (RING - ((w - r) | 0) < data.length) break;
      for (let i = 0; i < data.length; i++) ring[(w + i) & (RING - 1)] = data[i];
      Atomics.store(header, 0, (w + data.length) | 0);
      waiting.shift();
      wrote = true;
    }
    if (wrote) {
      Atomics.notify(header, 0);
      worker.postMessage("wake");
    }
    if (waiting.length > 0 && flushTimer === null) flushTimer = setTimeout(flush, 5);
  }

  const engine = {
    /** Sends one or more protocol lines. */
    postMessage(line) {
      if (!worker) return;
      let data = encoder.encode(String(line) + "\n");
      if (data.length > MAX_LINE + 1) {
        // The engine refuses a line over the limit ("line too long"): send only its head.
        const head = new Uint8Array(MAX_LINE + 2);
        head.set(data.subarray(0, MAX_LINE + 1));
        head[MAX_LINE + 1] = 10;
        data = head;
      }
      waiting.push(data);
      flush();
    },
    /** Calls fn with each line the engine writes. */
    addMessageListener(fn) {
      listeners.push(fn);
    },
    /** Stops calling fn. */
    removeMessageListener(fn) {
      const i = listeners.indexOf(fn);
      if (i >= 0) listeners.splice(i, 1);
    },
    /** The page's rules: see `rules` in the crate's src/web.rs. */
    rules(spec) {
      const data = encoder.encode(spec);
      let ptr = rulesExports.exchange(data.length);
      new Uint8Array(rulesExports.memory.buffer, ptr, data.length).set(data);
      const len = rulesExports.rules(data.length);
      ptr = rulesExports.exchange(len);
      return JSON.parse(decoder.decode(new Uint8Array(rulesExports.memory.buffer, ptr, len).slice()));
    },
    /** Milliseconds from the script's start to the engine's readiness. */
    loadMs: null,
    ready: null,
  };

  const started = performance.now();
  engine.ready = (async () => {
    if (!self.crossOriginIsolated) {
      throw new Error(
        "the page must be served with the headers Cross-Origin-Opener-Policy: same-origin " +
          "and Cross-Origin-Embedder-Policy: require-corp (the engine reads its input from shared memory)"
      );
    }
    const module = await WebAssembly.compileStreaming(fetch(new URL("chariot.wasm", base)));
    const rulesImports = {};
    for (const imp of WebAssembly.Module.imports(module)) {
      if (imp.kind !== "function") continue;
      rulesImports[imp.module] = rulesImports[imp.module] || {};
      rulesImports[imp.module][imp.name] = imp.name === "now_ms" ? () => performance.now() : () => 0;
    }
    rulesExports = (await WebAssembly.instantiate(module, rulesImports)).exports;
    const input = new SharedArrayBuffer(16 + RING);
    header = new Int32Array(input, 0, 4);
    ring = new Uint8Array(input, 16);
    worker = new Worker(new URL("engine-worker.js", base));
    await new Promise((resolve, reject) => {
      worker.onmessage = (event) => {
        const msg = event.data;
        if (msg.out !== undefined) deliver(msg.out);
        else if (msg.ready) resolve();
        else if (msg.quit) {
          worker.terminate();
          worker = null;
        } else if (msg.error) {
          console.error("chariot: " + msg.error);
          engine.error = msg.error;
          reject(new Error(msg.error));
        }
      };
      worker.postMessage({ module, input });
    });
    engine.loadMs = Math.round(performance.now() - started);
  })();
  window.chariot = engine;
})();
