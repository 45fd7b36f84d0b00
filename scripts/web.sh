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
    # Without the custom sections nothing reads (function names, wasm-bindgen's metadata).
    python3 scripts/wasm_strip.py "target/web/$name" >/dev/null
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
cp web/index.html web/style.css web/board.css web/page.js web/board.js web/game.js web/clock.js \
    web/graph.js web/i18n.js target/web/
mkdir -p target/web/fonts
cp web/fonts/chariot-cjk.woff2 web/fonts/LICENSE target/web/fonts/
# Install and offline: the manifest, its icons, the service worker's registration.
cp web/manifest.webmanifest web/offline.js target/web/
mkdir -p target/web/icons
cp web/icons/*.svg web/icons/*.png target/web/icons/
rm -f target/web/engine.js

# Last, once every file is in place: the service worker, target/web/sw.js from web/sw.js with
# FILES, the page's files as they are here (not the package's own files, a packed package or
# sw.js), and VERSION, a hash of their contents: any change to a file is a new service
# worker, which brings the page's new files to a browser that has the old ones (docs/web.md,
# "Install and offline").
mapfile -t page_files < <(cd target/web && find . -type f ! -name sw.js ! -name package.json \
    ! -name README.md ! -name LICENSE ! -name chariot.d.ts ! -name '*.tgz' | sed 's|^\./||' | LC_ALL=C sort)
sw_version=$(cd target/web && sha256sum -- "${page_files[@]}" | sha256sum | cut -c 1-16)
sw_files=$(printf '"%s", ' "${page_files[@]}")
sed -e "s|^const VERSION = .*|const VERSION = \"$sw_version\";|" \
    -e "s|^const FILES = .*|const FILES = [${sw_files%, }];|" web/sw.js >target/web/sw.js
if ! grep -q "^const VERSION = \"$sw_version\";" target/web/sw.js; then
    echo "scripts/web.sh: web/sw.js has no line 'const VERSION = ...' to fill in" >&2
    exit 1
fi
echo "target/web/sw.js: version $sw_version, ${#page_files[@]} files kept offline"
echo "target/web/: the page and the package chariot-xiangqi $version"
