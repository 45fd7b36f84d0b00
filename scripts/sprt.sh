#!/usr/bin/env bash
# SPRT: a candidate build against a base build at a short time control, stopping as soon as the
# test decides (H1: the candidate is at least ELO1 better; H0: it is not better than ELO0).
#
#   cp target/release/chariot saved/chariot-base      # before the change
#   scripts/sprt.sh saved/chariot-base                 # after it: candidate = this build
#   scripts/sprt.sh saved/chariot-base --tc 5+0.05 --sprt 0,5 --concurrency 4
#   CANDIDATE=saved/chariot-new scripts/sprt.sh saved/chariot-base
#
# Defaults: --tc 2+0.02 --concurrency 2 --games 4000 --sprt 0,10,0.05,0.05; extra arguments go
# to `chariot match` and override them.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -lt 1 ] || [ ! -f "$1" ]; then
  echo "usage: scripts/sprt.sh BASE_BINARY [chariot match arguments...]" >&2
  exit 2
fi
base=$1
shift
if [ -n "${CANDIDATE:-}" ]; then
  bin=$CANDIDATE
else
  cargo build --release --quiet
  bin="${CARGO_TARGET_DIR:-target}/release/chariot"
fi
limit=(--tc 2+0.02)
for a in "$@"; do
  case "$a" in --depth|--nodes|--movetime|--tc) limit=() ;; esac
done
# Engine commands are split like a shell would: quote the paths.
exec "$bin" match --engine1 "$(printf %q "$bin")" --engine2 "$(printf %q "$base")" \
  --name1 candidate --name2 base \
  "${limit[@]}" --concurrency 2 --games 4000 --sprt 0,10,0.05,0.05 "$@"
