//! Helpers shared by the integration tests.
#![allow(dead_code)]

pub mod reference;

/// One line of an EPD file: the FEN and its `;`-separated operations.
pub struct Epd {
    pub fen: String,
    pub ops: Vec<(String, String)>,
}

/// Parses `<fen> ;op value ;op value …` lines (blank lines and `#` comments skipped).
pub fn read_epd(text: &str) -> Vec<Epd> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            let mut parts = l.split(';');
            let fen = parts.next().unwrap_or("").trim().to_string();
            let ops = parts
                .map(|p| {
                    let p = p.trim();
                    let (k, v) = p.split_once(' ').unwrap_or((p, ""));
                    (k.to_string(), v.trim().to_string())
                })
                .collect();
            Epd { fen, ops }
        })
        .collect()
}

/// Node budget per position: the slowest mate of the file takes about a tenth of it.
pub const MATE_NODES: u64 = 12_000_000;

/// The limits of a mates.epd search: a mate for the side to move is searched as `go mate N`
/// (stop once a mate in at most N moves is proved), a mate against it to twice its distance in
/// plies plus eight; both within [`MATE_NODES`], so the mate must be proved by then and, by
/// the end, reported at its exact distance.
pub fn mate_limits(dm: i32) -> chariot::search::Limits {
    chariot::search::Limits {
        mate: (dm > 0).then_some(dm.unsigned_abs()),
        depth: (dm < 0).then_some(2 * dm.unsigned_abs() + 8),
        nodes: Some(MATE_NODES),
        ..Default::default()
    }
}

/// Search limits of a fixed depth.
pub fn depth(d: u32) -> chariot::search::Limits {
    chariot::search::Limits {
        depth: Some(d),
        ..Default::default()
    }
}

/// The README's search in an engine process: `go depth 6` after `h2e2 h9g7`. Returns the
/// nodes of the `info depth 6` line and the `bestmove` line; panics with what the process
/// printed if it gives no answer within `limit`.
pub fn readme_search(
    mut engine: std::process::Command,
    limit: std::time::Duration,
) -> (u64, String) {
    use std::io::{BufRead, Write};
    use std::process::Stdio;
    let mut child = engine
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {engine:?}: {e}"));
    let mut stdin = child.stdin.take().expect("piped stdin");
    let stdout = child.stdout.take().expect("piped stdout");
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in std::io::BufReader::new(stdout)
            .lines()
            .map_while(Result::ok)
        {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    writeln!(stdin, "position startpos moves h2e2 h9g7\ngo depth 6").expect("engine takes input");
    let deadline = std::time::Instant::now() + limit;
    let (mut nodes, mut seen) = (None, Vec::new());
    let best = loop {
        let left = deadline.saturating_duration_since(std::time::Instant::now());
        let Ok(line) = rx.recv_timeout(left) else {
            let _ = child.kill();
            panic!(
                "{engine:?} gave no bestmove within {limit:?}; it printed:\n{}",
                seen.join("\n")
            );
        };
        if line.starts_with("info depth 6 ") {
            let words: Vec<&str> = line.split_whitespace().collect();
            let at = words
                .iter()
                .position(|w| *w == "nodes")
                .expect("nodes on the info line");
            nodes = words[at + 1].parse().ok();
        }
        if line.starts_with("bestmove") {
            break line;
        }
        seen.push(line);
    };
    let _ = writeln!(stdin, "quit");
    let _ = child.wait();
    (nodes.expect("an info depth 6 line with its nodes"), best)
}

/// The network loops' equality test (the unit test of `src/eval/nnue/simd.rs`, which compiles
/// alone) built with `rustc --test` for `target` with `flags` and run by `runner` (an emulator
/// or a WebAssembly host): panics unless it ran and passed. The test itself asserts that the
/// build took the path expected of its target (NEON, simd128, …).
pub fn simd_loops_pass(target: &str, flags: &[&str], runner: &[&str]) {
    use std::process::Command;
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = root.join(format!("target/simd-loops-{target}"));
    let built = Command::new("rustc")
        .args(["--edition", "2021", "--test", "-O", "--target", target])
        .args(flags)
        .arg(root.join("src/eval/nnue/simd.rs"))
        .arg("-o")
        .arg(&out)
        .output()
        .expect("rustc runs");
    assert!(
        built.status.success(),
        "rustc --test src/eval/nnue/simd.rs for {target} failed (rustup target add {target}?):\n{}",
        String::from_utf8_lossy(&built.stderr)
    );
    let ran = Command::new(runner[0])
        .args(&runner[1..])
        .arg(&out)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", runner[0]));
    let text = String::from_utf8_lossy(&ran.stdout);
    assert!(
        ran.status.success() && text.contains("test result: ok. 1 passed"),
        "the loops' equality test for {target} failed:\n{text}{}",
        String::from_utf8_lossy(&ran.stderr)
    );
}
