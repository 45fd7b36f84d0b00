#!/usr/bin/env bash
# Self-play: this build against itself, or against a saved earlier build.
#
#   scripts/selfplay.sh --games 2 --depth 2
#   scripts/selfplay.sh saved/chariot-old --games 100 --tc 5+0.05 --concurrency 2
#   BASE=saved/chariot-old scripts/selfplay.sh --games 100 --tc 5+0.05
#
# Builds the release binary, then runs `chariot match` with this build as engine 1
# ("candidate") and the base (first argument if it is a file, else $BASE, else this build) as
# engine 2 ("base"). Extra arguments go to `chariot match` and override the defaults
# (--games 2, and --depth 4 unless another search limit is given).
set -euo pipefail
cd "$(dirname "$0")/.."
base=${BASE:-}
if [ $# -gt 0 ] && [ "${1#-}" = "$1" ] && [ -f "$1" ]; then
  base=$1
  shift
fi
cargo build --release --quiet
bin="${CARGO_TARGET_DIR:-target}/release/chariot"
base=${base:-$bin}
limit=(--depth 4)
for a in "$@"; do
  case "$a" in --depth|--nodes|--movetime|--tc) limit=() ;; esac
done
# Engine commands are split like a shell would: quote the paths.
exec "$bin" match --engine1 "$(printf %q "$bin")" --engine2 "$(printf %q "$base")" \
  --name1 candidate --name2 base \
  --games 2 "${limit[@]}" "$@"
