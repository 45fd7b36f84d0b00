"""The page installed and offline, in headless Chromium: the manifest, the service worker, a
reload with the server gone, and a new build picked up once the server is back.

Run by tests/web.rs (`cargo test --release --test web -- --ignored page_offline`) after
`bash scripts/web.sh`; needs Debian's chromium and chromium-driver and the packages of
web/requirements-test.txt.

    python web/test_offline.py [--site target/web]

The site is copied to a temporary folder and served from there on 127.0.0.1, with the cross-
origin isolation headers; the last check changes that copy as a new build would. The checks:
Chromium finds the manifest valid and the page installable, and each icon is as large as the
manifest says; the service worker controls the page and keeps every file of the page; with
the server shut down (a new address no longer loads), a reload still plays: the engine
starts, the page is still cross-origin isolated, and a move on the board is answered. The
measures (time to the service worker's control, the offline reload's time, the bytes kept)
are printed as `name: value` lines.
"""

import argparse
import json
import os
import re
import shutil
import socket
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import serve  # noqa: E402

os.environ.setdefault("SE_OFFLINE", "true")  # never download a browser or a driver

from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

FLAGS = serve.CHROMIUM_FLAGS + ["--window-size=1000,860"]

# Every answer of the test's servers, in order: (path, status).
SERVED = []
serve.Handler.log_request = lambda self, code="-", size="-": SERVED.append((self.path, int(code)))

# Resolves with the engine's load time once the page's engine is ready.
READY = """
const done = arguments[0];
window.chariotReady.then((ms) => done(ms), (e) => done("error: " + e.message));
"""

# Each icon of the manifest (its URL, its `sizes`): the size the browser decodes it at.
ICON_SIZES = """
const [icons, done] = arguments;
Promise.all(icons.map(async ([src]) => {
  const img = new Image();
  img.src = src;
  try { await img.decode(); } catch (e) { return "cannot decode: " + e.message; }
  return img.naturalWidth + "x" + img.naturalHeight;
})).then(done);
"""

# The caches of the page's service worker: {name: {url: bytes}}.
CACHES = """
const done = arguments[0];
(async () => {
  const out = {};
  for (const name of await caches.keys()) {
    if (!name.startsWith("chariot-page-")) continue;
    const cache = await caches.open(name);
    out[name] = {};
    for (const request of await cache.keys()) {
      out[name][request.url] = (await (await cache.match(request)).arrayBuffer()).byteLength;
    }
  }
  return out;
})().then(done, (e) => done("error: " + e.message));
"""

# Fetches a URL no one asked for before: "ok <status>" or the error's name.
FETCH_NEW = """
const done = arguments[0];
fetch("not-kept-" + Date.now() + ".txt").then((r) => done("ok " + r.status), (e) => done(e.name));
"""


def check(ok, what):
    if not ok:
        raise SystemExit(f"FAILED: {what}")
    print(f"ok: {what}")


def start(folder, port=0):
    """Serves `folder` with the isolation headers on 127.0.0.1:`port`: the server, with the
    connections it accepted in `server.connections`."""
    server = serve.serve(folder, port, isolated=True)
    server.connections = []
    accept = server.process_request

    def process_request(request, client_address):
        server.connections.append(request)
        accept(request, client_address)

    server.process_request = process_request
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def stop(server):
    """Shuts the server down, with the connections it holds open: Chromium opens spare
    connections ahead of need, and a handler waiting on one would still answer after the
    listening socket is closed."""
    server.shutdown()
    for connection in server.connections:
        try:
            connection.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass  # already closed
    server.server_close()


def ready(driver, what):
    """Waits for the page's engine; checks that the page is cross-origin isolated."""
    ms = driver.execute_async_script(READY)
    check(isinstance(ms, int), f"{what}: the page's engine is ready ({ms})")
    mode = driver.execute_script("return [window.crossOriginIsolated, window.chariot.isolated]")
    check(mode == [True, True], f"{what}: cross-origin isolated and the engine's shared memory: {mode}")


def manifest(driver):
    """Chromium's verdict on the manifest, then the icons' sizes."""
    got = {}
    for _ in range(50):
        got = driver.execute_cdp_cmd("Page.getAppManifest", {})
        if got.get("data"):
            break
        time.sleep(0.1)
    check(got.get("data") and got.get("errors") == [], f"manifest {got.get('url')} parsed, errors {got.get('errors')}")
    errors = driver.execute_cdp_cmd("Page.getInstallabilityErrors", {})["installabilityErrors"]
    check(errors == [], f"installable: installability errors {errors}")
    data = json.loads(got["data"])
    base = got["url"]
    icons = [[driver.execute_script("return new URL(arguments[0], arguments[1]).href", i["src"], base), i["sizes"]]
             for i in data["icons"]]
    sizes = driver.execute_async_script(ICON_SIZES, icons)
    for (src, claimed), size in zip(icons, sizes):
        fits = size == claimed if claimed != "any" else re.fullmatch(r"[1-9]\d*x[1-9]\d*", size) is not None
        check(fits, f"icon {src.rsplit('/', 1)[-1]}: {size}, the manifest says {claimed}")
    purposes = {i.get("purpose", "any") for i in data["icons"]}
    check({"any", "maskable"} <= purposes, f"icons for the purposes {sorted(purposes)}")


def kept(driver, folder):
    """Every file of sw.js's FILES is kept (but the engine module this browser does not use):
    the bytes kept."""
    caches = driver.execute_async_script(CACHES)
    check(isinstance(caches, dict) and len(caches) == 1, f"one cache of the page's files: {list(caches)}")
    (name, files), = caches.items()
    with open(os.path.join(folder, "sw.js"), encoding="utf-8") as f:
        source = f.read()
    version = re.search(r'^const VERSION = "([^"]+)";', source, re.M).group(1)
    wanted = json.loads(re.search(r"^const FILES = (\[.*\]);", source, re.M).group(1))
    simd = driver.execute_script("return window.chariot.simd")
    unused = "chariot.wasm" if simd else "chariot-simd.wasm"
    names = {url.split("/", 3)[3] for url in files}
    missing = sorted(set(wanted) - {unused} - names)
    check(name == "chariot-page-" + version and not missing, f"{name} keeps sw.js's files; missing {missing}")
    check(unused not in names, f"{unused} (not this browser's engine) not kept")
    total = sum(files.values())
    print(f"precached: {total} bytes in {len(files)} files")
    return name


def board_move(driver):
    """A move on the board is answered by the engine."""
    board = driver.find_element(By.ID, "board")
    board.find_element(By.CSS_SELECTOR, 'rect.hit[data-sq="h2"]').click()
    board.find_element(By.CSS_SELECTOR, 'rect.hit[data-sq="e2"]').click()
    moves_el = driver.find_element(By.ID, "moves")
    WebDriverWait(driver, 60).until(lambda d: len(moves_el.get_attribute("data-moves").split()) >= 2)
    moves = moves_el.get_attribute("data-moves").split()
    check(moves[0] == "h2e2" and len(moves) == 2 and re.fullmatch(r"[a-i]\d[a-i]\d", moves[1]),
          f"the board's move h2e2 answered by {moves[1]}")


def online(driver, url):
    """The first visit: the page, its manifest, the service worker's control."""
    t0 = time.monotonic()
    driver.get(url)
    ready(driver, "first load")
    manifest(driver)
    WebDriverWait(driver, 120).until(lambda d: d.execute_script("return !!navigator.serviceWorker.controller"))
    print(f"sw control: {time.monotonic() - t0:.2f} s from the first load")
    # The worker is registered once the engine is loaded, and its copy asks the server
    # whether the files changed: the engine's module is downloaded once, not twice.
    wasm = {path: [c for p, c in SERVED if p == path] for path, _ in SERVED if path.endswith(".wasm")}
    check(all(codes.count(200) == 1 for codes in wasm.values()), f"each module downloaded once: {wasm}")
    driver.refresh()
    ready(driver, "reload")
    state = driver.execute_script(
        "const nav = performance.getEntriesByType('navigation')[0];"
        "return [navigator.serviceWorker.controller?.scriptURL ?? null, nav.workerStart > 0]"
    )
    check(state[0] == url + "sw.js" and state[1], f"the reload is controlled by {state[0]}, from the worker: {state[1]}")


def offline(driver, server):
    """The server shut down: a reload still plays."""
    stop(server)
    gone = driver.execute_async_script(FETCH_NEW)
    check(gone == "TypeError", f"server gone: a new address no longer loads ({gone})")
    t0 = time.monotonic()
    driver.refresh()
    ready(driver, "offline reload")
    print(f"offline reload: {time.monotonic() - t0:.2f} s to the engine ready")
    board_move(driver)


def update(driver, folder, port, old_cache):
    """The server back with a new build (a changed index.html, a new VERSION): the next load
    brings the new worker, and the one after shows the new page."""
    with open(os.path.join(folder, "index.html"), encoding="utf-8") as f:
        page = f.read()
    title = "Chariot (a new build)"
    with open(os.path.join(folder, "index.html"), "w", encoding="utf-8") as f:
        f.write(re.sub(r"<title>[^<]*</title>", f"<title>{title}</title>", page))
    with open(os.path.join(folder, "sw.js"), encoding="utf-8") as f:
        worker = f.read()
    with open(os.path.join(folder, "sw.js"), "w", encoding="utf-8") as f:
        f.write(re.sub(r'^const VERSION = "([^"]+)";', r'const VERSION = "\1-new";', worker, flags=re.M))
    server = start(folder, port)
    try:
        t0 = time.monotonic()
        driver.refresh()
        ready(driver, "reload with the server back")
        new_cache = old_cache + "-new"
        WebDriverWait(driver, 120).until(
            lambda d: list(d.execute_async_script(CACHES)) == [new_cache])
        print(f"update: {time.monotonic() - t0:.2f} s to the new version's cache, the old one deleted")
        driver.refresh()
        ready(driver, "the new build")
        check(driver.title == title, f"the new build's page: {driver.title!r}")
    finally:
        stop(server)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--site", default="target/web")
    p.add_argument("--chromium", default="/usr/bin/chromium")
    p.add_argument("--chromedriver", default="/usr/bin/chromedriver")
    args = p.parse_args()
    if not os.path.exists(os.path.join(args.site, "sw.js")):
        raise SystemExit(f"no {args.site}/sw.js: run `bash scripts/web.sh` first")

    work = tempfile.TemporaryDirectory()
    folder = os.path.join(work.name, "site")
    shutil.copytree(args.site, folder)
    server = start(folder)
    port = server.server_address[1]
    url = f"http://127.0.0.1:{port}/"

    options = webdriver.ChromeOptions()
    options.binary_location = args.chromium
    for flag in FLAGS:
        options.add_argument(flag)
    profile = tempfile.TemporaryDirectory()
    options.add_argument(f"--user-data-dir={profile.name}")
    driver = webdriver.Chrome(service=Service(args.chromedriver), options=options)
    try:
        driver.set_script_timeout(180)
        online(driver, url)
        cache = kept(driver, folder)
        offline(driver, server)
        update(driver, folder, port, cache)
    finally:
        driver.quit()
        stop(server)


if __name__ == "__main__":
    main()
