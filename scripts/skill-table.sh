#!/usr/bin/env bash
# The strength table of the weaker settings: each Skill Level against full strength and, when
# OPPONENT names another engine, against it too (ElephantEye with its book off, for the README).
#
#   scripts/skill-table.sh                                    # against full strength only
#   OPPONENT=../eleeye/eleeye OPPONENT_OPTION=usebook=false scripts/skill-table.sh
#
# Environment: LEVELS (default "0 5 10 15"), GAMES per match (20), TC (2+0.02), CONCURRENCY (2),
# CHARIOT (a built engine to measure instead of building this checkout).
# Prints one Markdown table row per level: W/D/L and Elo (95 %) from the weaker side's view.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -n "${CHARIOT:-}" ]; then
  bin=$(cd "$(dirname "$CHARIOT")" && pwd)/$(basename "$CHARIOT")
else
  cargo build --release --quiet
  bin="$PWD/${CARGO_TARGET_DIR:-target}/release/chariot"
fi
levels=${LEVELS:-0 5 10 15}
common=(--games "${GAMES:-20}" --tc "${TC:-2+0.02}" --concurrency "${CONCURRENCY:-2}")

# "W/D/L | Elo" of engine 1 from a match's summary on stdin.
summary() {
  awk '/^W\/D\/L: /{wdl=$2} /^Elo difference: /{elo=$3 " ± " $5} END{printf "%s | %s", wdl, elo}'
}

opponent=()
if [ -n "${OPPONENT:-}" ]; then
  dir=$(cd "$(dirname "$OPPONENT")" && pwd)
  opponent=(--engine2 "$dir/$(basename "$OPPONENT")" --dir2 "$dir")
  if [ -n "${OPPONENT_OPTION:-}" ]; then opponent+=(--option2 "$OPPONENT_OPTION"); fi
  echo "| Skill Level | against full strength: W/D/L | Elo | against $(basename "$OPPONENT"): W/D/L | Elo |"
  echo "|---|---|---:|---|---:|"
else
  echo "| Skill Level | against full strength: W/D/L | Elo |"
  echo "|---|---|---:|"
fi
for level in $levels; do
  row="| $level | $("$bin" match "${common[@]}" --option1 "Skill Level=$level" 2>/dev/null | summary)"
  if [ ${#opponent[@]} -gt 0 ]; then
    row="$row | $("$bin" match "${common[@]}" --option1 "Skill Level=$level" "${opponent[@]}" 2>/dev/null | summary)"
  fi
  echo "$row |"
done
