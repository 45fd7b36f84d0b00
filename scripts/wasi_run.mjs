// Runs a program built for wasm32-wasip1 (a test binary, say) under Node's WASI (Node 20 or
// later), passing its arguments and exit status through: cargo's runner for that target.
//
//   CARGO_TARGET_WASM32_WASIP1_RUNNER="node scripts/wasi_run.mjs" cargo test --target wasm32-wasip1 …
//
// V8 runs the module as it runs the page's, WebAssembly SIMD included: what passes here
// passes in the browser. The program sees the environment and the current directory.
import { readFile } from "node:fs/promises";
import { WASI } from "node:wasi";

const [file, ...args] = process.argv.slice(2);
if (!file) {
  console.error("usage: node scripts/wasi_run.mjs <program.wasm> [args...]");
  process.exit(2);
}
const wasi = new WASI({
  version: "preview1",
  args: [file, ...args],
  env: process.env,
  preopens: { ".": process.cwd() },
  returnOnExit: true,
});
let module;
try {
  module = await WebAssembly.compile(await readFile(file));
} catch (e) {
  console.error(`${file}: ${e.message}`);
  process.exit(1);
}
const instance = await WebAssembly.instantiate(module, wasi.getImportObject());
try {
  process.exit(wasi.start(instance));
} catch (e) {
  // A Rust panic in a wasm32-wasip1 program aborts: a trap, reported after its message.
  console.error(`${file}: ${e.message}`);
  process.exit(134);
}
