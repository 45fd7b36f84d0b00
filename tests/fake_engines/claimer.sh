#!/usr/bin/env bash
# A fake UCI engine that never offers a move (`bestmove (none)`), as ElephantEye does (with
# `nobestmove`) when it considers the game drawn.
while read -r line; do
  case "$line" in
    uci) echo "id name Claimer"; echo "uciok" ;;
    isready) echo "readyok" ;;
    go*) echo "info depth 1 score cp 0"; echo "bestmove (none)" ;;
    quit) exit 0 ;;
  esac
done
