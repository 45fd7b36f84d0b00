// Runs `bench` in a chariot WebAssembly module under Node (20 or later), on this thread, as
// web/engine-worker.js runs the module in a page: the imports of module "chariot", and stubs
// for the functions a dependency names but never calls. Prints the engine's last line
// (`<nodes> nodes <nps> nps`: the nodes are the bench signature) and the nodes per second.
//
//   node scripts/wasm_bench.mjs target/web/chariot.wasm [depth]
//
// V8 runs the module here as in Chromium, so the speed against the native binary measured
// here is the page's, without a browser: docs/web.md gives the numbers.
import { readFileSync } from "node:fs";
import { webcrypto } from "node:crypto";

const [file, depth] = process.argv.slice(2);
if (!file) {
  console.error("usage: node scripts/wasm_bench.mjs <chariot.wasm> [depth]");
  process.exit(2);
}

let module;
try {
  module = await WebAssembly.compile(readFileSync(file));
} catch (e) {
  console.error(`${file}: ${e.message}`);
  process.exit(1);
}

let exports = null;
let input = new TextEncoder().encode(depth ? `bench ${depth}\n` : "bench\n");
const lines = [];
const decoder = new TextDecoder();

const bytes = () => new Uint8Array(exports.memory.buffer);
const imports = {
  chariot: {
    now_ms: () => performance.now(),
    output(ptr, len) {
      const text = decoder.decode(bytes().slice(ptr, ptr + len));
      lines.push(...text.split("\n").filter((l) => l !== ""));
    },
    input(ptr, cap) {
      const n = Math.min(input.length, cap);
      bytes().set(input.subarray(0, n), ptr);
      input = input.subarray(n);
      return n;
    },
    // Nothing more arrives: the bench never waits for input.
    input_wait() {},
    random_fill(ptr, len) {
      for (let at = 0; at < len; at += 65536) {
        const n = Math.min(65536, len - at);
        webcrypto.getRandomValues(new Uint8Array(exports.memory.buffer, ptr + at, n));
      }
    },
  },
};
for (const imp of WebAssembly.Module.imports(module)) {
  if (imp.kind !== "function" || imp.module === "chariot") continue;
  imports[imp.module] = imports[imp.module] || {};
  imports[imp.module][imp.name] = () => {
    throw new Error("not available: " + imp.name);
  };
}

const instance = await WebAssembly.instantiate(module, imports);
exports = instance.exports;
exports.start();
const t0 = performance.now();
// The line is read and the bench run as the worker's loop runs them: one `pump`.
exports.pump();
const secs = (performance.now() - t0) / 1000;
const last = lines.findLast((l) => / nodes \d+ nps$/.test(l));
if (!last) {
  console.error(`${file}: no bench result; the engine said:\n${lines.join("\n")}`);
  process.exit(1);
}
const nodes = Number(last.split(" ")[0]);
console.log(last);
console.log(`${Math.round(nodes / secs)} nodes/s over ${secs.toFixed(2)} s`);
