//! `chariot annotate` as a user runs it: the built binary on record files in a temporary
//! folder, at a small node budget (a debug build searches slowly).

use chariot::record::{pgn, Record};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A game where Red's chariot takes a cannon defended by Black's chariot (4. h0h7, the 7th
/// ply): a chariot for a cannon.
const HUNG: &str = "[Event \"Test\"]\n[Red \"Alice\"]\n[Black \"Bob\"]\n[Result \"0-1\"]\n\n\
1. h2e2 h9g7 2. h0g2 i9h9 3. i0h0 b9c7 4. h0h7 h9h7 5. b0c2 a9b9 0-1\n";

/// A folder of its own for test `name`, empty.
fn folder(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("chariot-annotate-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn annotate(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_chariot"))
        .current_dir(dir)
        .arg("annotate")
        .args(["--nodes", "2000"])
        .args(args)
        .output()
        .unwrap()
}

fn games(path: &Path) -> Vec<Record> {
    let text = std::fs::read_to_string(path).unwrap();
    pgn::read(&text).into_iter().map(Result::unwrap).collect()
}

#[test]
fn every_move_gets_an_eval_and_the_hung_chariot_a_mark() {
    let dir = folder("hung");
    std::fs::write(dir.join("game.pgn"), HUNG).unwrap();
    let out = annotate(&dir, &["game.pgn", "-o", "out.pgn", "--notation", "iccs"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(out.stdout.is_empty());
    // The summary line: accuracy and counts of each side, and the time.
    assert!(stderr.contains("[1/1] Alice – Bob: Red "), "{stderr}");
    assert!(stderr.contains(" s\n"), "{stderr}");
    let games = games(&dir.join("out.pgn"));
    assert_eq!(games.len(), 1);
    let game = &games[0];
    assert_eq!(game.moves.len(), 10);
    for (i, node) in game.moves.iter().enumerate() {
        let comment = node.comment.as_deref().unwrap_or_default();
        assert!(comment.starts_with("[%eval "), "ply {}: {comment}", i + 1);
    }
    let hung = &game.moves[6];
    assert!(
        hung.nags == [4] || hung.nags == [2],
        "4. h0h7 is not marked: {hung:?}"
    );
    assert!(game.tag("RedAccuracy").is_some() && game.tag("BlackAccuracy").is_some());
    assert_eq!(game.tag("Annotator"), Some("Chariot 0.1.0 (2000 nodes)"));
    let text = std::fs::read_to_string(dir.join("out.pgn")).unwrap();
    assert!(
        text.contains("4. h0h7??") || text.contains("4. h0h7? "),
        "{text}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_bad_game_is_named_and_the_good_ones_written() {
    let dir = folder("bad");
    // The second game's third ply moves a cannon that is not there any more.
    let bad = "[Event \"Good\"]\n\n1. h2e2 h9g7 *\n\n[Event \"Bad\"]\n\n1. h2e2 h9g7 2. h2h9 *\n";
    std::fs::write(dir.join("bad.pgn"), bad).unwrap();
    let out = annotate(&dir, &["bad.pgn"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    let named: Vec<&str> = stderr.lines().filter(|l| l.contains("bad.pgn")).collect();
    assert_eq!(named.len(), 1, "{stderr}");
    assert!(named[0].starts_with("bad.pgn: game 2, ply 3: "), "{stderr}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let written = pgn::read(&stdout);
    assert_eq!(written.len(), 1, "{stdout}");
    assert!(stdout.contains("[%eval "), "{stdout}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_missing_file_exits_3_and_writes_nothing() {
    let dir = folder("missing");
    let out = annotate(&dir, &["nothing.pgn", "-o", "out.pgn"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{stderr}");
    assert!(stderr.contains("nothing.pgn"), "{stderr}");
    assert!(!dir.join("out.pgn").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

/// Ctrl-C during the second game: the first is written, the second left out, status 130.
#[cfg(unix)]
#[test]
fn ctrl_c_writes_the_games_reviewed() {
    use std::io::{BufRead, BufReader};
    use std::process::Stdio;
    let dir = folder("interrupt");
    std::fs::write(dir.join("short.pgn"), "1. h2e2 h9g7 *\n").unwrap();
    std::fs::write(dir.join("long.pgn"), HUNG).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_chariot"))
        .current_dir(&dir)
        .args(["annotate", "short.pgn", "long.pgn", "-o", "out.pgn"])
        .args(["--movetime", "300"])
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    // The first game's 3 positions take about a second, the second's 11 about 3 s: the
    // first game's summary line comes while the second is being reviewed.
    while stderr.read_line(&mut line).unwrap() > 0 && !line.starts_with("[1/2]") {
        line.clear();
    }
    assert!(line.starts_with("[1/2]"), "{line}");
    let kill = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(kill.success());
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut stderr, &mut rest).unwrap();
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(130), "{rest}");
    assert!(
        rest.contains("interrupted: the first 1 of 2 games"),
        "{rest}"
    );
    let games = games(&dir.join("out.pgn"));
    assert_eq!(games.len(), 1);
    assert_eq!(games[0].moves.len(), 2);
    assert!(games[0].moves[0].comment.is_some());
    let _ = std::fs::remove_dir_all(&dir);
}
