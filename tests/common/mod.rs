//! Helpers shared by the integration tests.
#![allow(dead_code)]

pub mod process;
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

/// A binary built for another platform: the path in the environment variable `var`, else
/// `default` under the crate's folder; panics, saying how to build it, if there is no file.
pub fn other_platform_binary(var: &str, default: &str, platform: &str) -> std::path::PathBuf {
    let path = std::env::var_os(var).map_or_else(
        || std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(default),
        std::path::PathBuf::from,
    );
    assert!(
        path.is_file(),
        "{} not found: `bash scripts/release.sh --profile ci {platform}` builds it, or name \
         another in {var}",
        path.display()
    );
    path
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
