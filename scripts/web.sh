#!/usr/bin/env bash
# Builds the page into target/web/: the engine compiled for WebAssembly (chariot.wasm) beside
# the page's files from web/. Serve it with `python3 web/serve.py` (docs/web.md).
set -euo pipefail
cd "$(dirname "$0")/.."

rustup target add wasm32-unknown-unknown
# rand's random bytes come from the page (`__getrandom_v03_custom` in src/web.rs).
CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS='--cfg getrandom_backend="custom"' \
    cargo rustc --lib --crate-type cdylib --release --no-default-features \
    --target wasm32-unknown-unknown

mkdir -p target/web
cp target/wasm32-unknown-unknown/release/chariot.wasm target/web/
cp web/index.html web/style.css web/page.js web/engine.js web/engine-worker.js target/web/
echo "target/web/: $(du -b target/web/chariot.wasm | cut -f1) bytes of wasm"
