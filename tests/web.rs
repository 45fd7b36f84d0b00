//! The page in a real browser: headless Chromium loads `target/web/` (built by
//! `bash scripts/web.sh`) from a local server, driven by selenium from a Python script per
//! test (docs/web.md, "The tests"):
//!
//! - `page_in_chromium` (`web/test_page.py`): against the native binary, the page's engine
//!   (`window.chariot`) answers `go depth 6` with the same nodes and move and bad lines with
//!   the same words, a move on the board is answered, `stop` ends `go infinite` within 200 ms
//!   and `bench` has the same signature; then the same page served without the cross-origin
//!   isolation headers.
//! - `play_in_chromium` (`web/test_play.py`): the page as a player uses it, at 1280×900 and
//!   390×844: the first page's six defects, notation, drag and drop, clocks and a flag fall,
//!   analysis, records in every format, the language, and one timed game reviewed, stepped
//!   through and downloaded in Chinese notation.
//! - `pieces_in_chromium` (`web/test_pieces.py`): the board (`web/board.js`) with a fontconfig
//!   that has no CJK font, so that it holds on any machine: the 14 piece faces, in either
//!   style, render as different images (the page's subset font); clicks, drags with a mouse
//!   and a finger, coordinates and the board's marks.
//! - `page_offline_in_chromium` (`web/test_offline.py`): the manifest is valid and the page
//!   installable, the service worker controls it, and with the server gone a reload still
//!   plays, cross-origin isolated.
//!
//! They need Debian's `chromium` and `chromium-driver` and Python with selenium and fontTools
//! (`web/requirements-test.txt`); `.ci/run` installs them and runs them with
//! `CHARIOT_WEB_PYTHON` pointing at the virtual environment's python:
//!
//! ```text
//! bash scripts/web.sh
//! CHARIOT_WEB_PYTHON=target/web-venv/bin/python cargo test --release --test web -- --ignored
//! ```
//!
//! `review_export_in_node` needs only Node and the built module: it calls the module's
//! `review` export as the worker does (`cargo test --test web -- --ignored review_export`).

use std::path::Path;
use std::process::Command;

/// Runs `web/SCRIPT` with `args` on the built page (`target/web/`, which must hold `needs`);
/// fails with its output if it fails.
fn browser_test(script: &str, needs: &str, args: &[&std::ffi::OsStr]) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let site = root.join("target/web");
    assert!(
        site.join(needs).exists(),
        "no target/web/{needs}: run `bash scripts/web.sh` first"
    );
    let python = std::env::var("CHARIOT_WEB_PYTHON").unwrap_or_else(|_| "python3".into());
    let out = Command::new(&python)
        .arg(root.join("web").join(script))
        .arg("--site")
        .arg(&site)
        .args(args)
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
        "web/{script} failed\n{stdout}\n{stderr}"
    );
}

/// A path under the repository, as an argument.
fn at(path: &str) -> std::ffi::OsString {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(path)
        .into_os_string()
}

#[test]
#[ignore = "needs chromium, chromium-driver and selenium: .ci/run installs them"]
fn page_in_chromium() {
    let native = std::ffi::OsStr::new(env!("CARGO_BIN_EXE_chariot"));
    let shot = at("target/web-page.png");
    browser_test(
        "test_page.py",
        "chariot.wasm",
        &["--native".as_ref(), native, "--screenshot".as_ref(), &shot],
    );
}

#[test]
#[ignore = "needs chromium, chromium-driver and selenium: .ci/run installs them"]
fn play_in_chromium() {
    let shots = at("target/web-shots");
    std::fs::create_dir_all(&shots).unwrap();
    browser_test("test_play.py", "page.js", &["--shots".as_ref(), &shots]);
}

#[test]
#[ignore = "needs chromium, chromium-driver, selenium and fontTools: .ci/run installs them"]
fn pieces_in_chromium() {
    let shots = at("target/web-pieces");
    browser_test(
        "test_pieces.py",
        "board.js",
        &["--screenshots".as_ref(), &shots],
    );
}

#[test]
#[ignore = "needs chromium, chromium-driver and selenium: .ci/run installs them"]
fn page_offline_in_chromium() {
    browser_test("test_offline.py", "sw.js", &[]);
}

/// Runs the module's `review` export in Node on `request`; the JSON answer.
fn review_in_node(wasm: &Path, request: &[u8]) -> String {
    const SCRIPT: &str = r#"
const fs = require("fs");
const [wasm, requestFile] = process.argv.slice(1);
const compiled = new WebAssembly.Module(fs.readFileSync(wasm));
const imports = {};
for (const imp of WebAssembly.Module.imports(compiled)) {
  if (imp.kind !== "function") continue;
  imports[imp.module] = imports[imp.module] || {};
  imports[imp.module][imp.name] = imp.name === "now_ms" ? () => performance.now() : () => 0;
}
const ex = new WebAssembly.Instance(compiled, imports).exports;
const data = fs.readFileSync(requestFile);
let ptr = ex.exchange(data.length);
new Uint8Array(ex.memory.buffer, ptr, data.length).set(data);
const len = ex.review(data.length);
ptr = ex.exchange(len);
process.stdout.write(new TextDecoder().decode(new Uint8Array(ex.memory.buffer, ptr, len).slice()));
"#;
    let file = std::env::temp_dir().join(format!("chariot-web-review-{}.txt", std::process::id()));
    std::fs::write(&file, request).unwrap();
    let out = Command::new("node")
        .args(["--input-type=commonjs", "-e", SCRIPT])
        .arg(wasm)
        .arg(&file)
        .output()
        .unwrap_or_else(|e| panic!("cannot run node: {e}"));
    let _ = std::fs::remove_file(&file);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// The module's `review` in Node (no browser): a game with a chariot given for a cannon is
/// reviewed move by move, and a bad record is refused with its ply.
#[test]
#[ignore = "needs node and target/web/chariot.wasm (`bash scripts/web.sh`)"]
fn review_export_in_node() {
    let wasm = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/web/chariot.wasm");
    assert!(
        wasm.exists(),
        "no target/web/chariot.wasm: run `bash scripts/web.sh` first"
    );
    let game = "1. h2e2 h9g7 2. h0g2 i9h9 3. i0h0 b9c7 4. h0h7 h9h7 5. b0c2 a9b9 0-1\n";
    let answer = review_in_node(
        &wasm,
        format!("nodes 2000\nnotation iccs\n\n{game}").as_bytes(),
    );
    assert!(
        answer.starts_with("{\"ok\":true,\"complete\":true,"),
        "{answer}"
    );
    assert_eq!(answer.matches("{\"ply\":").count(), 10, "{answer}");
    let hung = answer
        .split("{\"ply\":")
        .find(|m| m.starts_with("7,\"move\":\"h0h7\""))
        .unwrap_or_else(|| panic!("no ply 7: {answer}"));
    assert!(
        hung.contains("\"judgement\":\"blunder\"") || hung.contains("\"judgement\":\"mistake\""),
        "{hung}"
    );
    assert!(answer.contains("[Annotator \\\"Chariot "), "{answer}");
    assert!(answer.contains("[%eval "), "{answer}");
    let bad = review_in_node(&wasm, b"\n1. h2e2 h9g7 2. h2h9 *\n");
    assert_eq!(
        bad,
        "{\"ok\":false,\"error\":\"game 1, ply 3: illegal move h2h9\"}"
    );
    let unknown = review_in_node(&wasm, b"depth 3\n\n1. h2e2 *\n");
    assert!(unknown.contains("unknown option: depth"), "{unknown}");
}
