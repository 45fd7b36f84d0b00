#!/usr/bin/env bash
# A fake UCI engine that dies when asked to think.
while read -r line; do
  case "$line" in
    uci) echo "id name Crash"; echo "uciok" ;;
    isready) echo "readyok" ;;
    go*) exit 3 ;;
    quit) exit 0 ;;
  esac
done
