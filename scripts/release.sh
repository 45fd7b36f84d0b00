#!/usr/bin/env bash
# Builds a release of Chariot into target/dist/ (docs/install.md):
#
#   chariot-VERSION-linux-x86_64.tar.gz    static (musl): any Linux distribution
#   chariot-VERSION-linux-aarch64.tar.gz   static (musl): Linux on ARM, NEON network path
#   chariot-VERSION-windows-x86_64.zip     chariot.exe, no DLLs beyond Windows' own
#   chariot-VERSION-macos-aarch64.tar.gz   Apple Silicon } linked here with zig: built,
#   chariot-VERSION-macos-x86_64.tar.gz    Intel Macs    } never run here
#   chariot-xiangqi-VERSION.tgz            the npm package (the engine in WebAssembly)
#   chariot_xiangqi-VERSION-*.whl          the Python wheels: `chariot` on PATH through pip
#   SHA256SUMS
#
# Each archive holds the binary, LICENSE and README.md (packaging/README.md: how to add the
# engine to a GUI). The version is Cargo.toml's. Nothing is published: docs/install.md says how
# a maintainer does that with these files.
#
#   bash scripts/release.sh [--profile PROFILE] [PLATFORM...]
#
# PLATFORM is any of linux-x86_64 linux-aarch64 windows-x86_64 macos-aarch64 macos-x86_64 npm
# (default: all of them). PROFILE is the cargo profile (default `release`, full LTO; CI passes
# `ci`, the same code built faster). What the build needs is installed first, pinned: the rustup
# targets, Debian's MinGW-w64 (the Windows linker), and maturin and zig from PyPI
# (scripts/requirements-release.txt) in target/release-venv.
set -euo pipefail
cd "$(dirname "$0")/.."

profile=release
platforms=()
while [ $# -gt 0 ]; do
    case "$1" in
        --profile) profile="$2"; shift 2 ;;
        --profile=*) profile="${1#--profile=}"; shift ;;
        -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        -*) echo "release.sh: unknown option $1" >&2; exit 2 ;;
        *) platforms+=("$1"); shift ;;
    esac
done
all=(linux-x86_64 linux-aarch64 windows-x86_64 macos-aarch64 macos-x86_64 npm)
[ ${#platforms[@]} -gt 0 ] || platforms=("${all[@]}")
for p in "${platforms[@]}"; do
    case " ${all[*]} " in *" $p "*) ;; *) echo "release.sh: unknown platform $p (one of: ${all[*]})" >&2; exit 2 ;; esac
done

version=$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -n 1)
dist="$PWD/target/dist"
rm -rf "$dist"
mkdir -p "$dist"
started=$SECONDS
step() { echo "release: $* ($((SECONDS - started)) s)"; }

# The Rust target of a platform.
target_of() {
    case "$1" in
        linux-x86_64) echo x86_64-unknown-linux-musl ;;
        linux-aarch64) echo aarch64-unknown-linux-musl ;;
        windows-x86_64) echo x86_64-pc-windows-gnu ;;
        macos-aarch64) echo aarch64-apple-darwin ;;
        macos-x86_64) echo x86_64-apple-darwin ;;
    esac
}

# --- Toolchains ---------------------------------------------------------------------------
needs() { case " ${platforms[*]} " in *" $1"*) return 0 ;; *) return 1 ;; esac; }
targets=()
for p in "${platforms[@]}"; do [ "$p" = npm ] || targets+=("$(target_of "$p")"); done
[ ${#targets[@]} -eq 0 ] || rustup target add "${targets[@]}"
if needs windows && ! command -v x86_64-w64-mingw32-gcc >/dev/null; then
    if [ "$(id -u)" -eq 0 ]; then sudo=; else sudo=sudo; fi
    $sudo apt-get update -qq
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
        gcc-mingw-w64-x86-64 >/dev/null
fi
venv=target/release-venv
if [ ! -x "$venv/bin/maturin" ]; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet -r scripts/requirements-release.txt
fi
# maturin finds zig as the `ziglang` module of the Python on PATH.
export PATH="$PWD/$venv/bin:$PATH"

# Windows: MinGW links; the C runtime and winpthreads go in statically, so chariot.exe needs
# only Windows' own DLLs.
export CARGO_TARGET_X86_64_PC_WINDOWS_GNU_LINKER=x86_64-w64-mingw32-gcc
export CARGO_TARGET_X86_64_PC_WINDOWS_GNU_RUSTFLAGS="-C target-feature=+crt-static"

# macOS: zig carries libSystem's link stubs but no framework's. Two dependencies name Apple
# frameworks (chrono, through vampirc-uci, names CoreFoundation; ctrlc names Foundation and
# libobjc) though Chariot calls nothing in them, so the linker is given empty stubs under their
# real install names, in a stand-in SDK (SDKROOT). A symbol really needed from them would fail
# the link; the binary loads the real frameworks, which every Mac has.
macos_stubs() {
    local root=target/macos-link-stubs fw=System/Library/Frameworks
    mkdir -p "$root/$fw/CoreFoundation.framework" "$root/$fw/Foundation.framework" "$root/usr/lib"
    stub "/$fw/CoreFoundation.framework/Versions/A/CoreFoundation" > "$root/$fw/CoreFoundation.framework/CoreFoundation.tbd"
    stub "/$fw/Foundation.framework/Versions/C/Foundation" > "$root/$fw/Foundation.framework/Foundation.tbd"
    stub /usr/lib/libobjc.A.dylib > "$root/usr/lib/libobjc.tbd"
    echo "$PWD/$root"
}
stub() {
    printf '%s\n' '--- !tapi-tbd' 'tbd-version: 4' 'targets: [ x86_64-macos, arm64-macos ]' \
        "install-name: '$1'" 'current-version: 1' 'exports:' \
        '  - targets: [ x86_64-macos, arm64-macos ]' '    symbols: [ _chariot_link_stub ]' '...'
}
mac_sdk=
if needs macos; then mac_sdk=$(macos_stubs); fi

# Linux aarch64: Rust's musl targets carry their C library and start files, so Rust's own
# linker (rust-lld) links a static binary with no cross compiler.
export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_MUSL_LINKER=rust-lld

# --- Binaries, wheels and archives --------------------------------------------------------
for p in "${platforms[@]}"; do
    [ "$p" != npm ] || continue
    target=$(target_of "$p")
    # maturin builds the binary (through cargo, into target/TARGET/PROFILE/) and packs it into
    # the wheel; the archive takes the same file. A static musl binary runs on glibc and musl
    # systems alike, so the Linux wheels carry both tags. zig links for macOS.
    step "building $p ($target, profile $profile) and its wheel"
    wheel=(--locked --profile "$profile" --target "$target" --out "$dist")
    sdk=()
    case "$p" in
        linux-*) wheel+=(--compatibility manylinux2014 musllinux_1_1) ;;
        macos-*) wheel+=(--zig); sdk=(SDKROOT="$mac_sdk") ;;
    esac
    (cd packaging && env "${sdk[@]}" maturin build --quiet "${wheel[@]}")

    exe=chariot
    [ "$p" != windows-x86_64 ] || exe=chariot.exe
    stage="$dist/chariot-$version-$p"
    mkdir -p "$stage"
    cp "target/$target/$profile/$exe" LICENSE packaging/README.md "$stage/"
    if [ "$p" = windows-x86_64 ]; then
        (cd "$dist" && zip -qr "chariot-$version-$p.zip" "chariot-$version-$p")
    else
        tar -C "$dist" -czf "$dist/chariot-$version-$p.tar.gz" "chariot-$version-$p"
    fi
    rm -rf "$stage"
done

# --- The npm package ----------------------------------------------------------------------
if needs npm; then
    step "building the npm package"
    CHARIOT_WEB_PROFILE="$profile" bash scripts/web.sh
    (cd target/web && npm pack --silent --pack-destination "$dist" >/dev/null)
fi

step "checksums"
(cd "$dist" && sha256sum -- * > SHA256SUMS)
ls -l "$dist"
step "done: $dist"
