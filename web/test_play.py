"""The page as a player uses it, in headless Chromium: the defects of the first page, playing,
analysis, review, records, notation and language, at 1280×900 and at a phone's 390×844.

Run by tests/web.rs (`cargo test --release --test web -- --ignored play_in_chromium`) after
`bash scripts/web.sh`; needs Debian's chromium and chromium-driver and the packages of
web/requirements-test.txt.

    python web/test_play.py [--site target/web] [--shots DIR] [--only NAME,...]

Each check prints `ok: …` or stops with `FAILED: …`; measures print as `name: value`. With
--shots, the screenshots of docs/web.md are written there (desktop, phone, analysis, review).
"""

import argparse
import os
import re
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import serve  # noqa: E402

os.environ.setdefault("SE_OFFLINE", "true")  # never download a browser or a driver

from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RECORDS = os.path.join(ROOT, "tests", "data", "records")
START = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w"
# Red a chariot up, Black to move: Red's score must be high, and Red's win likely, whoever moves.
RED_UP = "3akab2/9/4b4/p3p3p/9/9/P3P3P/4B4/4A4/R2AK1B2 b"
FLAGS = serve.CHROMIUM_FLAGS
CHINESE_MOVE = re.compile(r"[车俥車马傌馬炮砲相象仕士帅帥将將兵卒前后中][一二三四五六七八九1-9１-９前后中][进退平][一二三四五六七八九1-9１-９]")


def check(ok, what):
    if not ok:
        raise SystemExit(f"FAILED: {what}")
    print(f"ok: {what}")


class Page:
    """The page in one browser window, and what a player does with it."""

    def __init__(self, driver, url):
        self.d = driver
        self.url = url

    def open(self, lang="en"):
        self.d.get(self.url)
        self.d.execute_script("localStorage.clear()")
        self.d.get(self.url)
        ready = self.d.execute_async_script(
            "const done = arguments[0]; window.chariotReady.then(done, (e) => done('error: ' + e.message));")
        check(isinstance(ready, int), f"the page is ready ({ready} ms to the engine)")
        self.select("lang", lang)

    def el(self, css):
        return self.d.find_element(By.CSS_SELECTOR, css)

    def els(self, css):
        return self.d.find_elements(By.CSS_SELECTOR, css)

    def select(self, id_, value):
        Select(self.d.find_element(By.ID, id_)).select_by_value(value)

    def click(self, id_):
        self.d.find_element(By.ID, id_).click()

    def js(self, script, *args):
        return self.d.execute_script(script, *args)

    def wait(self, cond, what, timeout=30):
        try:
            return WebDriverWait(self.d, timeout, poll_frequency=0.05).until(lambda d: cond())
        except Exception:
            raise SystemExit(f"FAILED: waited {timeout} s for {what} (message: {self.message()!r})")

    def square(self, sq):
        ActionChains(self.d).move_to_element(self.el(f'#board rect.hit[data-sq="{sq}"]')).click().perform()

    def move(self, iccs):
        self.square(iccs[:2])
        self.square(iccs[2:])

    def moves(self):
        return self.el("#moves").get_attribute("data-moves").split()

    def ply(self):
        return int(self.el("#moves").get_attribute("data-ply"))

    def message(self):
        return self.d.find_element(By.ID, "message").text

    def type_into(self, id_, text):
        box = self.d.find_element(By.ID, id_)
        box.clear()
        if text:
            self.js("arguments[0].value = arguments[1]", box, text)

    def new_game(self, color="w", tc="1s", custom=None, fen=None):
        self.select("color", color)  # starts a new game too
        self.select("tc", tc)
        if custom is not None:
            self.type_into("tc-custom", custom)
        if fen:
            self.type_into("fen", fen)
            self.click("set-fen")
        else:
            self.click("new")

    def rules(self, moves, start=None):
        head = f"fen {start}" if start else "startpos"
        spec = head + (" moves " + " ".join(moves) if moves else "")
        return self.js("return window.chariot.rules(arguments[0])", spec)

    def depth(self):
        """The analysis pane's depth, 0 while it shows none."""
        text = self.el("#a-depth").text.strip()
        return int(text) if text.isdigit() else 0

    def fen(self):
        return self.d.find_element(By.ID, "fen").get_attribute("value")

    def analysis(self, on):
        """Turns the analysis pane on or off (a click only if it is not so already)."""
        if self.el("#analysis").is_displayed() != on:
            self.click("analyse")

    def analysis_shown(self):
        return self.el("#analysis").is_displayed()


# --- the six defects -------------------------------------------------------------------------------
def takeback_as_black(p):
    """1. As Black, Take back after Chariot's first move: Chariot moves again, and you can play."""
    p.new_game(color="b")
    p.wait(lambda: len(p.moves()) == 1, "Chariot's first move")
    p.click("takeback")
    p.wait(lambda: len(p.moves()) == 1, "Chariot to move again after Take back", 15)
    legal = p.rules(p.moves())["legal"]
    mine = next(m for m in legal if m.startswith(("h7", "b7", "g9", "c9")))
    p.move(mine)
    p.wait(lambda: len(p.moves()) == 3, "the game to go on")
    check("Wait" not in p.message(), f"after Take back as Black the game goes on: {' '.join(p.moves())}")


def wdl_view(p):
    """2. Score and WDL from one side's view: Red's, said on the page."""
    p.new_game(color="both", fen=RED_UP)
    p.select("view", "red")
    p.click("analyse")
    p.wait(lambda: p.el("#a-wdl").text not in ("", "–") and p.depth() >= 8, "analysis")
    score = float(p.el("#a-score").text.replace("#", "99"))
    w, d, l = (float(x.strip(" %")) for x in p.el("#a-wdl").text.split("/"))
    note = p.el("#a-view").text
    check(score > 3 and w > l and "Red" in note, f"Black to move, Red a chariot up: score {score}, WDL {w}/{d}/{l} ({note})")
    p.select("view", "player")  # playing both sides: still Red's view
    p.new_game(color="b", fen=RED_UP.replace(" b", " w"))
    p.select("view", "player")
    p.wait(lambda: len(p.moves()) >= 1, "Chariot's move as Red")
    p.wait(lambda: p.el("#a-wdl").text not in ("", "–"), "analysis on your turn")
    score = float(p.el("#a-score").text.replace("#", "99"))
    w, d, l = (float(x.strip(" %")) for x in p.el("#a-wdl").text.split("/"))
    check(score < -3 and l > w and "Black" in p.el("#a-view").text,
          f"your view as Black, Red a chariot up: score {score}, WDL {w}/{d}/{l}")
    p.click("analyse")
    p.select("view", "red")


def stale_analysis(p):
    """3. After Take back no stale depth or PV; during play Chariot's search stays hidden."""
    p.new_game(color="both")
    for m in ["h2e2", "h9g7", "h0g2"]:
        p.type_into("move-in", m)
        p.click("play")
    p.click("analyse")
    p.wait(lambda: len(p.els("#board .arrow")) >= 1, "an arrow")
    p.click("takeback")
    legal = p.rules(p.moves())["legal"]
    time.sleep(0.3)
    arrows = p.js("return [...document.querySelectorAll('#board .arrow')].map((a) => a.dataset.move)")
    check(all(a in legal for a in arrows), f"after Take back the arrows are of the new position: {arrows}")
    p.click("analyse")
    p.new_game(color="b", tc="5s")
    time.sleep(1.5)
    shown = p.analysis_shown() or bool(p.els("#board .arrow"))
    check(not shown, "during play, Chariot's own search is hidden")


def long_list(p):
    """4. A long game's move list scrolls down, never sideways."""
    path = os.path.join(RECORDS, "pgn", "gbk-huashan", "003.pgn")
    p.el("#record-file").send_keys(path)
    p.wait(lambda: len(p.moves()) > 60, "the record to load")
    box = p.el("#moves-box")
    sizes = p.js("const b = arguments[0]; return [b.scrollWidth, b.clientWidth, b.scrollHeight, b.clientHeight]", box)
    check(sizes[0] <= sizes[1] and sizes[2] > sizes[3],
          f"{len(p.moves())} plies: the list scrolls down only (width {sizes[0]}/{sizes[1]}, height {sizes[2]}/{sizes[3]})")
    last = p.els("#moves td.mv")[-1]
    p.js("arguments[0].scrollIntoView()", last)
    check(last.is_displayed() and last.text.strip() != "", f"the last move is shown: {last.text}")


def empty_fen(p):
    """5. Set FEN with an empty box: a message, the game unchanged."""
    p.new_game(color="both")
    p.type_into("move-in", "h2e2")
    p.click("play")
    p.type_into("fen", "")
    p.click("set-fen")
    check("empty" in p.message() and p.moves() == ["h2e2"], f"empty Set FEN: {p.message()!r}, game kept")


def analyse_while_thinking(p):
    """6. Analyse while Chariot thinks does not cut its search short."""
    p.new_game(color="b", tc="5s")
    t0 = time.monotonic()
    time.sleep(0.5)
    p.click("analyse")
    p.wait(lambda: len(p.moves()) == 1, "Chariot's move", 20)
    took = time.monotonic() - t0
    check(took > 4.0, f"Analyse pressed during Chariot's 5 s search: it moved after {took:.1f} s")
    p.click("analyse")


# --- playing ---------------------------------------------------------------------------------------
def notation(p):
    """The move box reads all three notations; the list and the coordinates follow the toggle."""
    p.new_game(color="both")
    for text in ["炮二平五", "H8+7", "h0g2"]:
        p.type_into("move-in", text)
        p.click("play")
    check(p.moves() == ["h2e2", "h9g7", "h0g2"], f"typed 炮二平五, H8+7, h0g2: {p.moves()}")
    seen = {}
    for n in ["chinese", "wxf", "iccs"]:
        p.select("notation", n)
        seen[n] = ([c.text for c in p.els("#moves td.mv")], sorted(c.text for c in p.els("#board .coord")))
    check(seen["chinese"][0] == ["炮二平五", "马8进7", "马二进三"] or seen["chinese"][0][0] == "炮二平五",
          f"Chinese: {seen['chinese'][0]}")
    check(seen["wxf"][0][0] == "C2=5" and seen["iccs"][0] == ["h2e2", "h9g7", "h0g2"], f"WXF {seen['wxf'][0]}, ICCS {seen['iccs'][0]}")
    check(len({tuple(v[1]) for v in seen.values()}) == 3 and "九" in seen["chinese"][1],
          "the board's coordinates differ for each notation (Chinese has 九)")
    p.type_into("move-in", "zz")
    p.click("play")
    check("zz" in p.message() and len(p.moves()) == 3, f"a move that cannot be read: {p.message()!r}")


def drag_and_highlights(p):
    """Drag and drop plays a move; the last move and a king in check are marked."""
    p.new_game(color="both")
    src = p.el('#board rect.hit[data-sq="h2"]')
    dst = p.el('#board rect.hit[data-sq="h9"]')
    ActionChains(p.d).click_and_hold(src).move_by_offset(5, -5).move_to_element(dst).release().perform()
    check(p.moves() == ["h2h9"], f"dragged h2 to h9: {p.moves()}")
    check(len(p.els("#board .last")) == 2, "the last move's squares are marked")
    p.new_game(color="both", fen="4k4/9/9/9/9/9/9/9/4R4/3K5 b")
    check(len(p.els("#board .check")) == 1, "the king in check is marked")


def clocks_and_flag(p):
    """A flag falls: the game ends on time, Chariot's clock runs while it thinks."""
    p.new_game(color="b", tc="custom", custom="0.5+0")
    p.wait(lambda: len(p.moves()) == 1, "Chariot's move on its clock")
    red = int(p.el('.clock[data-side="w"]').get_attribute("data-ms"))
    check(0 < red < 30000, f"Chariot's clock was charged for its move: {red} ms left of 30000")
    p.new_game(color="w", tc="custom", custom="0.05+0")
    p.wait(lambda: "time" in p.message(), "the flag to fall", 10)
    check("Black wins" in p.message(), f"the player's flag fell: {p.message()!r}")


def analysis_features(p):
    """Eval bar, MultiPV arrows and lines in the chosen notation."""
    p.new_game(color="both")
    p.select("multipv", "3")
    p.select("notation", "chinese")
    p.click("analyse")
    p.wait(lambda: len(p.els("#board .arrow")) == 3 and len(p.els("#a-lines li")) == 3, "three lines")
    moves, lines = p.js("""return [[...document.querySelectorAll('#board .arrow')].map((a) => a.dataset.move),
                                    [...document.querySelectorAll('#a-lines li')].map((li) => li.textContent)]""")
    moves = set(moves)
    check(len(moves) == 3 and all(CHINESE_MOVE.search(l) for l in lines), f"three arrows {sorted(moves)}, lines {lines[0]!r}…")
    height = p.js("return getComputedStyle(document.getElementById('eval-fill')).height")
    check(p.el("#eval-bar").is_displayed() and height != "0px", f"the eval bar shows ({height})")
    p.analysis(False)


def timed_game_review_download(p, shots, downloads):
    """The whole story: a timed game, its review, stepping through it, a branch, the PGN in Chinese."""
    p.new_game(color="w", tc="custom", custom="0.5+1")
    rng = 7
    for i in range(6):
        p.wait(lambda: len(p.moves()) == 2 * i, f"Chariot's reply {i}")
        legal = p.rules(p.moves())["legal"]
        rng = (rng * 1103515245 + 12345) % 2**31
        p.move(legal[rng % len(legal)])
        if "Game over" in p.message():
            break
    p.wait(lambda: len(p.moves()) % 2 == 0 or "Game over" in p.message(), "Chariot's last reply")
    if "Game over" not in p.message():
        p.click("resign")
    check("Game over" in p.message(), f"the game ended: {p.message()!r}")
    plies = len(p.moves())
    Select(p.el("#review-nodes")).select_by_value("20000")
    p.click("review")
    p.wait(lambda: p.el("#accuracy").text.strip() != "", "the review", 120)
    marks = [c.get_attribute("class") for c in p.els("#moves td.mv") if re.search("inaccuracy|mistake|blunder", c.get_attribute("class"))]
    check(marks and p.el("#graph").is_displayed(), f"review: {p.el('#accuracy').text!r}; {len(marks)} moves marked; graph shown")
    if shots:
        p.d.save_screenshot(os.path.join(shots, "web-review.png"))
    # Stepping: Home, arrows, a click in the list.
    body = p.el("body")
    p.js("document.activeElement.blur()")
    body.send_keys(Keys.HOME)
    check(p.ply() == 0 and p.fen().startswith(START.split()[0]), "Home shows the start")
    body.send_keys(Keys.ARROW_RIGHT, Keys.ARROW_RIGHT, Keys.ARROW_RIGHT)
    check(p.ply() == 3 and p.fen() == p.rules(p.moves()[:3])["fen"], "→ three times shows the position after 3 plies")
    p.els("#moves td.mv")[4].click()
    check(p.ply() == 5, "a click on the fifth move shows it")
    # A new branch from ply 2.
    p.js("window.chariotPage.show(2)")
    line = p.moves()
    other = next(m for m in p.rules(line[:2])["legal"] if m != line[2])
    p.move(other)
    check(p.moves()[:3] == line[:2] + [other] and len(p.els("#branches button")) == 2, f"a branch at ply 3: {other} beside {line[2]}")
    p.els("#branches button")[0].click()
    check(p.moves() == line, "the first line is one click away")
    # The PGN in Chinese.
    p.select("notation", "chinese")
    for f in os.listdir(downloads):
        os.remove(os.path.join(downloads, f))
    p.click("download")
    p.wait(lambda: any(f.endswith(".pgn") for f in os.listdir(downloads)), "the download")
    name = next(f for f in os.listdir(downloads) if f.endswith(".pgn"))
    text = open(os.path.join(downloads, name), encoding="utf-8").read()
    found = CHINESE_MOVE.findall(text)
    back = p.js("return window.chariot.readRecord(arguments[0])", text)
    check(len(found) == plies and back["ok"] and back["moves"] == line and '[Result "' in text,
          f"downloaded {name}: {len(found)} moves in Chinese, read back the same, result tag")


def records(p):
    """Paste or open records in every format; bad ones leave the game as it was."""
    expected = {}
    for row in open(os.path.join(RECORDS, "expected.tsv"), encoding="utf-8"):
        if row.startswith("#"):
            continue
        f, i, fen, moves = (row.rstrip("\n").split("\t") + [""])[:4]
        if i == "0":
            expected[f] = (fen, moves.split())
    for f in ["xqf/v10-jindai-05.xqf", "pgn/wxf-wukong-fullwidth.pgn", "pgn/gbk-hb-01.pgn", "pgn/iccs-wukong-coords.pgn"]:
        p.el("#record-file").send_keys(os.path.join(RECORDS, f))
        want = expected[f][1]
        p.wait(lambda: p.moves() == want, f"{f} to load with its {len(want)} moves", 10)
        check(True, f"opened {f}: {len(want)} moves as expected")
    dhtml = open(os.path.join(RECORDS, "dhtmlxq", "dpxq_hongzhi_xutianhong_2021.txt"), encoding="utf-8", errors="replace").read()
    p.type_into("record", dhtml)
    p.click("load")
    want = expected.get("dhtmlxq/dpxq_hongzhi_xutianhong_2021.txt")
    check("loaded" in p.message() and (want is None or p.moves() == want[1]), f"pasted DhtmlXQ: {len(p.moves())} moves")
    before = p.moves()
    for bad in ["1. h2e2 h9h0 *", "not a record at all", "rnbakabnr/9/9 w"]:
        p.type_into("record", bad)
        p.click("load")
        check(p.message().startswith("Cannot read") and p.moves() == before, f"bad record {bad!r}: {p.message()!r}")
    p.type_into("record", RED_UP)
    p.click("load")
    check(p.fen() == p.rules([], RED_UP)["fen"], "a pasted FEN sets the position")
    p.d.execute_cdp_cmd("Browser.grantPermissions", {"permissions": ["clipboardReadWrite", "clipboardSanitizedWrite"], "origin": p.url.rsplit("/", 1)[0]})
    p.click("copy-fen")
    copied = p.d.execute_async_script("navigator.clipboard.readText().then(arguments[0], (e) => arguments[0]('error ' + e))")
    check(copied == p.fen(), f"Copy FEN: {copied!r}")


def language(p):
    """The page's words in Chinese and back."""
    p.select("lang", "zh")
    check(p.el("#new").text == "新局" and p.el("#review").text == "复盘本局", f"中文: {p.el('#new').text}, {p.el('#review').text}")
    keys = p.d.execute_async_script("import('./i18n.js').then((m) => arguments[0]([m.KEYS.en, m.KEYS.zh]))")
    check(sorted(keys[0]) == sorted(keys[1]), f"both languages have the same {len(keys[0])} words")
    p.select("lang", "en")
    check(p.el("#new").text == "New game", "English again")


def phone(driver, url, shots):
    """At 390×844 the page fits the width: no sideways scrolling, the board as wide as the screen."""
    driver.set_window_size(390, 844)
    p = Page(driver, url)
    p.open()
    width = driver.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
    board = p.el("#board").size["width"]
    check(width[0] <= width[1] and board > 300, f"phone: page width {width[0]} in {width[1]}, board {board} px wide")
    p.move("h2e2")
    p.wait(lambda: len(p.moves()) == 2, "Chariot's reply on the phone")
    top = driver.execute_script("return window.scrollY")
    check(top == 0, f"a move does not scroll the page (scrollY {top})")
    if shots:
        driver.save_screenshot(os.path.join(shots, "web-phone.png"))


def shots(p, folder):
    """The screenshots of docs/web.md: a game on the clock, and the analysis board."""
    p.new_game(color="w", tc="1+0")
    for m in ["h2e2", "h0g2"]:
        n = len(p.moves())
        p.move(m if m in p.rules(p.moves())["legal"] else p.rules(p.moves())["legal"][0])
        p.wait(lambda: len(p.moves()) == n + 2, "Chariot's reply")
    p.d.save_screenshot(os.path.join(folder, "web-desktop.png"))
    p.click("resign")
    p.new_game(color="both")
    for m in ["h2e2", "h9g7", "h0g2", "i9h9"]:
        p.type_into("move-in", m)
        p.click("play")
    p.select("notation", "chinese")
    p.select("multipv", "3")
    p.analysis(True)
    p.wait(lambda: p.depth() >= 12, "depth 12")
    p.d.save_screenshot(os.path.join(folder, "web-analysis.png"))
    p.analysis(False)


CHECKS = [takeback_as_black, wdl_view, stale_analysis, long_list, empty_fen, analyse_while_thinking,
          notation, drag_and_highlights, clocks_and_flag, analysis_features, records, language]


def main():
    a = argparse.ArgumentParser()
    a.add_argument("--site", default="target/web")
    a.add_argument("--shots", default=None, help="folder for the screenshots of docs/web.md")
    a.add_argument("--only", default=None, help="comma-separated check names")
    a.add_argument("--chromium", default="/usr/bin/chromium")
    a.add_argument("--chromedriver", default="/usr/bin/chromedriver")
    args = a.parse_args()
    server = serve.serve(args.site, 0, isolated=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/index.html"
    downloads = tempfile.mkdtemp()
    options = webdriver.ChromeOptions()
    options.binary_location = args.chromium
    for flag in FLAGS + ["--window-size=1280,900"]:
        options.add_argument(flag)
    profile = tempfile.TemporaryDirectory()
    options.add_argument(f"--user-data-dir={profile.name}")
    options.add_experimental_option("prefs", {"download.default_directory": downloads, "download.prompt_for_download": False})
    driver = webdriver.Chrome(service=Service(args.chromedriver), options=options)
    driver.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": downloads})
    only = set(args.only.split(",")) if args.only else None
    try:
        driver.set_script_timeout(180)
        p = Page(driver, url)
        p.open()
        for c in CHECKS:
            if only is None or c.__name__ in only:
                print(f"-- {c.__doc__.splitlines()[0]}")
                c(p)
        if only is None or "timed_game_review_download" in only:
            print("-- " + timed_game_review_download.__doc__)
            timed_game_review_download(p, args.shots, downloads)
        if args.shots:
            shots(p, args.shots)
        if only is None or "phone" in only:
            print("-- " + phone.__doc__.splitlines()[0])
            phone(driver, url, args.shots)
    finally:
        driver.quit()
        server.shutdown()


if __name__ == "__main__":
    main()
