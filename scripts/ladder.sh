#!/usr/bin/env bash
# The ladder of skill levels, measured: level 0 against a one-ply search (full strength at
# `go depth 1`), each level against the one below it and, when OPPONENT names another engine,
# some levels against it at a fixed depth (ElephantEye with its book off anchors the scale).
# Every level limits its own depth and nodes, so the games do not depend on the machine.
#
#   scripts/ladder.sh                                                  # the ladder alone
#   OPPONENT=…/eleeye OPPONENT_OPTION=usebook=false scripts/ladder.sh  # and the anchor
#
# Environment: GAMES per match (40), FROM and TO (levels of the neighbour chain, 0 and 19),
# ONE_PLY_GAMES (80), OPPONENT_LEVELS (levels played against OPPONENT, "12 13 14 15 16"),
# OPPONENT_DEPTH (6), CONCURRENCY (1), CHARIOT (a built engine to measure instead of building
# this checkout). Prints Markdown table rows (W/D/L and Elo ± 95 % from the first-named side's
# view), then each level's Elo chained from the neighbour results, level 0 at 0.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -n "${CHARIOT:-}" ]; then
  bin=$(cd "$(dirname "$CHARIOT")" && pwd)/$(basename "$CHARIOT")
else
  cargo build --release --quiet
  bin="$PWD/${CARGO_TARGET_DIR:-target}/release/chariot"
fi
games=${GAMES:-40}
from=${FROM:-0}
to=${TO:-19}
# Each level caps itself; the shared limit is only a ceiling.
common=(--nodes 100000000 --concurrency "${CONCURRENCY:-1}")

# "W/D/L | Elo ± error" of engine 1 from a match's summary on stdin.
summary() {
  awk '/^W\/D\/L: /{wdl=$2} /^Elo difference: /{elo=$3 " ± " $5} END{printf "%s | %s", wdl, elo}'
}

echo "| pair | games | W/D/L | Elo (95 %) |"
echo "|---|---:|---|---:|"
one=${ONE_PLY_GAMES:-80}
echo "| level 0 vs one-ply search | $one | $("$bin" match "${common[@]}" --games "$one" \
  --option1 "Skill Level=0" --depth2 1 --name2 one-ply 2>/dev/null | summary) |"
chain=()
for ((level = from; level < to; level++)); do
  upper=$((level + 1))
  row=$("$bin" match "${common[@]}" --games "$games" --option1 "Skill Level=$upper" \
    --option2 "Skill Level=$level" 2>/dev/null | summary)
  echo "| $upper vs $level | $games | $row |"
  chain+=("$(echo "$row" | awk -F'|' '{split($2, e, " "); print e[1]}')")
done
if [ -n "${OPPONENT:-}" ]; then
  dir=$(cd "$(dirname "$OPPONENT")" && pwd)
  opponent=(--engine2 "$dir/$(basename "$OPPONENT")" --dir2 "$dir" --depth2 "${OPPONENT_DEPTH:-6}")
  if [ -n "${OPPONENT_OPTION:-}" ]; then opponent+=(--option2 "$OPPONENT_OPTION"); fi
  for level in ${OPPONENT_LEVELS:-12 13 14 15 16}; do
    echo "| $level vs $(basename "$OPPONENT") depth ${OPPONENT_DEPTH:-6} | $games | $("$bin" match \
      "${common[@]}" --games "$games" --option1 "Skill Level=$level" "${opponent[@]}" \
      2>/dev/null | summary) |"
  done
fi
echo
echo "chained Elo (level $from = 0):"
elo=0
echo "level $from: 0"
for ((i = 0; i < ${#chain[@]}; i++)); do
  elo=$(awk -v a="$elo" -v b="${chain[$i]}" 'BEGIN{ if (b ~ /inf/) b = 0; printf "%.0f", a + b }')
  echo "level $((from + i + 1)): $elo"
done
