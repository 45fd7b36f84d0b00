#!/usr/bin/env bash
# A fake UCI engine that plays one pawn move (a3a4 as Red, a6a5 as Black, legal after any first
# move from the start position) and crashes when asked for a second move: a runner that
# restarts crashed engines sees it move once in every game.
searches=0
while read -r line; do
  case "$line" in
    uci) echo "id name Flaky"; echo "uciok" ;;
    isready) echo "readyok" ;;
    position*)
      plies=0
      case "$line" in
        *" moves "*) set -- ${line#* moves }; plies=$# ;;
      esac ;;
    go*)
      searches=$(( searches + 1 ))
      [ "$searches" -ge 2 ] && exit 3
      if [ $(( plies % 2 )) -eq 0 ]; then echo "bestmove a3a4"; else echo "bestmove a6a5"; fi ;;
    quit) exit 0 ;;
  esac
done
