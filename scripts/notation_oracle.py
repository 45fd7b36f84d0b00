#!/usr/bin/env python3
"""Checks Chariot's written move notation against two independent implementations.

    chariot ... | scripts/notation_oracle.py [--verbose] [FILE...]

Input (stdin, or the files named): one move a line, four tab-separated fields

    <FEN>\t<iccs>\t<wxf>\t<chinese>

a standard Xiangqi FEN (ranks 9..0, side `w`/`b`; the move counters may be left off), one
legal move in it in ICCS (`h2e2`, files a-i from Red's left, ranks 0-9 from Red's side), and
the same move as Chariot writes it in WXF and in Chinese. Empty lines and lines starting with
`#` are skipped.

For each line:

* WXF is compared with pyffish (Fairy-Stockfish), `get_san(..., NOTATION_XIANGQI_WXF)`.
  pyffish writes pawns differently from us when the mover has 3+ pawns on the moved pawn's
  file, or 2+ pawns on it while another file also holds 2+ of the mover's pawns: it numbers
  the pawns on the file (`15+1`, `27=8`) where we write `P+`, `++`, `3-=4` and so on. Such a
  line counts as "format differs (pawns)" and is not failed, provided the direction and the
  number at the end of both texts agree and our pawn designation (`P+`, `P<file>`, `P-`, `++`,
  `--`, `<file>+`, `<file><file>`, `<file>-`) names the pawn pyffish's number names.
  pyffish also writes one of two pieces of a kind on one file plainly (`R8+2`) in some
  positions where the other could not make a move of that shape (seen: it would leave the
  board), where we always write `R-+2`. Such a line counts as "format differs (tandem)" and is not failed if pyffish's
  letter, file and ending agree with ours and our `+`/`-` names the moved piece's place
  (front or back, from the mover's side) among the two.
* Chinese is compared with cchess (walker8088), `Move(board, from, to).to_text()`. cchess 1.25.5
  has no names for 4 or 5 pawns on one file (it writes 前/二/三/后) and ignores the second
  file when two files hold 2+ pawns (it writes 前/中/后 per file); those lines count as
  "cchess incomplete" and the Chinese is not compared.
* Our Chinese is read back with cchess `Move.from_text` where cchess reads such a text
  correctly; if it reads a move, it must be the same squares. cchess cannot read back: a
  前/中/后 pawn when the mover has pawns on other files too (it counts every pawn on the
  board), an advisor or elephant when the mover has two of them on the moved piece's file (it
  tries only the first), and the cases it cannot write. These are counted, not failed, and do
  not make a line partly checked: the read-back is an extra check where cchess can do it.

Normalisation of cchess's output (form only): traditional piece and verb characters are mapped
to simplified ones, the side's own piece names are used (仕相帅兵 for Red, 士象将卒 for
Black), Black's numbers are made full-width (１..９) and Red's Chinese numerals (一..九). cchess
1.25.5 already writes it this way, so this changes nothing today; it keeps the comparison
about the move and not the glyphs should a later cchess write otherwise. Our own text is
only stripped of surrounding blanks.

Prints a summary and, last, `N passed, M failed`: N lines checked fully and found right, M
lines with at least one error. A line that is only partly checked (a skip above) and has no
error is in neither count. Exit status 1 if any line failed, else 0.

Needs `pip install -r scripts/requirements-oracle.txt`.
"""

import argparse
import contextlib
import io
import re
import sys

try:
    import cchess
    import pyffish
except ImportError as err:
    sys.exit(f"notation_oracle: {err}; install with pip install -r scripts/requirements-oracle.txt")

FILES = "abcdefghi"
ICCS_RE = re.compile(r"^[a-i][0-9][a-i][0-9]$")
RED_NUMERALS = "一二三四五六七八九"
FULL_DIGITS = "１２３４５６７８９"

# Form-only normalisation applied to cchess's Chinese (see the module docstring).
TRADITIONAL = str.maketrans({
    "車": "车", "俥": "车", "馬": "马", "傌": "马", "砲": "炮", "包": "炮",
    "帥": "帅", "將": "将", "進": "进", "後": "后",
})
RED_NAMES = str.maketrans({"士": "仕", "象": "相", "将": "帅", "卒": "兵"})
BLACK_NAMES = str.maketrans({"仕": "士", "相": "象", "帅": "将", "兵": "卒"})
HALF_TO_FULL = str.maketrans("123456789", FULL_DIGITS)
FULL_TO_HALF = str.maketrans(FULL_DIGITS, "123456789")


def normalise_cchess(text, red):
    text = text.strip().translate(TRADITIONAL)
    if red:
        text = text.translate(RED_NAMES)
        text = re.sub(r"[1-9１-９]",
                      lambda m: RED_NUMERALS[int(m.group(0).translate(FULL_TO_HALF)) - 1], text)
    else:
        text = text.translate(BLACK_NAMES).translate(HALF_TO_FULL)
    return text


def full_fen(fen):
    """pyffish wants the counters; add them when the line leaves them off."""
    fields = fen.split()
    if len(fields) == 2:
        fields += ["-", "-", "0", "1"]
    elif len(fields) == 4:
        fields += ["0", "1"]
    return " ".join(fields)


def board_of(fen):
    """{(file 0-8, rank 0-9): piece letter} from a FEN's placement field."""
    board = {}
    for i, row in enumerate(fen.split()[0].split("/")):
        rank, x = 9 - i, 0
        for ch in row:
            if ch.isdigit():
                x += int(ch)
            else:
                board[(x, rank)] = ch
                x += 1
    return board


def to_uci(iccs):
    return f"{iccs[0]}{int(iccs[1]) + 1}{iccs[2]}{int(iccs[3]) + 1}"


def square(s):
    return FILES.index(s[0]), int(s[1])


class Pawns:
    """How the mover's pawns stand relative to the moved piece."""

    def __init__(self, board, frm):
        piece = board[frm]
        self.is_pawn = piece in "Pp"
        mine = [p for p, c in board.items() if c == piece] if self.is_pawn else []
        per_file = {}
        for x, _ in mine:
            per_file[x] = per_file.get(x, 0) + 1
        self.on_file = per_file.get(frm[0], 0)
        self.multi_files = sum(1 for n in per_file.values() if n >= 2)
        self.total = len(mine)

    def pyffish_numbers(self):
        """pyffish writes this pawn as <index><file>, not as we do."""
        return self.is_pawn and (self.on_file >= 3 or (self.on_file >= 2 and self.multi_files >= 2))

    def cchess_incomplete(self):
        return self.is_pawn and (self.on_file >= 4 or (self.on_file >= 2 and self.multi_files >= 2))

    def cchess_cannot_read(self):
        """cchess's from_text resolves 前/中/后 among all the mover's pawns, not the file's."""
        return self.is_pawn and self.on_file >= 2 and self.total != self.on_file


def file_number(x, red):
    """Files 1-9 from the mover's right."""
    return 9 - x if red else x + 1


def pawn_designation_ok(board, frm, ours, theirs):
    """pyffish wrote <index from the front><file><ending>; does our prefix name that pawn?"""
    mt = re.fullmatch(r"([1-9])([1-9])([+=-][1-9])", theirs)
    if not mt or ours[-2:] != mt.group(3):
        return False
    piece = board[frm]
    red = piece.isupper()
    fno = file_number(frm[0], red)
    if int(mt.group(2)) != fno:
        return False
    same = sorted((p for p, c in board.items() if c == piece and p[0] == frm[0]),
                  key=lambda p: -p[1] if red else p[1])
    i = int(mt.group(1)) - 1
    if i >= len(same) or same[i] != frm:
        return False
    f = str(fno)
    if Pawns(board, frm).multi_files >= 2:
        names = {2: [f + "+", f + "-"], 3: [f + "+", f + f, f + "-"]}.get(len(same))
    else:
        names = {3: ["P+", "P" + f, "P-"], 4: ["++", "P+", "P-", "--"],
                 5: ["++", "P+", "P" + f, "P-", "--"]}.get(len(same))
    return bool(names) and ours[:-2] == names[i]


def tandem_as_plain(board, frm, ours, theirs):
    """Ours is `R+..`/`R-..` and pyffish wrote the same move as `R<file>..`."""
    mo = re.fullmatch(r"([RHCP])([+-])([+=-][1-9])", ours)
    mt = re.fullmatch(r"([RHCP])([1-9])([+=-][1-9])", theirs)
    if not mo or not mt or mo.group(1) != mt.group(1) or mo.group(3) != mt.group(3):
        return False
    piece = board[frm]
    red = piece.isupper()
    if int(mt.group(2)) != file_number(frm[0], red):
        return False
    same = sorted((p for p, c in board.items() if c == piece and p[0] == frm[0]),
                  key=lambda p: -p[1] if red else p[1])
    if len(same) != 2:
        return False
    if piece in "Pp" and Pawns(board, frm).multi_files >= 2:
        return False
    return mo.group(2) == ("+" if same[0] == frm else "-")


def two_on_file(board, frm):
    piece = board[frm]
    return sum(1 for p, c in board.items() if c == piece and p[0] == frm[0]) >= 2


class Tally:
    def __init__(self):
        self.lines = 0
        self.passed = 0
        self.failed = 0
        self.partial = 0
        self.wxf = {"match": 0, "format differs (pawns)": 0, "format differs (tandem)": 0,
                    "mismatch": 0}
        self.chinese = {"match": 0, "cchess incomplete": 0, "mismatch": 0}
        self.readback = {"same squares": 0, "not supported": 0, "cchess read nothing": 0,
                         "different squares": 0}


def check_line(line, tally):
    fields = line.rstrip("\r\n").split("\t")
    if len(fields) != 4:
        return [f"expected 4 tab-separated fields, found {len(fields)}"], False, []
    fen, iccs, wxf, chinese = (f.strip() for f in fields)
    errors, notes = [], []
    partial = False

    fen6 = full_fen(fen)
    if pyffish.validate_fen(fen6, "xiangqi") <= 0:
        return [f"pyffish rejects the FEN {fen!r}"], False, []
    if not ICCS_RE.match(iccs):
        return [f"not an ICCS move: {iccs!r}"], False, []
    uci = to_uci(iccs)
    if uci not in pyffish.legal_moves("xiangqi", fen6, []):
        return [f"{iccs} is not legal here (pyffish)"], False, []

    board = board_of(fen)
    frm, to = square(iccs[:2]), square(iccs[2:])
    red = board[frm].isupper()
    pawns = Pawns(board, frm)

    # WXF against pyffish.
    theirs = pyffish.get_san("xiangqi", fen6, uci, False, pyffish.NOTATION_XIANGQI_WXF)
    if wxf == theirs:
        tally.wxf["match"] += 1
    elif pawns.pyffish_numbers() and pawn_designation_ok(board, frm, wxf, theirs):
        tally.wxf["format differs (pawns)"] += 1
        partial = True
        notes.append(f"WXF ours {wxf} / pyffish {theirs}: pawn format differs")
    elif tandem_as_plain(board, frm, wxf, theirs):
        tally.wxf["format differs (tandem)"] += 1
        partial = True
        notes.append(f"WXF ours {wxf} / pyffish {theirs}: pyffish writes the tandem plainly")
    else:
        tally.wxf["mismatch"] += 1
        errors.append(f"WXF ours {wxf} / pyffish {theirs}")

    # Chinese against cchess.
    cboard = cchess.ChessBoard(fen)
    with contextlib.redirect_stdout(io.StringIO()):
        raw = cchess.Move(cboard, frm, to).to_text()
    theirs = normalise_cchess(raw, red)
    if pawns.cchess_incomplete():
        tally.chinese["cchess incomplete"] += 1
        partial = True
        notes.append(f"Chinese ours {chinese} / cchess {theirs}: cchess incomplete, not compared")
    elif chinese == theirs:
        tally.chinese["match"] += 1
    else:
        tally.chinese["mismatch"] += 1
        errors.append(f"Chinese ours {chinese} / cchess {theirs}")

    # Our Chinese read back by cchess.
    kind = board[frm].lower()
    if pawns.cchess_incomplete() or pawns.cchess_cannot_read() or (kind in "ab" and two_on_file(board, frm)):
        tally.readback["not supported"] += 1
        notes.append("read-back not supported by cchess")
    else:
        with contextlib.redirect_stdout(io.StringIO()):
            try:
                got = cchess.Move.from_text(cchess.ChessBoard(fen), chinese)
            except (ValueError, IndexError, KeyError, TypeError):
                got = None
        if not got:
            tally.readback["cchess read nothing"] += 1
            notes.append("cchess reads no move from this Chinese")
        elif tuple(got[0]) == frm and tuple(got[1]) == to:
            tally.readback["same squares"] += 1
        else:
            tally.readback["different squares"] += 1
            (fx, fy), (tx, ty) = got
            errors.append(f"cchess reads our {chinese} as {FILES[fx]}{fy}{FILES[tx]}{ty}, not {iccs}")

    return errors, partial, notes


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("files", nargs="*", help="input files (default: stdin)")
    ap.add_argument("--verbose", action="store_true", help="print every line's result")
    args = ap.parse_args()

    def sources():
        if not args.files:
            sys.stdin.reconfigure(encoding="utf-8")
            yield "<stdin>", sys.stdin
        for name in args.files:
            with open(name, encoding="utf-8") as f:
                yield name, f

    sys.stdout.reconfigure(encoding="utf-8")
    tally = Tally()
    for name, stream in sources():
        for lineno, line in enumerate(stream, 1):
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            tally.lines += 1
            where = f"{name}:{lineno}"
            errors, partial, notes = check_line(line, tally)
            if errors:
                tally.failed += 1
                print(f"FAIL {where}: {line.rstrip()}")
                for e in errors:
                    print(f"     {e}")
                for n in notes:
                    print(f"     ({n})")
            elif partial:
                tally.partial += 1
                if args.verbose:
                    print(f"part {where}: {line.rstrip()}")
                    for n in notes:
                        print(f"     ({n})")
            else:
                tally.passed += 1
                if args.verbose:
                    print(f"ok   {where}: {line.rstrip()}")

    def fmt(d):
        return ", ".join(f"{k} {v}" for k, v in d.items())

    print(f"lines: {tally.lines}")
    print(f"WXF vs pyffish: {fmt(tally.wxf)}")
    print(f"Chinese vs cchess: {fmt(tally.chinese)}")
    print(f"Chinese read back by cchess: {fmt(tally.readback)}")
    print(f"partly checked, no error: {tally.partial}")
    print(f"{tally.passed} passed, {tally.failed} failed")
    return 1 if tally.failed else 0


if __name__ == "__main__":
    sys.exit(main())
