"""The page in headless Chromium: the engine object, a move on the board, stop, a screenshot.

Run by tests/web.rs (`cargo test --release --test web -- --ignored`) after `bash scripts/web.sh`;
needs Debian's chromium and chromium-driver and the packages of web/requirements-test.txt.

    python web/test_page.py --native target/release/chariot [--site target/web]
        [--screenshot target/web-page.png]

The page is loaded twice: served with the cross-origin isolation headers (every check), then
without them, as most static hosts serve it (the engine's other mode: a move on the board is
answered, `stop` ends an analysis, depth 6 as natively). Each check compares with the native
binary where it can; the measures (load time, stop latency, nodes/s) are printed as
`name: value` lines.
"""

import argparse
import os
import subprocess
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
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

FLAGS = serve.CHROMIUM_FLAGS + ["--window-size=1000,860"]

# Sends lines to window.chariot and answers the lines it writes up to one matching `until`.
SESSION = """
const [lines, until, done] = arguments;
const seen = [];
const listen = (line) => {
  seen.push(line);
  if (new RegExp(until).test(line)) { window.chariot.removeMessageListener(listen); done(seen); }
};
window.chariot.addMessageListener(listen);
for (const line of lines) window.chariot.postMessage(line);
"""

# `go infinite`, then `stop` once the search is under way: the milliseconds until `bestmove`,
# and until the engine answers `isready` after it (not isolated: a new worker is ready).
STOP = """
const done = arguments[0];
let sent = null;
let best = null;
const listen = (line) => {
  if (sent === null && /^info depth 8 /.test(line)) {
    sent = performance.now();
    window.chariot.postMessage("stop");
  } else if (best === null && /^bestmove/.test(line)) {
    best = sent === null ? -1 : performance.now() - sent;
    window.chariot.postMessage("isready");
  } else if (best !== null && line === "readyok") {
    window.chariot.removeMessageListener(listen);
    done([best, performance.now() - sent]);
  }
};
window.chariot.addMessageListener(listen);
window.chariot.postMessage("position startpos moves h2e2 h9g7");
window.chariot.postMessage("go infinite");
"""

# Resolves with the engine's load time once the page's engine is ready.
READY = """
const done = arguments[0];
window.chariotReady.then((ms) => done(ms), (e) => done("error: " + e.message));
"""

# Lines that start no search (a search's output depends on the clock).
BAD_LINES = [
    "go depth 0",
    "position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN w",
    "position startpos moves h2e2 h2e2",
    "setoption name Hash value lots",
    "setoption name NoSuchOption value 1",
    "setoption name Skill Level value 99",
    "position fen",
    "frobnicate",
    "x" * 100,
]


def native(binary, lines):
    """The native engine's output for `lines` (stdin closed after them)."""
    run = subprocess.run([binary], input="\n".join(lines) + "\n", capture_output=True, text=True, timeout=120)
    return run.stdout.splitlines()


def last_info(lines, depth):
    """(nodes, bestmove) of the depth-`depth` report and the terminal line."""
    info = [l for l in lines if l.startswith(f"info depth {depth} ")][-1].split()
    best = [l for l in lines if l.startswith("bestmove")][-1].split()[1]
    return int(info[info.index("nodes") + 1]), best


def check(ok, what):
    if not ok:
        raise SystemExit(f"FAILED: {what}")
    print(f"ok: {what}")


def load(driver, url, isolated):
    """Loads the page at `url`; checks that its engine starts in the mode `isolated` says."""
    t0 = time.monotonic()
    driver.get(url)
    ready = driver.execute_async_script(READY)
    check(isinstance(ready, int), f"the page's engine is ready ({ready})")
    print(f"load: {ready} ms from createChariot to ready ({time.monotonic() - t0:.2f} s with the page)")
    mode = driver.execute_script("return [window.crossOriginIsolated, window.chariot.isolated, window.chariot.simd]")
    check(mode[:2] == [isolated, isolated], f"cross-origin isolated and the engine's mode: {mode[:2]} (simd {mode[2]})")


def depth6(driver, binary):
    """The same engine: depth 6 from the README's position, as natively."""
    lines = ["position startpos moves h2e2 h9g7", "go depth 6"]
    want = last_info(native(binary, lines), 6)
    seen = driver.execute_async_script(SESSION, ["ucinewgame"] + lines, "^bestmove")
    got = last_info(seen, 6)
    check(got == want, f"depth 6: nodes and bestmove {got} (native {want})")


def board_move(driver):
    """A move on the board gets a legal reply; returns the game's moves."""
    for sq in ("h2", "e2"):
        hit = driver.find_element(By.CSS_SELECTOR, f'#board rect.hit[data-sq="{sq}"]')
        ActionChains(driver).move_to_element(hit).click().perform()
    moves_el = driver.find_element(By.ID, "moves")
    WebDriverWait(driver, 30).until(lambda d: len(moves_el.get_attribute("data-moves").split()) >= 2)
    moves = moves_el.get_attribute("data-moves").split()
    legal = driver.execute_script("return window.chariot.rules(arguments[0]).ok", "startpos moves " + " ".join(moves))
    check(moves[0] == "h2e2" and len(moves) == 2 and legal, f"the board's move h2e2 answered by {moves[1]}")
    return moves


def stop_latency(driver, limit_ms):
    """`stop` ends `go infinite` at once, three times: the latencies."""
    runs = [driver.execute_async_script(STOP) for _ in range(3)]
    stops = [r[0] for r in runs]
    check(all(0 <= l < limit_ms for l in stops), f"stop ends go infinite in {max(stops):.1f} ms")
    print(f"stop latency: {', '.join(f'{l:.1f}' for l in stops)} ms")
    print(f"stop to the next readyok: {', '.join(f'{r[1]:.1f}' for r in runs)} ms")


def analyse(driver):
    """The analysis pane fills, and pressing Analyse again stops it."""
    driver.find_element(By.ID, "analyse").click()
    WebDriverWait(driver, 30).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#a-lines li"))
    time.sleep(1.5)
    driver.find_element(By.ID, "analyse").click()
    check(driver.find_element(By.ID, "analyse").text == "Analyse", "Analyse again stops the analysis")


def isolated_page(driver, url, args):
    """Every check, on the page served with the headers."""
    load(driver, url, True)
    depth6(driver, args.native)

    # Bad lines are answered as natively.
    want = native(args.native, BAD_LINES + ["isready"])
    seen = driver.execute_async_script(SESSION, BAD_LINES + ["isready"], "^readyok$")
    check(seen == want, "bad lines answered as natively:\n  " + "\n  ".join(seen))

    moves = board_move(driver)
    moves_el = driver.find_element(By.ID, "moves")

    # A bad FEN or move typed in: one message, the game unchanged.
    for field, text, button, words in [
        ("fen", "rnbakabnr/9/9 w", "set-fen", "Bad FEN"),
        ("move-in", "a0a5", "play", 'Cannot read the move "a0a5"'),
        ("move-in", "zz", "play", 'Cannot read the move "zz"'),
    ]:
        box = driver.find_element(By.ID, field)
        box.clear()
        box.send_keys(text)
        driver.find_element(By.ID, button).click()
        message = driver.find_element(By.ID, "message").text
        same = moves_el.get_attribute("data-moves").split() == moves
        check(message.startswith(words) and same, f"typed {text!r}: {message!r}, the game unchanged")
        box.clear()

    stop_latency(driver, 200)

    # Speed: bench through the engine object.
    seen = driver.execute_async_script(SESSION, ["bench"], r"^\d+ nodes \d+ nps$")
    page_nodes, page_nps = seen[-1].split()[0], seen[-1].split()[2]
    native_bench = subprocess.run([args.native, "bench"], capture_output=True, text=True, timeout=300)
    nodes, native_nps = native_bench.stdout.splitlines()[-1].split()[0::2]
    check(page_nodes == nodes, f"bench signature {page_nodes} as natively")
    print(f"nodes/s: page {page_nps}, native {native_nps} ({int(page_nps) / int(native_nps):.2f} of native)")

    # The analysis pane, then the screenshot.
    analyse(driver)
    driver.save_screenshot(args.screenshot)
    print(f"screenshot: {args.screenshot}")


def plain_page(driver, url, args):
    """The page served without the headers: the engine's other mode still plays."""
    load(driver, url, False)
    board_move(driver)
    analyse(driver)
    stop_latency(driver, 200)
    depth6(driver, args.native)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--native", required=True, help="the native chariot binary")
    p.add_argument("--site", default="target/web")
    p.add_argument("--screenshot", default="target/web-page.png")
    p.add_argument("--chromium", default="/usr/bin/chromium")
    p.add_argument("--chromedriver", default="/usr/bin/chromedriver")
    args = p.parse_args()

    servers = [serve.serve(args.site, 0, isolated=i) for i in (True, False)]
    for server in servers:
        threading.Thread(target=server.serve_forever, daemon=True).start()
    urls = [f"http://127.0.0.1:{server.server_address[1]}/index.html" for server in servers]

    options = webdriver.ChromeOptions()
    options.binary_location = args.chromium
    for flag in FLAGS:
        options.add_argument(flag)
    profile = tempfile.TemporaryDirectory()
    options.add_argument(f"--user-data-dir={profile.name}")
    driver = webdriver.Chrome(service=Service(args.chromedriver), options=options)
    try:
        driver.set_script_timeout(180)
        print("-- served with the cross-origin isolation headers")
        isolated_page(driver, urls[0], args)
        print("-- served without them")
        plain_page(driver, urls[1], args)
    finally:
        driver.quit()
        for server in servers:
            server.shutdown()


if __name__ == "__main__":
    main()
