//! The page in a real browser: headless Chromium loads `target/web/` (built by
//! `bash scripts/web.sh`) from a local server and `web/test_page.py` checks, against the native
//! binary, that the page's engine (the npm package's, `window.chariot`) answers `go depth 6`
//! with the same nodes and move, answers bad lines with the same words, that a move on the
//! board is answered, that `stop` ends `go infinite` within 200 ms and that `bench` has the
//! same signature; it saves a screenshot to `target/web-page.png`. It loads the page a second
//! time served without the cross-origin isolation headers: a move on the board is answered,
//! `stop` ends an analysis and `go infinite`, and depth 6 is as natively.
//!
//! It needs Debian's `chromium` and `chromium-driver` and Python with selenium
//! (`web/requirements-test.txt`); `.ci/run` installs them and runs it with `CHARIOT_WEB_PYTHON`
//! pointing at the virtual environment's python:
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
