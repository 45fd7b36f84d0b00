#!/usr/bin/env bash
# A fake engine that answers the UCI handshake with UCCI's reply and ignores `ucci`.
while read -r line; do
  case "$line" in
    uci) echo "id name Confused"; echo "ucciok" ;;
    quit) exit 0 ;;
  esac
done
