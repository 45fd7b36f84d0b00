#!/usr/bin/env bash
# A fake UCI engine that answers every `go` with a move that is never legal.
while read -r line; do
  case "$line" in
    uci) echo "id name Illegal"; echo "uciok" ;;
    isready) echo "readyok" ;;
    go*) echo "bestmove a0a9" ;;
    quit) exit 0 ;;
  esac
done
