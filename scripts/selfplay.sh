#!/usr/bin/env bash
# Self-play: this build against itself, or against a saved earlier build.
#
#   scripts/selfplay.sh --games 2 --depth 2
#   BASE=saved/chariot-old scripts/selfplay.sh --games 100 --tc 5+0.05 --concurrency 2
#
# Builds the release binary, then runs `chariot match` with this build as engine 1 and BASE
# (default: this build) as engine 2. Extra arguments go to `chariot match`; later ones override
# the defaults (--games 2, and --depth 4 unless another limit is given).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
bin=target/release/chariot
base=${BASE:-$bin}
# The default search limit applies only when none is given.
limit=(--depth 4)
for a in "$@"; do
  case "$a" in --depth|--nodes|--movetime|--tc) limit=() ;; esac
done
exec "$bin" match --engine1 "$bin" --engine2 "$base" --name1 candidate --name2 base \
  --games 2 "${limit[@]}" "$@"
