//! The npm package `chariot-xiangqi` as a user gets it: `npm pack` of `target/web/` (assembled
//! by `bash scripts/web.sh`), installed from the tarball into an empty folder with no registry
//! (`npm install --offline`), then `tests/npm/check.mjs` imports it by name in Node and runs
//! it; this test compares what it saw with the native binary:
//!
//! - `go depth 6` from the README's position gives the native nodes and bestmove: isolated
//!   (the SIMD module, lines through shared memory), not isolated (the plain module, lines
//!   posted to the worker), two engines at once, and again after a `stop` replaced the worker
//!   (the position given to the new worker);
//! - lines posted before the engine is ready are answered;
//! - a list of bad lines is answered line for line as natively, in both modes;
//! - `stop` during `go infinite` answers in both modes (measured), not isolated with the best
//!   move reported so far; `isready` answers during the search; `ponderhit` and a new `go`
//!   during a search each give one bestmove;
//! - `terminate()` ends the worker (no more lines, and Node exits);
//! - a wrong `base` (a missing folder, an HTTP 404) rejects naming the URL;
//! - the rules-only module is less than half the network's size (no copy of it).
//!
//! It needs Node 20 and npm; `.ci/run` runs it after building the package:
//!
//! ```text
//! bash scripts/web.sh
//! cargo test --release --test npm -- --ignored
//! ```

mod common;

use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The native engine's output for `lines` (its input closed after them).
fn native(lines: &[String]) -> Vec<String> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_chariot"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the native binary runs");
    let mut input = child.stdin.take().unwrap();
    let text = lines.join("\n") + "\n";
    let writer = std::thread::spawn(move || input.write_all(text.as_bytes()));
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_string)
        .collect()
}

/// The lines every engine must answer as the native loop does. None starts a search: a search
/// stopped at once says what the clock allowed (`go depth x` warns, then searches without a
/// limit).
fn bad_lines() -> Vec<String> {
    let mut lines: Vec<String> = [
        "go depth 0",
        "position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN w",
        "position startpos moves h2e2 h2e2",
        "position startpos moves 炮二平五",
        "setoption name Hash value lots",
        "setoption name NoSuchOption value 1",
        "setoption name Skill Level value 99",
        "position fen",
        "frobnicate",
        "stop",
        "ponderhit",
        "banmoves zz",
        "probe fen bad",
        "bench 99",
        "ucci",
        "setoption Hash lots",
        "stop",
        "uci",
        "",
        "   ",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    lines.push("x".repeat(100));
    // Over the 1 MiB limit: refused whole ("line too long").
    lines.push(format!(
        "position startpos moves {}",
        "h2e2 ".repeat(500_000)
    ));
    lines
}

/// The sections of check.mjs's output: `== NAME` lines, each followed by its lines.
fn sections(text: &str) -> HashMap<String, Vec<String>> {
    let mut map: HashMap<String, Vec<String>> = HashMap::new();
    let mut name = String::new();
    for line in text.lines() {
        if let Some(n) = line.strip_prefix("== ") {
            name = n.to_string();
            map.entry(name.clone()).or_default();
        } else {
            map.entry(name.clone()).or_default().push(line.to_string());
        }
    }
    map
}

/// The nodes of the depth-6 report and the bestmove's move.
fn depth6(lines: &[String]) -> (u64, String) {
    let info = lines
        .iter()
        .rfind(|l| l.starts_with("info depth 6 "))
        .unwrap_or_else(|| panic!("no depth 6: {lines:?}"));
    let words: Vec<&str> = info.split_whitespace().collect();
    let at = words.iter().position(|w| *w == "nodes").unwrap();
    let best = lines
        .iter()
        .rfind(|l| l.starts_with("bestmove"))
        .unwrap_or_else(|| panic!("no bestmove: {lines:?}"));
    (
        words[at + 1].parse().unwrap(),
        best.split_whitespace().nth(1).unwrap().to_string(),
    )
}

/// Runs `program args` in `dir`; its stdout, or a panic with its stderr.
fn run(program: &str, args: &[&str], dir: &Path) -> String {
    let out = Command::new(program)
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {program}: {e}"));
    assert!(
        out.status.success(),
        "{program} {args:?} failed ({}):\n{}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Packs `target/web/`, installs the tarball into an empty folder, runs check.mjs there.
fn run_check(site: &Path, work: &Path) -> String {
    let packed = run(
        "npm",
        &["pack", "--pack-destination", work.to_str().unwrap()],
        site,
    );
    let tarball = work.join(packed.lines().last().expect("npm pack names its tarball"));
    let size = std::fs::metadata(&tarball).map(|m| m.len()).unwrap_or(0);
    println!("{}: {size} bytes", tarball.display());
    let app = work.join("app");
    std::fs::create_dir_all(&app).unwrap();
    std::fs::write(
        app.join("package.json"),
        "{\"name\":\"npm-check\",\"private\":true,\"type\":\"module\"}\n",
    )
    .unwrap();
    let install = ["install", "--offline", "--no-audit", "--no-fund"];
    run(
        "npm",
        &[&install[..], &[tarball.to_str().unwrap()]].concat(),
        &app,
    );
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    std::fs::copy(root.join("tests/npm/check.mjs"), app.join("check.mjs")).unwrap();
    let bad = bad_lines().join("\n") + "\n";
    std::fs::write(app.join("bad.txt"), bad).unwrap();
    run("node", &["check.mjs", "bad.txt"], &app)
}

/// A `stop` record of check.mjs (`isready_ms stop_ms again_ms pv bestmove …`): the
/// milliseconds of `isready` and `stop`, the move of the pv before `stop`, the bestmove's.
fn stops(lines: &[String]) -> Vec<(f64, f64, String, String)> {
    lines
        .iter()
        .map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            assert_eq!(w.get(4), Some(&"bestmove"), "{l}");
            let ms = |i: usize| w[i].parse::<f64>().unwrap();
            (ms(0), ms(1), w[3].to_string(), w[5].to_string())
        })
        .collect()
}

#[test]
#[ignore = "needs node, npm and the built package (bash scripts/web.sh): .ci/run runs it"]
fn packed_package_in_node() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let site = root.join("target/web");
    for file in [
        "package.json",
        "chariot.js",
        "chariot.wasm",
        "chariot-simd.wasm",
        "chariot-rules.wasm",
    ] {
        assert!(
            site.join(file).exists(),
            "no target/web/{file}: run `bash scripts/web.sh` first"
        );
    }
    // `rules` needs no second copy of the network: the rules module leaves it out.
    let size = |path: PathBuf| std::fs::metadata(path).unwrap().len();
    let (rules, net) = (
        size(site.join("chariot-rules.wasm")),
        size(root.join("src/eval/nnue/nets/default.nnue")),
    );
    assert!(rules < net / 2, "chariot-rules.wasm has {rules} bytes");
    let work: PathBuf = std::env::temp_dir().join(format!("chariot-npm-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&work);
    std::fs::create_dir_all(&work).unwrap();
    let out = run_check(&site, &work);
    let _ = std::fs::remove_dir_all(&work);
    println!("{out}");
    let s = sections(&out);
    let get = |name: &str| {
        s.get(name)
            .unwrap_or_else(|| panic!("no section {name}:\n{out}"))
    };

    // Lines posted before ready are answered.
    let queued = get("queued");
    assert_eq!(queued[0], "ready false", "posted before ready");
    assert!(queued.contains(&"uciok".to_string()) && queued.last().unwrap() == "readyok");
    assert_eq!(get("mode"), &["isolated true simd true"]);
    assert_eq!(get("other mode"), &["isolated false simd false"]);

    // The native depth-6 answer, in every mode.
    let want = depth6(&native(&[
        "position startpos moves h2e2 h9g7".into(),
        "go depth 6".into(),
    ]));
    for name in [
        "depth6 ring",
        "depth6 message",
        "depth6 ring again",
        "depth6 after stop",
    ] {
        assert_eq!(depth6(get(name)), want, "{name}");
    }

    // Bad lines, line for line.
    let mut lines = bad_lines();
    lines.push("isready".into());
    let mut want = native(&lines);
    // Up to the answer to `isready` (then the end of input: UCCI's `bye`).
    let end = want.iter().position(|l| l == "readyok").expect("readyok");
    want.truncate(end + 1);
    assert_eq!(get("bad ring"), &want, "bad lines, isolated");
    assert_eq!(get("bad message"), &want, "bad lines, not isolated");

    // stop: legal moves; not isolated, the best move reported before it.
    let rules = &get("rules");
    assert!(rules[0].starts_with("{\"ok\":true,") && rules[0].contains("\"turn\":\"w\""));
    assert!(rules[1].starts_with("{\"ok\":false,"), "{}", rules[1]);
    for (ready, ms, _, best) in stops(get("stop ring")) {
        assert!(
            ms < 200.0 && ready < 200.0,
            "stop took {ms} ms, isready {ready} ms"
        );
        assert!(
            rules[0].contains(&format!("\"{best}\"")),
            "{best} not legal"
        );
    }
    for (ready, ms, pv, best) in stops(get("stop message")) {
        assert!(
            ms < 200.0 && ready < 200.0,
            "stop took {ms} ms, isready {ready} ms"
        );
        assert_eq!(pv, best, "the best move reported so far");
    }

    // ponderhit and a superseding go: one bestmove each, legal.
    let ponder = get("ponderhit");
    let best = best_move(ponder);
    assert!(
        get("legal")[0].split(' ').any(|m| m == best),
        "{best} after ponderhit"
    );
    let superseded = get("superseded");
    assert_eq!(
        superseded
            .iter()
            .filter(|l| l.starts_with("bestmove"))
            .count(),
        2
    );
    assert_eq!(get("lines after terminate"), &["0"]);

    // A wrong base names the URL.
    let wrong = get("wrong base");
    assert!(
        wrong[0].starts_with("chariot: cannot load file:///nonexistent/chariot/chariot-"),
        "{}",
        wrong[0]
    );
    assert!(
        wrong[1].starts_with("chariot: cannot load http://127.0.0.1:")
            && wrong[1].contains("/nowhere/chariot-")
            && wrong[1].contains(": 404"),
        "{}",
        wrong[1]
    );
}

/// The move of the last bestmove line.
fn best_move(lines: &[String]) -> String {
    let best = lines
        .iter()
        .rfind(|l| l.starts_with("bestmove"))
        .unwrap_or_else(|| panic!("no bestmove: {lines:?}"));
    best.split_whitespace().nth(1).unwrap().to_string()
}

#[test]
#[ignore = "needs node and the WebAssembly WASI standard library (rustup target add wasm32-wasip1)"]
fn simd128_loops_give_the_portable_integers() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let runner = root.join("scripts/wasi_run.mjs");
    common::simd_loops_pass(
        "wasm32-wasip1",
        &["-C", "target-feature=+simd128"],
        &["node", runner.to_str().expect("a UTF-8 path")],
    );
}
