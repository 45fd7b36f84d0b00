"""Side by side: `bench` in two builds of the page (two folders such as target/web and an older
build's), loaded in turn in headless Chromium, served with the isolation headers. Prints each
run and the medians, and the page's load: the bytes it fetched and the time from navigation to
its engine ready.

    python web/compare_pages.py OLD_FOLDER NEW_FOLDER [--rounds 5]
"""

import argparse
import os
import statistics
import sys
import tempfile
import threading

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import serve  # noqa: E402

os.environ.setdefault("SE_OFFLINE", "true")

from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402

BENCH = """
const done = arguments[0];
window.chariotReady.then(() => {
  const listen = (line) => {
    if (/^\\d+ nodes \\d+ nps$/.test(line)) { window.chariot.removeMessageListener(listen); done(line); }
  };
  window.chariot.addMessageListener(listen);
  window.chariot.postMessage("bench");
});
"""

# Time from navigation to the engine ready, and the bytes the page fetched (from the network).
LOAD = """
const done = arguments[0];
window.chariotReady.then(() => {
  const ready = performance.now();
  const entries = performance.getEntriesByType("resource").concat(performance.getEntriesByType("navigation"));
  done([ready, entries.reduce((n, e) => n + (e.encodedBodySize || 0), 0), entries.length]);
});
"""


def main():
    a = argparse.ArgumentParser()
    a.add_argument("old")
    a.add_argument("new")
    a.add_argument("--rounds", type=int, default=5)
    args = a.parse_args()
    servers = {name: serve.serve(folder, 0) for name, folder in (("old", args.old), ("new", args.new))}
    for s in servers.values():
        threading.Thread(target=s.serve_forever, daemon=True).start()
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for flag in serve.CHROMIUM_FLAGS + ["--window-size=1280,900"]:
        options.add_argument(flag)
    profile = tempfile.TemporaryDirectory()
    options.add_argument(f"--user-data-dir={profile.name}")
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    driver.set_script_timeout(300)
    nps = {"old": [], "new": []}
    try:
        for r in range(args.rounds):
            for name, s in servers.items():
                driver.execute_cdp_cmd("Network.enable", {})
                driver.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": True})
                driver.execute_cdp_cmd("Network.setBypassServiceWorker", {"bypass": True})
                driver.get(f"http://127.0.0.1:{s.server_address[1]}/index.html?round={r}")
                ready, size, count = driver.execute_async_script(LOAD)
                line = driver.execute_async_script(BENCH)
                nps[name].append(int(line.split()[2]))
                print(f"{name} round {r}: {line}; ready {ready:.0f} ms after navigation, {size:,} bytes in {count} files")
        for name, v in nps.items():
            print(f"{name}: median {statistics.median(v):,.0f} nodes/s over {len(v)} runs")
        print(f"new/old: {statistics.median(nps['new']) / statistics.median(nps['old']):.3f}")
    finally:
        driver.quit()
        for s in servers.values():
            s.shutdown()


if __name__ == "__main__":
    main()
