// The engine's Web Worker: runs chariot.wasm on this one thread.
//
// The page sends {module, input} once: the compiled module and the SharedArrayBuffer through
// which lines arrive (see engine.js), then "wake" whenever it has written lines. The engine
// reads them itself, also during a search, so "stop" is heard within a search.
"use strict";

let exports = null;
let header = null; // Int32Array: [0] bytes written (by the page), [1] bytes read (here)
let ring = null; // Uint8Array: the input bytes, modulo its length
const decoder = new TextDecoder();

function bytes() {
  return new Uint8Array(exports.memory.buffer);
}

const imports = {
  chariot: {
    now_ms: () => performance.now(),
    output(ptr, len) {
      postMessage({ out: decoder.decode(bytes().slice(ptr, ptr + len)) });
    },
    input(ptr, cap) {
      const w = Atomics.load(header, 0);
      const r = Atomics.load(header, 1);
      const n = Math.min((w - r) | 0, cap);
      if (n <= 0) return 0;
      const mem = bytes();
      const mask = ring.length - 1;
      for (let i = 0; i < n; i++) mem[ptr + i] = ring[(r + i) & mask];
      Atomics.store(header, 1, (r + n) | 0);
      return n;
    },
    input_wait(ms) {
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

let quit = false;

function pump() {
  if (quit) return;
  try {
    if (exports.pump() === 1) {
      quit = true;
      postMessage({ quit: true });
    }
  } catch (e) {
    quit = true;
    postMessage({ error: String(e) });
  }
}

onmessage = async (event) => {
  const msg = event.data;
  if (msg === "wake") {
    if (exports) pump();
    return;
  }
  try {
    header = new Int32Array(msg.input, 0, 4);
    ring = new Uint8Array(msg.input, 16);
    stubs(msg.module);
    const instance = await WebAssembly.instantiate(msg.module, imports);
    exports = instance.exports;
    exports.start();
    postMessage({ ready: true });
    pump();
  } catch (e) {
    postMessage({ error: String(e) });
  }
};
