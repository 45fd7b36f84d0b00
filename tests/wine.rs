//! The Windows build under Wine: `chariot.exe` speaks both dialects to lines ending in CRLF (as
//! Windows GUIs send them), searches exactly as the Linux binary does, answers `stop` at once,
//! refuses a bad network the same way, plays a whole refereed game against the Linux binary,
//! and runs the match runner itself (child processes, Windows paths).
//!
//! Every test needs `wine` and the Windows build, so all are ignored by default. CI runs them:
//!
//! ```text
//! bash scripts/release.sh --profile ci windows-x86_64
//! cargo test --release --test wine -- --ignored
//! ```
//!
//! `CHARIOT_WINDOWS_EXE` names another `chariot.exe`. Wine runs in its own prefix,
//! `target/wine` (made on first use, in a few seconds), never in the home folder.
//! Rust's standard library imports `ProcessPrng` from `bcryptprimitives.dll`, which Windows has
//! since 10 but Wine 8 (Debian 12's) lacks: when the prefix has no such DLL, a stand-in built
//! from `tests/wine/bcryptprimitives.c` with MinGW is put into the prefix (docs/windows.md).

mod common;

use chariot::board::rules::Outcome;
use chariot::board::Color;
use chariot::tools::matches::Setup;
use chariot::tools::pgn;
use common::process::{field, Engine};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::Duration;

/// The tests' folder for their files, `target/wine-tests/`.
fn test_dir() -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/wine-tests");
    std::fs::create_dir_all(&dir).expect("test folder");
    dir
}

/// The Windows executable under test.
fn exe() -> PathBuf {
    common::other_platform_binary(
        "CHARIOT_WINDOWS_EXE",
        "target/x86_64-pc-windows-gnu/ci/chariot.exe",
        "windows-x86_64",
    )
}

/// The Wine prefix of these tests, made (once) on first use.
fn prefix() -> &'static Path {
    static PREFIX: OnceLock<PathBuf> = OnceLock::new();
    PREFIX.get_or_init(|| {
        let prefix = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/wine");
        std::fs::create_dir_all(&prefix).expect("make the Wine prefix folder");
        if !prefix.join("system.reg").is_file() {
            let boot = || {
                wine_env(Command::new("wineboot"), &prefix)
                    .arg("--init")
                    .stdout(Stdio::null())
                    .stderr(Stdio::null())
                    .status()
                    .expect("run wineboot: is wine installed?")
            };
            // `wineboot --init` has been seen, once in a fresh clone, to exit with 53 and
            // leave a prefix that served every test once run again: a failure is tried once
            // more, after the prefix's server has stopped, so only one that repeats fails.
            let mut status = boot();
            if !status.success() {
                let _ = wine_env(Command::new("wineserver"), &prefix)
                    .arg("-k")
                    .status();
                let _ = wine_env(Command::new("wineserver"), &prefix)
                    .arg("-w")
                    .status();
                status = boot();
            }
            assert!(status.success(), "wineboot --init failed twice: {status}");
        }
        let dll = prefix.join("drive_c/windows/system32/bcryptprimitives.dll");
        if !dll.is_file() {
            let source =
                Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/wine/bcryptprimitives.c");
            let status = Command::new("x86_64-w64-mingw32-gcc")
                .args(["-shared", "-O2", "-s", "-o"])
                .arg(&dll)
                .arg(&source)
                .arg("-ladvapi32")
                .status()
                .expect("run x86_64-w64-mingw32-gcc for the bcryptprimitives stand-in");
            assert!(status.success(), "building {} failed", dll.display());
        }
        prefix
    })
}

/// `command` with the prefix's environment: quiet Wine, its own prefix, and no offer to
/// download Wine's .NET and HTML engines into a new prefix (the engine needs neither; a fresh
/// machine would otherwise wait on the offer).
fn wine_env(mut command: Command, prefix: &Path) -> Command {
    command
        .env("WINEPREFIX", prefix)
        .env("WINEDEBUG", "-all")
        .env("WINEDLLOVERRIDES", "mscoree,mshtml=");
    command
}

/// `wine chariot.exe args…`.
fn windows(args: &[&str]) -> Command {
    let mut command = wine_env(Command::new("wine"), prefix());
    command.arg(exe()).args(args);
    command
}

/// The Linux binary.
fn native(args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_chariot"));
    command.args(args);
    command
}

/// An engine process, fed lines that end in CRLF as Windows GUIs send them.
fn engine(command: Command) -> Engine {
    Engine::start(command).crlf()
}

/// The answer to the handshake `hello`; then `isready` must get `readyok` and `quit` must end
/// the process.
fn handshake(command: Command, hello: &str, ok: &str) -> Vec<String> {
    let mut e = engine(command);
    e.send(hello);
    let answer = e.until(30.0, |l| l == ok);
    e.ready();
    e.send("quit");
    assert!(e.exits_within(5.0), "no exit after quit ({hello})");
    answer
}

#[test]
#[ignore = "needs wine and the Windows build: .ci/run builds it (docs/windows.md)"]
fn both_handshakes_answer_crlf_lines_as_on_linux() {
    let uci = handshake(windows(&[]), "uci", "uciok");
    assert!(uci[0].starts_with("id name Chariot"), "{uci:?}");
    assert!(
        uci.iter().any(|l| l.starts_with("option name Hash")),
        "{uci:?}"
    );
    assert_eq!(uci, handshake(native(&[]), "uci", "uciok"));
    let ucci = handshake(windows(&[]), "ucci", "ucciok");
    assert!(ucci[0].starts_with("id name Chariot"), "{ucci:?}");
    assert_eq!(ucci, handshake(native(&[]), "ucci", "ucciok"));
    assert!(uci.iter().all(|l| !l.contains('\r')), "{uci:?}");

    // An option's value and a `go` with a CRLF ending: two principal variations, to depth 3.
    let mut e = engine(windows(&[]));
    e.send("uci");
    e.until(30.0, |l| l == "uciok");
    e.send("setoption name MultiPV value 2");
    e.send("position startpos moves h2e2");
    e.send("go depth 3");
    let out = e.bestmove();
    let last_depth: Vec<&String> = out
        .iter()
        .filter(|l| field(l, "depth") == Some("3"))
        .collect();
    assert_eq!(last_depth.len(), 2, "{out:?}");
    assert_eq!(field(last_depth[1], "multipv"), Some("2"), "{out:?}");
}

#[test]
#[ignore = "needs wine and the Windows build: .ci/run builds it (docs/windows.md)"]
fn depth_six_searches_the_same_nodes_as_linux() {
    let windows = engine(windows(&[])).readme_search(60.0);
    assert_eq!(windows, engine(native(&[])).readme_search(60.0));
}

/// `bench`'s signature (its nodes) and speed (nodes per second).
fn bench(command: &mut Command) -> (u64, u64) {
    let out = command.arg("bench").output().expect("run bench");
    assert!(out.status.success(), "bench failed: {out:?}");
    let text = String::from_utf8_lossy(&out.stdout);
    let last = text.lines().last().unwrap_or_default();
    let words: Vec<&str> = last.split_whitespace().collect();
    match words[..] {
        [nodes, "nodes", nps, "nps"] => (
            nodes.parse().expect("nodes"),
            nps.parse().expect("nodes per second"),
        ),
        _ => panic!("last line of bench: {last:?}"),
    }
}

#[test]
#[ignore = "needs wine and the Windows build: .ci/run builds it (docs/windows.md)"]
fn bench_gives_the_signature() {
    let expected: u64 = include_str!("bench_signature.txt")
        .trim()
        .parse()
        .expect("signature file holds a number");
    let (nodes, nps) = bench(&mut windows(&[]));
    assert_eq!(nodes, expected);
    // For the log only: beside the other tests the speed says little (docs/windows.md has the
    // measurement against native).
    eprintln!("bench: {nps} nps under Wine");
}

#[test]
#[ignore = "needs wine and the Windows build: .ci/run builds it (docs/windows.md)"]
fn stop_answers_within_100_ms_and_quit_exits() {
    let mut e = engine(windows(&[]));
    e.send("uci");
    e.until(30.0, |l| l == "uciok");
    let mut latencies = Vec::new();
    for _ in 0..3 {
        e.send("position startpos moves h2e2 h9g7");
        let started = e.send("go infinite");
        // Depth 8, or half a second, whichever comes first.
        let deadline = started + Duration::from_millis(500);
        while let Some(l) = e.line_before(deadline) {
            if field(&l, "depth").and_then(|d| d.parse::<u32>().ok()) >= Some(8) {
                break;
            }
        }
        let sent = e.send("stop");
        let out = e.until_timed(5.0, |l| l.starts_with("bestmove"));
        let (_, answered) = out.last().expect("bestmove");
        latencies.push(answered.duration_since(sent).as_secs_f64() * 1000.0);
        e.ready();
    }
    eprintln!("stop answered after {latencies:.1?} ms under Wine");
    assert!(
        latencies.iter().all(|&ms| ms < 100.0),
        "stop took {latencies:.1?} ms"
    );
    e.send("quit");
    assert!(e.exits_within(5.0), "no exit after quit");
}

/// The `info string` lines a truncated and a corrupt `EvalFile` get, with the engine's move
/// after them (run in `dir`, which holds the files).
fn bad_network(mut command: Command, dir: &Path) -> Vec<String> {
    command.current_dir(dir);
    let mut e = engine(command);
    e.send("uci");
    e.until(30.0, |l| l == "uciok");
    let mut out = Vec::new();
    for file in ["truncated.nnue", "corrupt.nnue"] {
        e.send(&format!("setoption name EvalFile value {file}"));
        out.extend(e.until(30.0, |l| l.starts_with("info string")));
    }
    e.ready();
    e.send("position startpos");
    e.send("go depth 4");
    let searched = e.bestmove();
    out.push(searched.last().expect("bestmove").clone());
    out
}

#[test]
#[ignore = "needs wine and the Windows build: .ci/run builds it (docs/windows.md)"]
fn a_bad_network_gets_the_linux_error_line() {
    let dir = test_dir();
    // The built-in network cut short: the right start, the rest missing.
    let bytes = chariot::eval::nnue::EMBEDDED;
    std::fs::write(dir.join("truncated.nnue"), &bytes[..bytes.len() / 3]).expect("write");
    // The same length, every byte changed.
    let corrupt: Vec<u8> = bytes.iter().map(|b| b ^ 0x5a).collect();
    std::fs::write(dir.join("corrupt.nnue"), corrupt).expect("write");
    let on_windows = bad_network(windows(&[]), &dir);
    assert_eq!(on_windows.len(), 3, "{on_windows:?}");
    assert!(
        on_windows[0].contains("EvalFile truncated.nnue: "),
        "{on_windows:?}"
    );
    assert!(
        on_windows[1].contains("EvalFile corrupt.nnue: "),
        "{on_windows:?}"
    );
    assert!(on_windows[2].starts_with("bestmove "), "{on_windows:?}");
    assert_eq!(on_windows, bad_network(native(&[]), &dir));
}

/// The games of a PGN file, each checked: a result that the referee, replaying the moves,
/// agrees with, so the game ended by the rules (checkmate, repetition, the 60-move rule, the
/// length cap), never by an engine's crash, hang, timeout or illegal move.
fn check_games(path: &Path, expected: usize) -> Vec<String> {
    let text = std::fs::read_to_string(path).expect("PGN written");
    let games = pgn::read(&text).expect("PGN parses");
    assert_eq!(games.len(), expected, "{text}");
    games
        .iter()
        .map(|g| {
            let outcome = g.game.outcome(Setup::MAXPLIES);
            let refereed = match outcome {
                Some(Outcome::Win(Color::Red, _)) => "1-0",
                Some(Outcome::Win(Color::Black, _)) => "0-1",
                Some(Outcome::Draw(_)) => "1/2-1/2",
                None => panic!("game not over on replay: {:?}\n{text}", g.tags),
            };
            assert_eq!(g.result, refereed, "{:?}", g.tags);
            let why = g.tag("Termination").unwrap_or_default();
            format!("{} ({why}, {} plies)", g.result, g.game.moves().len())
        })
        .collect()
}

/// `target/wine-tests/NAME`, not there yet: where a match writes its games.
fn fresh_pgn(name: &str) -> PathBuf {
    let pgn = test_dir().join(name);
    let _ = std::fs::remove_file(&pgn);
    pgn
}

#[test]
#[ignore = "needs wine and the Windows build: .ci/run builds it (docs/windows.md)"]
fn a_whole_game_against_the_linux_binary() {
    let pgn = fresh_pgn("linux-windows.pgn");
    let windows_engine = format!("wine '{}'", exe().display());
    let out = wine_env(native(&["match"]), prefix())
        .args([
            "--engine2",
            &windows_engine,
            "--name1",
            "linux",
            "--name2",
            "windows",
        ])
        .args(["--games", "2", "--nodes", "3000", "--handshake", "30000"])
        .arg("--pgn")
        .arg(&pgn)
        .output()
        .expect("run chariot match");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(
        stdout.starts_with("Score of linux vs windows: "),
        "{stdout}"
    );
    let games = check_games(&pgn, 2);
    eprintln!("Linux against Windows: {games:?}\n{stdout}");
}

#[test]
#[ignore = "needs wine and the Windows build: .ci/run builds it (docs/windows.md)"]
fn the_match_runner_runs_on_windows() {
    // The match runner inside Wine: it starts Windows child processes, from a path with
    // backslashes (engine 1) and from its own path (engine 2, the default), and ends them.
    let pgn = fresh_pgn("windows-windows.pgn");
    let out = windows(&["match", "--engine1", &windows_path(&exe())])
        .args(["--games", "2", "--depth", "3", "--handshake", "30000"])
        .args(["--pgn", &windows_path(&pgn)])
        .output()
        .expect("run chariot.exe match");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(stdout.starts_with("Score of "), "{stdout}");
    let games = check_games(&pgn, 2);
    eprintln!("Windows against Windows: {games:?}\n{stdout}");
}

/// `path` as Windows programs under Wine name it: drive Z: is the root of the Unix file system.
fn windows_path(path: &Path) -> String {
    let absolute = std::path::absolute(path).expect("absolute path");
    format!("Z:{}", absolute.display()).replace('/', "\\")
}

#[test]
#[ignore = "needs wine and the Windows build: .ci/run builds it (docs/windows.md)"]
fn the_soak_runs_on_windows() {
    // The soak inside Wine drives Windows processes of itself: option changes in mid-search,
    // `EvalFile` from Windows' temporary folder, restarts with `quit`, and the working set read
    // through GetProcessMemoryInfo. Wine's own DLLs add some 8 MiB to a working set (against
    // Linux's VmRSS): hence a slack of 60 MiB instead of 40 (docs/windows.md).
    let out = windows(&["soak", "--games", "4", "--seed", "38", "--quiet"])
        .args(["--tc", "0.3+0.003", "--maxplies", "60", "--margin", "2000"])
        .args(["--ready-timeout", "10000", "--toggle-rate", "0.5"])
        .args(["--restart-rate", "0.3", "--memory-slack", "60"])
        .output()
        .expect("run chariot.exe soak");
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{report}");
    assert!(report.contains("\nfaults: 0"), "{report}");
    let checks: u64 = report
        .lines()
        .find_map(|l| {
            l.strip_prefix("memory: ")?
                .split_once(" checks, working set")?
                .0
                .parse()
                .ok()
        })
        .unwrap_or_else(|| panic!("no working-set readings: {report}"));
    assert!(checks >= 8, "{report}");
    eprintln!("{report}");
}
