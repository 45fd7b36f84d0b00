//! The page in a real browser: headless Chromium loads `target/web/` (built by
//! `bash scripts/web.sh`) from a local server and `web/test_page.py` checks, against the native
//! binary, that `window.chariot` answers `go depth 6` with the same nodes and move, answers bad
//! lines with the same words, that a move on the board is answered, that `stop` ends
//! `go infinite` within 200 ms and that `bench` has the same signature; it saves a screenshot
//! to `target/web-page.png`.
//!
//! It needs Debian's `chromium` and `chromium-driver` and Python with selenium
//! (`web/requirements-test.txt`); `.ci/run` installs them and runs it with `CHARIOT_WEB_PYTHON`
//! pointing at the virtual environment's python:
//!
//! ```text
//! bash scripts/web.sh
//! CHARIOT_WEB_PYTHON=target/web-venv/bin/python cargo test --release --test web -- --ignored
//! ```

use std::path::Path;
use std::process::Command;

#[test]
#[ignore = "needs chromium, chromium-driver and selenium: .ci/run installs them"]
fn page_in_chromium() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let site = root.join("target/web");
    assert!(
        site.join("chariot.wasm").exists(),
        "no target/web/chariot.wasm: run `bash scripts/web.sh` first"
    );
    let python = std::env::var("CHARIOT_WEB_PYTHON").unwrap_or_else(|_| "python3".into());
    let out = Command::new(&python)
        .arg(root.join("web/test_page.py"))
        .arg("--native")
        .arg(env!("CARGO_BIN_EXE_chariot"))
        .arg("--site")
        .arg(&site)
        .arg("--screenshot")
        .arg(root.join("target/web-page.png"))
        .env("SE_OFFLINE", "true")
        .output()
        .unwrap_or_else(|e| panic!("cannot run {python}: {e}"));
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    println!("{stdout}");
    assert!(
        out.status.success(),
        "web/test_page.py failed\n{stdout}\n{stderr}"
    );
}
