#!/usr/bin/env python3
"""A referee that is not Chariot's own: timed games between two engine commands, judged by pyffish.

    python3 scripts/clock_match.py --games 20 --tc 1+0.01 --busy 2
    python3 scripts/clock_match.py --engine1 'saved/chariot-old' --tc 0.333+0.0033 --ucci

Plays two games at once (each in a process of its own) from the lines of an openings file (ICCS moves from the start, one line
a pair of games, colours swapped). The referee keeps each clock itself: a move costs the time
from writing `go` to reading `bestmove` (monotonic clock), the increment is added after the move,
and a side whose clock falls below -grace loses on time. pyffish (variant "xiangqi") judges
checkmate and stalemate (no legal move loses), its repetition verdicts and the move cap (a
draw). `--busy N` runs N `yes > /dev/null` beside the games. Each game prints its result,
reason and worst move (the least time left after a move, and what that move spent); the last
line sums up, from engine 1's side. Needs pyffish (scripts/requirements-clock.txt).
"""

import argparse
import concurrent.futures
import os
import re
import shlex
import subprocess
import sys
import time

import pyffish

VARIANT = "xiangqi"
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ICCS = re.compile(r"^([a-i])(\d)([a-i])(\d)$")
UCI = re.compile(r"^([a-i])(\d+)([a-i])(\d+)$")


def to_uci(iccs):
    """ICCS ranks run 0-9, pyffish's 1-10."""
    m = ICCS.match(iccs)
    if not m:
        raise ValueError(f"not an ICCS move: {iccs!r}")
    return f"{m[1]}{int(m[2]) + 1}{m[3]}{int(m[4]) + 1}"


def to_iccs(uci):
    m = UCI.match(uci)
    return f"{m[1]}{int(m[2]) - 1}{m[3]}{int(m[4]) - 1}"


class Engine:
    """One engine process spoken to over UCI or UCCI."""

    def __init__(self, command, ucci, options=()):
        self.ucci = ucci
        self.proc = subprocess.Popen(
            shlex.split(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.send("ucci" if ucci else "uci")
        self.wait_for("ucciok" if ucci else "uciok")
        if ucci:
            self.send("setoption usemillisec true")
        for name, _, value in (o.partition("=") for o in options):
            self.send(f"setoption {name} {value}" if ucci else f"setoption name {name} value {value}")
        self.send("isready")
        self.wait_for("readyok")

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def wait_for(self, word):
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise EOFError("the engine ended")
            if line.split()[:1] == [word]:
                return line.split()

    def new_game(self):
        self.send("uccinewgame" if self.ucci else "ucinewgame")
        self.send("isready")
        self.wait_for("readyok")

    def go(self, moves, mine, theirs, inc, red):
        """The move chosen (ICCS, or None) and the seconds it took, by the referee's clock."""
        start_fen = pyffish.start_fen(VARIANT)
        self.send(f"position fen {start_fen}" + (" moves " + " ".join(moves) if moves else ""))
        ms = lambda s: max(0, int(s * 1000))
        if self.ucci:
            go = f"go time {ms(mine)} increment {ms(inc)} opptime {ms(theirs)} oppincrement {ms(inc)}"
        else:
            w, b = (mine, theirs) if red else (theirs, mine)
            go = f"go wtime {ms(w)} btime {ms(b)} winc {ms(inc)} binc {ms(inc)}"
        start = time.monotonic()
        self.send(go)
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise EOFError("the engine ended")
            words = line.split()
            if words[:1] in (["bestmove"], ["nobestmove"]):
                spent = time.monotonic() - start
                move = words[1] if words[0] == "bestmove" and len(words) > 1 else None
                return (None if move == "(none)" else move), spent

    def close(self):
        try:
            self.send("quit")
            self.proc.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired):
            self.proc.kill()


def judge(moves):
    """The legal moves (ICCS), and (result for Red: 1, 0.5 or 0, reason) if the game is over."""
    fen = pyffish.start_fen(VARIANT)
    uci = [to_uci(m) for m in moves]
    legal = [to_iccs(m) for m in pyffish.legal_moves(VARIANT, fen, uci)]
    red_to_move = len(moves) % 2 == 0
    if not legal:
        return legal, ((0 if red_to_move else 1), "no legal move")  # mate or stalemate
    for check in (pyffish.is_immediate_game_end, pyffish.is_optional_game_end):
        over, value = check(VARIANT, fen, uci)
        if over:
            mover = 0.5 if value == 0 else (1 if value > 0 else 0)
            return legal, ((mover if red_to_move else 1 - mover), "pyffish rule")
    return legal, None


def play(args, opening, engine1_red):
    """One game. Returns a dict: score of engine 1, reason, and the worst move of the game."""
    sides = [(args.engine1, args.option1), (args.engine2, args.option2)]
    engines = [Engine(c, args.ucci, o) for c, o in (sides if engine1_red else sides[::-1])]
    base, inc = args.base, args.inc
    clock = [base, base]
    worst = (float("inf"), 0.0, "")  # time left, spent, who
    moves = list(opening)
    result = None
    try:
        for e in engines:
            e.new_game()
        while result is None:
            legal, result = judge(moves)
            if result:
                break
            if len(moves) >= args.max_plies:
                result = 0.5, "move cap"
                break
            side = len(moves) % 2
            move, spent = engines[side].go(moves, clock[side], clock[1 - side], inc, side == 0)
            clock[side] -= spent
            who = ("engine1" if (side == 0) == engine1_red else "engine2")
            if clock[side] < worst[0]:
                worst = (clock[side], spent, who)
            if clock[side] < -args.grace:
                result = (0 if side == 0 else 1), f"time ({who})"
                break
            clock[side] += inc
            if move not in legal:
                result = (0 if side == 0 else 1), f"illegal move {move} ({who})"
                break
            moves.append(move)
    finally:
        for e in engines:
            e.close()
    red_score, reason = result
    score = red_score if engine1_red else 1 - red_score
    return {"score": score, "reason": reason, "plies": len(moves), "worst": worst}


def openings(path):
    lines = []
    with open(path) as f:
        for raw in f:
            text = raw.split("#", 1)[0].split()
            if text:
                lines.append(text)
    return lines


def parse_tc(text):
    base, _, inc = text.partition("+")
    return float(base), float(inc or 0)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    default = os.path.join(os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target")),
                           "release", "chariot")
    ap.add_argument("--engine1", default=shlex.quote(default), help="engine command (shell words)")
    ap.add_argument("--engine2", default=None, help="default: the same as engine 1")
    ap.add_argument("--option1", action="append", default=[], metavar="NAME=VALUE",
                    help="an option for engine 1 (repeatable)")
    ap.add_argument("--option2", action="append", default=[], metavar="NAME=VALUE",
                    help="an option for engine 2 (repeatable)")
    ap.add_argument("--ucci", action="store_true", help="speak UCCI instead of UCI")
    ap.add_argument("--tc", default="1+0.01", help="seconds + increment in seconds")
    ap.add_argument("--grace", type=float, default=10, help="milliseconds a clock may go below 0")
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--concurrency", type=int, default=2)
    ap.add_argument("--openings", default=os.path.join(ROOT, "positions", "openings.txt"))
    ap.add_argument("--busy", type=int, default=0, help="`yes > /dev/null` processes beside")
    ap.add_argument("--max-plies", type=int, default=400, help="a draw after this many plies")
    args = ap.parse_args()
    args.engine2 = args.engine2 or args.engine1
    args.base, args.inc = parse_tc(args.tc)
    args.grace /= 1000
    lines = openings(args.openings)
    jobs = [(lines[(g // 2) % len(lines)], g % 2 == 0) for g in range(args.games)]
    busy = [subprocess.Popen(["yes"], stdout=subprocess.DEVNULL) for _ in range(args.busy)]
    tally = {"w": 0, "d": 0, "l": 0, "time": 0, "worst": (float("inf"), 0, "")}
    try:
        with concurrent.futures.ProcessPoolExecutor(args.concurrency) as pool:
            futures = {pool.submit(play, args, o, red): g for g, (o, red) in enumerate(jobs)}
            for fut in concurrent.futures.as_completed(futures):
                r, g = fut.result(), futures[fut]
                left, spent, who = r["worst"]
                tally["wdl"[{1: 0, 0.5: 1, 0: 2}[r["score"]]]] += 1
                tally["time"] += r["reason"].startswith("time")
                tally["worst"] = min(tally["worst"], r["worst"])
                print(f"game {g + 1:3}: engine1 {r['score']:<3} ({r['reason']}, {r['plies']} plies); "
                      f"worst move {who} left {left * 1000:.0f} ms after {spent * 1000:.0f} ms",
                      flush=True)
    finally:
        for p in busy:
            p.kill()
            p.wait()
    left, spent, who = tally["worst"]
    print(f"games {args.games}  W/D/L {tally['w']}/{tally['d']}/{tally['l']}  "
          f"lost on time {tally['time']}  worst time left {left * 1000:.0f} ms "
          f"({who}, after {spent * 1000:.0f} ms)  load {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
