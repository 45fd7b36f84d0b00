//! The command line's exit statuses: one per kind of failure, the same for every subcommand
//! (docs/development.md, "Exit codes"): 2 for bad input, 3 for a missing file, 1 for any other
//! failure, each with one `error: …` line on stderr. Ctrl-C (130) is tested with `datagen` in
//! tests/nnue.rs.

use std::path::PathBuf;
use std::process::Command;

const FAILED: i32 = 1;
const BAD_INPUT: i32 = 2;
const MISSING_FILE: i32 = 3;

/// A path in the temporary folder that does not exist.
fn missing(name: &str) -> PathBuf {
    let p = std::env::temp_dir().join(format!("chariot-cli-{}-missing-{name}", std::process::id()));
    assert!(!p.exists());
    p
}

/// Runs `chariot ARGS`; returns the exit status and stderr.
fn run(args: &[&str]) -> (Option<i32>, String) {
    run_with(&[], args)
}

/// Runs `chariot ARGS` with the environment variables `env` set.
fn run_with(env: &[(&str, &str)], args: &[&str]) -> (Option<i32>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_chariot"))
        .envs(env.iter().copied())
        .args(args)
        .output()
        .expect("run chariot");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Asserts `chariot ARGS` exits `code` with one `error: …` line containing `needle`.
fn fails(args: &[&str], code: i32, needle: &str) {
    fails_with(&[], args, code, needle);
}

/// `fails`, with the environment variables `env` set.
fn fails_with(env: &[(&str, &str)], args: &[&str], code: i32, needle: &str) {
    let (status, stderr) = run_with(env, args);
    assert_eq!(status, Some(code), "{args:?}: {stderr}");
    let errors: Vec<&str> = stderr
        .lines()
        .filter(|l| l.starts_with("error: "))
        .collect();
    assert_eq!(errors.len(), 1, "{args:?}: {stderr}");
    assert!(errors[0].contains(needle), "{args:?}: {stderr}");
}

#[test]
fn bad_input_exits_2_in_every_subcommand() {
    fails(&["perft", "2", "bad fen"], BAD_INPUT, "invalid FEN");
    fails(&["judge", "h2e9"], BAD_INPUT, "h2e9");
    fails(
        &["judge", "--fen", "bad fen", "h2e2"],
        BAD_INPUT,
        "invalid FEN",
    );
    fails(
        &["path", "inline", "S.x/..G"],
        BAD_INPUT,
        "unknown character",
    );
    fails(&["match", "--dialect1", "xboard"], BAD_INPUT, "bad dialect");
    fails(&["match", "--tc", "fast"], BAD_INPUT, "fast");
    fails(&["spsa", "--tc", "fast"], BAD_INPUT, "fast");
    fails(&["spsa", "--param", "nope"], BAD_INPUT, "nope");
    fails(&["spsa", "--start", "rfp_margin=wide"], BAD_INPUT, "wide");
    fails(
        &["spsa", "--start", "rfp_margin=9999"],
        BAD_INPUT,
        "rfp_margin",
    );
    // Clap's own refusals of the words exit 2 as well.
    let (status, stderr) = run(&["perft", "--frobnicate"]);
    assert_eq!(status, Some(BAD_INPUT), "{stderr}");
}

#[test]
fn a_missing_file_exits_3_in_every_subcommand() {
    let file = missing("input");
    let f = file.to_str().expect("a UTF-8 path");
    let out = missing("output");
    let o = out.to_str().expect("a UTF-8 path");
    fails(&["tune", f], MISSING_FILE, f);
    fails(&["wdl-fit", f], MISSING_FILE, f);
    fails(&["judge", "--pgn", f], MISSING_FILE, f);
    fails(&["train", f, "-o", o], MISSING_FILE, f);
    fails(&["datagen", "--openings", f, "-o", o], MISSING_FILE, f);
    fails(&["match", "--openings", f], MISSING_FILE, f);
    fails(&["spsa", "--openings", f], MISSING_FILE, f);
    fails(
        &["path", "map", f, "from", "0", "0", "to", "1", "1"],
        MISSING_FILE,
        "cannot read",
    );
    fails(&["path", "scen", f], MISSING_FILE, "cannot read");
    fails(&["path", "stats", f], MISSING_FILE, "cannot read");
    fails(
        &["soak", "--evalfile", f, "--games", "0"],
        MISSING_FILE,
        "network file",
    );
    fails(
        &["bench", "1", "--eval-file", f],
        MISSING_FILE,
        "network file",
    );
    assert!(!out.exists(), "no output written");
}

#[test]
fn a_file_that_cannot_be_written_exits_1() {
    // The soak writes its second network to the temporary folder; one that does not exist
    // cannot take it.
    let tmp = missing("tmp");
    let t = tmp.to_str().expect("a UTF-8 path");
    fails_with(
        &[("TMPDIR", t)],
        &["soak", "--games", "0"],
        FAILED,
        "cannot write the network file",
    );
}

/// Runs `chariot ARGS` with its stdout a pipe already closed at the other end; returns the
/// exit status and stderr.
fn run_into_closed_pipe(args: &[&str]) -> (Option<i32>, String) {
    let (reader, writer) = std::io::pipe().expect("a pipe");
    drop(reader);
    let out = Command::new(env!("CARGO_BIN_EXE_chariot"))
        .args(args)
        .stdout(writer)
        .stderr(std::process::Stdio::piped())
        .output()
        .expect("run chariot");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn output_that_cannot_be_printed_exits_1() {
    let mates = concat!(env!("CARGO_MANIFEST_DIR"), "/positions/mates.epd");
    for args in [
        &["judge", "h2e2"][..],
        &["path", "inline", "S..#/.#../...G", "moves", "8"],
        &["mates", mates, "--nodes", "1000"],
        &["perft", "2"],
        &["bench", "1"],
    ] {
        let (status, stderr) = run_into_closed_pipe(args);
        assert_eq!(status, Some(FAILED), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        let errors: Vec<&str> = stderr
            .lines()
            .filter(|l| l.starts_with("error: "))
            .collect();
        assert_eq!(errors.len(), 1, "{args:?}: {stderr}");
    }
}

#[test]
fn the_path_usage_names_every_form() {
    let (status, stderr) = run(&["path"]);
    assert_eq!(status, Some(BAD_INPUT), "{stderr}");
    for form in [
        "path (map FILE",
        "path scen FILE.scen",
        "path stats FILE.map",
    ] {
        assert!(stderr.contains(form), "{form}: {stderr}");
    }
}

#[test]
fn bench_with_the_built_in_network_file_is_the_bench() {
    // `--eval-file` with the file the binary embeds: the same searches, the same signature.
    let bench = |extra: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_chariot"))
            .args(["bench", "5"])
            .args(extra)
            .output()
            .expect("run chariot");
        assert!(out.status.success(), "{extra:?}");
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        let last = text.lines().last().expect("a last line").to_string();
        last.split_whitespace()
            .next()
            .expect("a node count")
            .to_string()
    };
    let file = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/src/eval/nnue/nets/default.nnue"
    );
    let embedded = bench(&[]);
    assert_eq!(bench(&["--eval-file", file]), embedded);
    assert_ne!(
        bench(&["--classical"]),
        embedded,
        "another evaluation, another tree"
    );
    // A file that is not a network is bad input.
    let toml = concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml");
    fails(
        &["bench", "1", "--eval-file", toml],
        BAD_INPUT,
        "Cargo.toml",
    );
}
