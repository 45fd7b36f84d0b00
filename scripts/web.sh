#!/usr/bin/env bash
# Builds the page and the npm package `chariot-xiangqi` into target/web/: the engine compiled
# for WebAssembly twice (chariot.wasm, and chariot-simd.wasm with 128-bit SIMD for the browsers
# that have it), the small rules-only module (chariot-rules.wasm), the package's scripts,
# declarations, README and licence from web/ and the repository, and the page's files. Serve
# the page with `python3 web/serve.py`; pack the package with `npm pack` in target/web/
# (docs/web.md).
#
# CHARIOT_WEB_PROFILE=ci builds with the `ci` profile (the same code without fat LTO, for CI's
# quick builds); the default is the release profile.
set -euo pipefail
cd "$(dirname "$0")/.."

profile=${CHARIOT_WEB_PROFILE:-release}
rustup target add wasm32-unknown-unknown
mkdir -p target/web

# Builds one module into target/web/NAME: cargo's target folder DIR, the flags RUSTFLAGS, then
# cargo's own arguments. rand's random bytes come from the page (`__getrandom_v03_custom` in
# src/web/mod.rs). Other RUSTFLAGS mean every dependency compiled again: the SIMD build has a
# target folder of its own, so that one build does not throw away the other's.
module() {
    local name=$1 dir=$2 flags=$3 start=$SECONDS
    shift 3
    CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="--cfg getrandom_backend=\"custom\" $flags" \
        cargo rustc --lib --crate-type cdylib --profile "$profile" --no-default-features \
        --target wasm32-unknown-unknown --target-dir "$dir" "$@"
    cp "$dir/wasm32-unknown-unknown/$profile/chariot.wasm" "target/web/$name"
    echo "target/web/$name: $(du -b "target/web/$name" | cut -f1) bytes, built in $((SECONDS - start)) s"
}

# Without the worker's loop and review nothing names the network: the linker leaves it out.
# Same flags as the plain module: only the crate itself is compiled twice. (The plain one
# last, so that cargo's target/wasm32-unknown-unknown/ holds the whole engine.)
module chariot-rules.wasm target "" --features rules-only
module chariot.wasm target ""
module chariot-simd.wasm target/wasm-simd "-C target-feature=+simd128"

# The package: its version is the crate's.
version=$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -n 1)
sed "s/\"version\": \"[^\"]*\"/\"version\": \"$version\"/" web/package.json >target/web/package.json
cp web/chariot.js web/engine-worker.js web/chariot.d.ts web/README.md LICENSE target/web/
# The page (served from target/web/, not part of the package: package.json lists its files).
cp web/index.html web/style.css web/page.js target/web/
rm -f target/web/engine.js
echo "target/web/: the page and the package chariot-xiangqi $version"
