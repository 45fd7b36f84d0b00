"""The board (web/board.js) in headless Chromium with no CJK font: faces, moves, marks.

Run by tests/web.rs (`cargo test --release --test web -- --ignored`) after `bash scripts/web.sh`;
needs Debian's chromium and chromium-driver and the packages of web/requirements-test.txt.

    python web/test_pieces.py [--site target/web] [--screenshots target/web-pieces]

Chromium is started with a fontconfig of its own that lists only fonts with no CJK glyph, so
the test holds on any machine: first a control shows that CJK text then renders as the same
empty box whatever the character; then the board's 14 faces, in either piece style, must be
pairwise different images (they are drawn with the page's own subset font, fonts/). The board
is put on the served page by the test itself, so that it does not depend on the page's layout:
clicks, drags with a mouse and with a finger, coordinates for each setting and side, the
last-move, check and arrow marks. `web/fonts/chariot-cjk.woff2` must hold every CJK character
of web/*.js and web/*.html.
"""

import argparse
import base64
import os
import pathlib
import shutil
import sys
import tempfile
import threading
import time

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT / "scripts"))
import serve  # noqa: E402
import web_font  # noqa: E402

os.environ.setdefault("SE_OFFLINE", "true")  # never download a browser or a driver

from fontTools.ttLib import TTCollection, TTFont  # noqa: E402
from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.actions import interaction  # noqa: E402
from selenium.webdriver.common.actions.action_builder import ActionBuilder  # noqa: E402
from selenium.webdriver.common.actions.pointer_input import PointerInput  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402

FLAGS = serve.CHROMIUM_FLAGS + ["--window-size=1000,860", "--force-device-scale-factor=1"]

START = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
# Some of the start position's moves: the board takes the page's word for what is legal.
LEGAL = ["h2e2", "h2h3", "h2h9", "b2e2", "h0g2", "b0c2", "c3c4", "g3g4"]
BASE = {"fen": START, "legal": LEGAL, "flipped": False, "pieces": "chinese", "coords": "chinese",
        "last": None, "check": None, "arrows": []}

# Puts a board of its own over the served page: window.testBoard, its moves in window.moves.
SETUP = """
const done = arguments[arguments.length - 1];
(async () => {
  const { Board } = await import("./board.js");
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = "board.css";
  const loaded = new Promise((ok, fail) => { link.onload = ok; link.onerror = () => fail(new Error("board.css")); });
  document.head.appendChild(link);
  await loaded;
  const box = document.createElement("div");
  box.style.cssText = "position:fixed;left:0;top:0;width:500px;z-index:1000;background:#fff";
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.id = "test-board";
  svg.setAttribute("viewBox", "0 0 500 550");
  box.appendChild(svg);
  document.body.appendChild(box);
  window.moves = [];
  window.testBoard = new Board(svg, { onMove: (m) => window.moves.push(m) });
  return "ok";
})().then(done, (e) => done("error: " + e.message));
"""

# update(arguments[0]), then waits for the fonts it uses.
UPDATE = """
const done = arguments[arguments.length - 1];
try { window.testBoard.update(arguments[0]); } catch (e) { done("threw: " + e.message); }
document.fonts.ready.then(() => requestAnimationFrame(() => requestAnimationFrame(() => done("ok"))));
"""

# The pixels (r+g+b per pixel) of squares of a screenshot: [png, [[cx, cy, half], ...]].
CROPS = """
const [png, boxes, done] = arguments;
const img = new Image();
img.onload = () => {
  const c = document.createElement("canvas");
  c.width = img.width; c.height = img.height;
  const ctx = c.getContext("2d");
  ctx.drawImage(img, 0, 0);
  done(boxes.map(([cx, cy, h]) => {
    const d = ctx.getImageData(Math.round(cx - h), Math.round(cy - h), 2 * h, 2 * h).data;
    const out = [];
    for (let i = 0; i < d.length; i += 4) out.push(d[i] + d[i + 1] + d[i + 2]);
    return out;
  }));
};
img.onerror = () => done("error: the screenshot did not decode");
img.src = "data:image/png;base64," + png;
"""

# Centre and half-size of the square inside each element's circle (or box), in device pixels.
BOXES = """
const [selectors, inner] = arguments;
const dpr = window.devicePixelRatio;
return selectors.map((s) => {
  const r = document.querySelector(s).getBoundingClientRect();
  return [(r.left + r.width / 2) * dpr, (r.top + r.height / 2) * dpr, Math.floor(inner * r.width / 2 * dpr)];
});
"""


def check(ok, what):
    if not ok:
        raise SystemExit(f"FAILED: {what}")
    print(f"ok: {what}")


def differing(a, b):
    """Pixels that differ between two crops of the same size."""
    return sum(1 for x, y in zip(a, b) if abs(x - y) > 60)


def crops(driver, selectors, inner):
    boxes = driver.execute_script(BOXES, selectors, inner)
    out = driver.execute_async_script(CROPS, driver.get_screenshot_as_base64(), boxes)
    if isinstance(out, str):
        raise SystemExit(f"FAILED: {out}")
    return out


def no_cjk_fonts(folder):
    """Links into `folder` every system font with no CJK ideograph; returns how many."""
    n = 0
    for path in sorted(pathlib.Path("/usr/share/fonts").rglob("*")):
        if path.suffix.lower() not in (".ttf", ".otf", ".ttc"):
            continue
        try:
            faces = TTCollection(path, lazy=True).fonts if path.suffix.lower() == ".ttc" else [TTFont(path, lazy=True)]
            if any(any(0x3400 <= c <= 0x9FFF for c in f.getBestCmap()) for f in faces):
                continue
        except Exception:  # a file fontTools cannot read: left out
            continue
        n += 1
        os.symlink(path, pathlib.Path(folder) / f"{n}-{path.name}")
    return n


def fontconfig(tmp):
    """A fonts.conf listing only fonts with no CJK glyph: no system configuration, no aliases."""
    fonts = pathlib.Path(tmp, "fonts")
    fonts.mkdir()
    count = no_cjk_fonts(fonts)
    check(count > 0, f"{count} system fonts with no CJK glyph for the private fontconfig")
    conf = pathlib.Path(tmp, "fonts.conf")
    conf.write_text(f"""<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig>
  <dir>{fonts}</dir>
  <cachedir>{tmp}/cache</cachedir>
</fontconfig>
""")
    return conf


def control(driver):
    """With only the system's fonts (now none with CJK), CJK text is the same box for each
    character, while Latin letters differ: the comparison sees differences, and fonts are hidden."""
    driver.execute_script("""
      const box = document.createElement("div");
      box.id = "control";
      box.style.cssText = "position:fixed;left:0;top:0;z-index:2000;background:#fff;font:48px sans-serif;line-height:1";
      box.innerHTML = '<span>帥</span><span>將</span><span>車</span><span>A</span><span>B</span>';
      document.body.appendChild(box);
    """)
    time.sleep(0.3)
    spans = [f"#control span:nth-child({i})" for i in range(1, 6)]
    k, k2, r, a, b = crops(driver, spans, 0.8)
    check(differing(a, b) > 30, f"control: A and B differ in {differing(a, b)} pixels")
    same = max(differing(k, k2), differing(k, r))
    check(same == 0, f"control: with no CJK font 帥, 將 and 車 are the same box (differ in {same} pixels)")
    driver.execute_script("document.getElementById('control').remove()")


def update(driver, **fields):
    out = driver.execute_async_script(UPDATE, {**BASE, **fields})
    if out != "ok":
        raise SystemExit(f"FAILED: update {sorted(fields)}: {out}")


def faces(driver, style, shots):
    """The 7 red and the 7 black faces are pairwise different images."""
    update(driver, pieces=style, legal=[])
    loaded = driver.execute_script("return document.fonts.check('29px ChariotCJK', '帥K')")
    check(loaded, f"{style}: the board's font ChariotCJK is loaded")
    for side in ("KABNRCP", "kabnrcp"):
        sels = [f'#test-board g.piece[data-piece="{p}"]' for p in side]
        images = crops(driver, sels, 0.68)
        least = min((differing(images[i], images[j]), side[i] + side[j])
                    for i in range(7) for j in range(i + 1, 7))
        check(least[0] > 20, f"{style}: faces {side} pairwise different (closest pair {least[1]}: {least[0]} pixels)")
    if shots:
        driver.find_element(By.ID, "test-board").screenshot(f"{shots}-{style}.png")
        print(f"screenshot: {shots}-{style}.png")


def hit(driver, sq):
    return driver.find_element(By.CSS_SELECTOR, f'#test-board rect.hit[data-sq="{sq}"]')


def moves(driver):
    return driver.execute_script("const m = window.moves.slice(); window.moves.length = 0; return m;")


def state(driver, sq):
    """(classes of the piece on `sq` or None, the target squares shown)."""
    return driver.execute_script("""
      const g = document.querySelector(`#test-board g.piece[data-sq="${arguments[0]}"]`);
      const t = [...document.querySelectorAll("#test-board .target")].map((e) => e.dataset.sq).sort();
      return [g ? g.getAttribute("class") : null, t];
    """, sq)


def centre(driver, selector):
    return driver.execute_script("""
      const r = document.querySelector(arguments[0]).getBoundingClientRect();
      return [Math.round(r.left + r.width / 2), Math.round(r.top + r.height / 2)];
    """, selector)


def clicks(driver):
    """Click-click: select, deselect, move; nothing when the board takes no moves."""
    update(driver)
    hit(driver, "h2").click()
    cls, targets = state(driver, "h2")
    check("selected" in cls.split() and targets == ["e2", "h3", "h9"], f"click h2: {cls!r}, targets {targets}")
    capture = driver.execute_script("return document.querySelectorAll('#test-board .target.capture').length")
    check(capture == 1, "the capture on h9 is marked as one")
    hit(driver, "h2").click()
    cls, targets = state(driver, "h2")
    check("selected" not in cls.split() and targets == [], "a second click on h2 deselects it")
    hit(driver, "h2").click()
    hit(driver, "e2").click()
    check(moves(driver) == ["h2e2"], "click h2, click e2: onMove('h2e2')")
    hit(driver, "b2").click()
    check(state(driver, "b2")[0] and "selected" not in state(driver, "b2")[0], "after a move, no more until update")
    update(driver)
    hit(driver, "h2").click()
    hit(driver, "a9").click()
    check(moves(driver) == [] and state(driver, "h2")[1] == [], "click h2, then an enemy piece out of reach: nothing")
    update(driver, legal=[])
    hit(driver, "h2").click()
    check("selected" not in state(driver, "h2")[0] and moves(driver) == [], "legal []: a click does nothing")


def drags(driver, flipped):
    """Drag and drop with a mouse and with a finger; an illegal drop puts the piece back."""
    update(driver, flipped=flipped)
    side = "flipped" if flipped else "Red at the bottom"
    ActionChains(driver).drag_and_drop(hit(driver, "h2"), hit(driver, "e2")).perform()
    check(moves(driver) == ["h2e2"], f"{side}: mouse drag h2 to e2: onMove('h2e2')")
    update(driver, flipped=flipped)  # the page's answer: the same position again, the cannon back
    home = centre(driver, '#test-board rect.hit[data-sq="h2"]')
    chain = ActionChains(driver).click_and_hold(hit(driver, "h2")).move_by_offset(37, 61)
    chain.perform()
    piece = '#test-board g.piece[data-piece="C"].dragging'
    held = centre(driver, piece)
    check(abs(held[0] - home[0] - 37) <= 2 and abs(held[1] - home[1] - 61) <= 2,
          f"{side}: the dragged cannon follows the pointer ({held}, from {home})")
    ActionChains(driver).move_to_element(hit(driver, "g4")).release().perform()
    back = centre(driver, '#test-board g.piece[data-sq="h2"]')
    check(moves(driver) == [] and back == home, f"{side}: dropped on g4 (illegal): no move, back on h2")
    ActionChains(driver).drag_and_drop_by_offset(hit(driver, "h2"), 700 - home[0], 0).perform()
    check(moves(driver) == [], f"{side}: dropped off the board: no move")
    touch = ActionBuilder(driver, mouse=PointerInput(interaction.POINTER_TOUCH, "finger"))
    touch.pointer_action.move_to(hit(driver, "h0")).pointer_down().move_to(hit(driver, "g2")).release()
    touch.perform()
    check(moves(driver) == ["h0g2"], f"{side}: finger drag h0 to g2: onMove('h0g2')")


def rows(driver):
    """The coordinate labels: bottom row and top row left to right, left column top to bottom."""
    return driver.execute_script("""
      const labels = [...document.querySelectorAll("#test-board text.coord")].map((t) => {
        const r = t.getBoundingClientRect();
        return [r.left + r.width / 2, r.top + r.height / 2, t.textContent];
      });
      const ys = labels.map((l) => l[1]), xs = labels.map((l) => l[0]);
      const at = (f) => labels.filter(f);
      const bottom = at((l) => l[1] > Math.max(...ys) - 5).sort((a, b) => a[0] - b[0]);
      const top = at((l) => l[1] < Math.min(...ys) + 5).sort((a, b) => a[0] - b[0]);
      const left = at((l) => l[0] < Math.min(...xs) + 5).sort((a, b) => a[1] - b[1]);
      return [bottom, top, left].map((row) => row.map((l) => l[2]).join(""));
    """)


def coordinates(driver):
    """Each setting, from each side: Chinese and WXF number each side's files from its right."""
    want = {
        ("chinese", False): ["九八七六五四三二一", "123456789"],
        ("chinese", True): ["987654321", "一二三四五六七八九"],
        ("wxf", False): ["987654321", "123456789"],
        ("wxf", True): ["987654321", "123456789"],
        ("iccs", False): ["abcdefghi", "9876543210"],
        ("iccs", True): ["ihgfedcba", "0123456789"],
    }
    for (coords, flipped), rows_want in want.items():
        update(driver, coords=coords, flipped=flipped)
        bottom, top, left = rows(driver)
        got = [bottom, left] if coords == "iccs" else [bottom, top]
        check(got == rows_want, f"coordinates {coords}, flipped {flipped}: {got}")


def marks(driver, shots):
    """Last move, check and arrows: drawn, told apart by rank, gone when cleared; updating the
    arrows alone leaves the pieces' elements as they were."""
    arrows = [{"move": "h2e2", "rank": 0}, {"move": "b0c2", "rank": 1}, {"move": "h0g2", "rank": 2}]
    update(driver, last="h2e2", check="e0", arrows=arrows)
    if shots:
        driver.find_element(By.ID, "test-board").screenshot(f"{shots}-marks.png")
        print(f"screenshot: {shots}-marks.png")
    found = driver.execute_script("""
      const q = (s) => [...document.querySelectorAll("#test-board " + s)];
      return [q(".last").map((e) => e.dataset.sq).sort(), q(".check").map((e) => e.dataset.sq),
              q(".arrow").map((e) => [e.dataset.move, e.dataset.rank, getComputedStyle(e).fill]).sort()];
    """)
    check(found[0] == ["e2", "h2"] and found[1] == ["e0"], f"last move on {found[0]}, check on {found[1]}")
    check([a[:2] for a in found[2]] == [["b0c2", "1"], ["h0g2", "2"], ["h2e2", "0"]]
          and len({a[2] for a in found[2]}) == 3, f"three arrows, a colour each: {found[2]}")
    ms = driver.execute_script("""
      const before = document.querySelector('#test-board g.piece[data-sq="e0"]');
      const t0 = performance.now();
      for (let i = 0; i < 200; i++) {
        window.testBoard.update({ arrows: [{ move: i % 2 ? "h2e2" : "b2e2", rank: 0 }, { move: "h0g2", rank: 1 }] });
      }
      const ms = (performance.now() - t0) / 200;
      return [ms, before === document.querySelector('#test-board g.piece[data-sq="e0"]')];
    """)
    print(f"update with new arrows: {ms[0]:.3f} ms")
    check(ms[1] and ms[0] < 20, f"arrows alone redraw no pieces ({ms[0]:.3f} ms an update)")
    update(driver)
    left = driver.execute_script("return document.querySelectorAll('#test-board .last, #test-board .check, "
                                 "#test-board .arrow').length")
    check(left == 0, "marks cleared by last, check and arrows null/[]")


def bad_input(driver):
    out = driver.execute_async_script(UPDATE, {"fen": "xyz/?/# w", "legal": ["zz", 5, None],
                                               "arrows": [None, {"move": "x"}, 3], "check": "z9", "last": 7,
                                               "pieces": "klingon", "coords": None})
    n = driver.execute_script("return document.querySelectorAll('#test-board g.piece').length")
    check(out == "ok" and n == 0, f"update with nonsense throws nothing and draws no piece ({out})")


def covers_page():
    """The committed font has every CJK character of the page, and the board's Latin."""
    font = TTFont(ROOT / "web/fonts/chariot-cjk.woff2")
    cmap = font.getBestCmap()
    wanted = web_font.page_characters(ROOT) | set(web_font.BOARD_LATIN)
    missing = "".join(sorted(ch for ch in wanted if ord(ch) not in cmap))
    check(not missing, f"web/fonts/chariot-cjk.woff2 covers the {len(wanted)} characters of web/ and the board"
          + (f"; missing {missing}: run scripts/web_font.py" if missing else ""))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--site", default="target/web")
    p.add_argument("--screenshots", default="", help="prefix for board screenshots, one per piece style")
    p.add_argument("--chromium", default="/usr/bin/chromium")
    p.add_argument("--chromedriver", default="/usr/bin/chromedriver")
    args = p.parse_args()

    covers_page()
    served = pathlib.Path(args.site, "fonts/chariot-cjk.woff2")
    check(served.exists() and served.read_bytes() == (ROOT / "web/fonts/chariot-cjk.woff2").read_bytes(),
          f"{served} is web/fonts/chariot-cjk.woff2")

    server = serve.serve(args.site, 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    tmp = tempfile.mkdtemp()
    options = webdriver.ChromeOptions()
    options.binary_location = args.chromium
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={tmp}/profile")
    env = {**os.environ, "FONTCONFIG_FILE": str(fontconfig(tmp))}
    driver = webdriver.Chrome(service=Service(args.chromedriver, env=env), options=options)
    try:
        driver.set_script_timeout(60)
        driver.get(f"http://127.0.0.1:{server.server_address[1]}/index.html")
        control(driver)
        out = driver.execute_async_script(SETUP)
        check(out == "ok", f"the board is on the page ({out})")
        for style in ("chinese", "western"):
            faces(driver, style, args.screenshots)
        clicks(driver)
        drags(driver, False)
        drags(driver, True)
        coordinates(driver)
        marks(driver, args.screenshots)
        bad_input(driver)
    finally:
        driver.quit()
        server.shutdown()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
