#!/usr/bin/env bash
# A fake UCCI engine in the manner of ElephantEye: it exits unless the first line is `ucci`.
# From the start position it shuttles its horses (h0g2 h9g7 g2h0 g7h9 ...), so two of them draw
# by repetition. A `go` line that is not UCCI syntax is answered with an illegal move, so a
# runner that speaks the wrong dialect loses visibly. With the argument `--no-isready` it
# ignores `isready`, as some UCCI engines do.
read -r line
[ "${line%$'\r'}" = "ucci" ] || exit 1
echo "id name Shuttle"
echo "option usemillisec type check default true"
echo "ucciok"
plies=0
while read -r line; do
  line=${line%$'\r'}
  case "$line" in
    isready) [ "$1" = "--no-isready" ] || echo "readyok" ;;
    position*)
      plies=0
      case "$line" in
        *" moves "*) set -- "$1" ${line#* moves }; plies=$(( $# - 1 )) ;;
      esac ;;
    go*)
      if [[ "$line" =~ ^go\ (depth\ [0-9]+|nodes\ [0-9]+|time\ [0-9]+\ (increment\ [0-9]+\ opptime\ [0-9]+\ oppincrement\ [0-9]+|movestogo\ [0-9]+( opptime [0-9]+ oppmovestogo [0-9]+)?))$ ]]; then
        case $(( plies % 4 )) in
          0) echo "bestmove h0g2" ;;
          1) echo "bestmove h9g7" ;;
          2) echo "bestmove g2h0" ;;
          3) echo "bestmove g7h9" ;;
        esac
      else
        echo "bestmove a0a9"
      fi ;;
    quit) echo "bye"; exit 0 ;;
  esac
done
