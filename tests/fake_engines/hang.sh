#!/usr/bin/env bash
# A fake UCI engine that never answers `go`.
while read -r line; do
  case "$line" in
    uci) echo "id name Hang"; echo "uciok" ;;
    isready) echo "readyok" ;;
    quit) exit 0 ;;
  esac
done
