"""Writes web/fonts/chariot-cjk.woff2: the CJK characters the page can show, cut from Noto Serif CJK.

The pieces, the river's words, the page's Chinese words and the Chinese notation the engine
writes must render on a machine with no CJK font, so the page ships the few glyphs it uses
(docs/web.md, "Pieces on any machine: a subset font"). The characters are found, not listed: every CJK
character (ideographs, CJK punctuation, full-width forms) in web/*.js and web/*.html, plus
every one in the engine's Chinese notation (src/board/notation/chinese.rs: both simplified and
traditional piece names, 一…九, １…９, 进退平前后中), and the Latin letters and digits the
board draws. Run it again whenever the page gains a Chinese word; web/test_pieces.py fails
while a character of web/ is missing from the font.

    python3 -m venv target/font-venv
    target/font-venv/bin/pip install -r scripts/requirements-font.txt
    target/font-venv/bin/python scripts/web_font.py /usr/share/fonts/opentype/noto/NotoSerifCJK-Bold.ttc

The source is Debian's fonts-noto-cjk (SIL Open Font License 1.1; web/fonts/LICENSE). Its
collection holds one face per region: the traditional Chinese one (TC) is taken, the forms
printed on Xiangqi pieces (帥, 傌, 俥...).
"""

import argparse
import pathlib
import sys

from fontTools import subset
from fontTools.ttLib import TTCollection, TTFont

ROOT = pathlib.Path(__file__).resolve().parent.parent
OUT = ROOT / "web/fonts/chariot-cjk.woff2"
NOTATION = ROOT / "src/board/notation/chinese.rs"
FAMILY = "Noto Serif CJK TC"
# The board's Latin text in the same face, so that the Western pieces (WXF's letters) and the
# coordinates look the same everywhere too: a few hundred bytes.
BOARD_LATIN = "ACEHKPR" + "abcdefghi" + "0123456789"
NAME = "Chariot CJK"

# CJK punctuation, CJK ideographs (extension A, the unified block, compatibility ideographs),
# full-width forms, and the supplementary ideograph planes.
RANGES = [(0x3000, 0x303F), (0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xF900, 0xFAFF),
          (0xFF00, 0xFFEF), (0x20000, 0x3FFFF)]


def is_cjk(ch):
    return any(lo <= ord(ch) <= hi for lo, hi in RANGES)


def cjk_in(paths):
    """The CJK characters of the files `paths`."""
    return {ch for p in paths for ch in p.read_text(encoding="utf-8") if is_cjk(ch)}


def page_characters(root=ROOT):
    """The CJK characters of the page's files (web/*.js, web/*.html)."""
    web = root / "web"
    return cjk_in(sorted(web.glob("*.js")) + sorted(web.glob("*.html")))


def face(collection):
    """The traditional Chinese face of the collection (or the file itself if it is one font)."""
    if collection.suffix.lower() not in (".ttc", ".otc"):
        return TTFont(collection)
    for font in TTCollection(collection).fonts:
        if font["name"].getDebugName(1) == FAMILY:
            return font
    raise SystemExit(f"{collection}: no face named {FAMILY!r}")


def rename(font):
    """Names the subset as its own family (the OFL asks that a modified font not pass for the
    original); the copyright, the designers and the licence fields stay."""
    name = font["name"]
    style = name.getDebugName(2) or "Regular"
    for name_id, text in [(1, NAME), (3, f"{NAME} {style}; subset of {FAMILY}"),
                          (4, f"{NAME} {style}"), (6, f"{NAME.replace(' ', '')}-{style}")]:
        name.setName(text, name_id, 3, 1, 0x409)
        name.setName(text, name_id, 1, 0, 0)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("source", type=pathlib.Path, help="NotoSerifCJK-Bold.ttc (or another weight)")
    p.add_argument("--out", type=pathlib.Path, default=OUT)
    args = p.parse_args()

    page = page_characters()
    wanted = page | cjk_in([NOTATION]) | set(BOARD_LATIN)
    font = face(args.source)
    cmap = font.getBestCmap()
    missing = sorted(ch for ch in wanted if ord(ch) not in cmap)
    if any(ch in page for ch in missing):
        raise SystemExit(f"the font has no glyph for {''.join(ch for ch in missing if ch in page)} (used by web/)")
    if missing:
        print(f"not in the font, left out (the engine reads them, never writes them): {''.join(missing)}")

    options = subset.Options()
    options.flavor = "woff2"
    # No `locl`: its other regions' forms would double the file, and the pieces must keep the
    # traditional forms whatever language the page says it is in. Kerning is all horizontal
    # text needs.
    options.layout_features = ["kern"]
    options.name_IDs = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 13, 14]
    options.hinting = False  # screen sizes of 20-30 px: hints change nothing visible
    options.desubroutinize = True  # plain charstrings compress better under brotli
    sub = subset.Subsetter(options)
    sub.populate(unicodes=[ord(ch) for ch in wanted if ord(ch) in cmap])
    sub.subset(font)
    rename(font)
    font.recalcTimestamp = False  # the same input writes the same bytes
    args.out.parent.mkdir(parents=True, exist_ok=True)
    subset.save_font(font, str(args.out), options)
    kept = "".join(sorted(ch for ch in wanted if ord(ch) in cmap))
    print(f"{args.out}: {args.out.stat().st_size} bytes, {len(kept)} characters: {kept}")


if __name__ == "__main__":
    sys.exit(main())
