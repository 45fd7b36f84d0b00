"""Renders the page's PNG icons (web/icons/*.png) from their SVG sources with headless Chromium.

The manifest offers PNGs beside the SVG because some systems install an app only from a PNG
(Android's launcher, iOS's apple-touch-icon). They are rendered by Chromium itself, so that
the PNG is what a browser draws from the SVG; the PNGs are committed and this script is run
again only when an SVG changes. Needs Debian's chromium and chromium-driver and selenium
(web/requirements-test.txt):

    python scripts/web_icons.py [--chromium /usr/bin/chromium] [--chromedriver /usr/bin/chromedriver]
"""

import argparse
import base64
import os
import tempfile

os.environ.setdefault("SE_OFFLINE", "true")  # never download a browser or a driver

from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402

ICONS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "web", "icons")
# (source, size in pixels, output)
RENDERS = [
    ("icon.svg", 192, "icon-192.png"),
    ("icon.svg", 512, "icon-512.png"),
    ("icon-maskable.svg", 192, "icon-maskable-192.png"),
    ("icon-maskable.svg", 512, "icon-maskable-512.png"),
]


def render(driver, svg, size):
    """The PNG bytes of `svg` drawn at `size`×`size` pixels on a transparent background."""
    data = base64.b64encode(svg.encode()).decode()
    metrics = {"width": size, "height": size, "deviceScaleFactor": 1, "mobile": False}
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)
    driver.get(
        "data:text/html,<style>body{margin:0}</style>"
        f'<img id="i" width="{size}" height="{size}" src="data:image/svg+xml;base64,{data}">'
    )
    driver.execute_async_script("const i = document.getElementById('i'); i.decode().then(arguments[0]);")
    driver.execute_cdp_cmd("Emulation.setDefaultBackgroundColorOverride", {"color": {"r": 0, "g": 0, "b": 0, "a": 0}})
    clip = {"x": 0, "y": 0, "width": size, "height": size, "scale": 1}
    shot = driver.execute_cdp_cmd("Page.captureScreenshot", {"format": "png", "clip": clip})
    return base64.b64decode(shot["data"])


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--chromium", default="/usr/bin/chromium")
    p.add_argument("--chromedriver", default="/usr/bin/chromedriver")
    args = p.parse_args()
    options = webdriver.ChromeOptions()
    options.binary_location = args.chromium
    for flag in ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars"]:
        options.add_argument(flag)
    profile = tempfile.TemporaryDirectory()
    options.add_argument(f"--user-data-dir={profile.name}")
    driver = webdriver.Chrome(service=Service(args.chromedriver), options=options)
    try:
        for source, size, output in RENDERS:
            with open(os.path.join(ICONS, source), encoding="utf-8") as f:
                png = render(driver, f.read(), size)
            with open(os.path.join(ICONS, output), "wb") as f:
                f.write(png)
            print(f"web/icons/{output}: {size}x{size}, {len(png)} bytes")
    finally:
        driver.quit()


if __name__ == "__main__":
    main()
