//! The match runner: a real short match, fake engines that misbehave, and the referee's rules.

use chariot::board::rules::{Outcome, Reason};
use chariot::board::{Color, Game, Position};
use chariot::tools::pgn;
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

/// A fresh temporary path (unique per call: tests run in parallel).
fn temp(name: &str) -> std::path::PathBuf {
    static N: AtomicUsize = AtomicUsize::new(0);
    let n = N.fetch_add(1, Ordering::SeqCst);
    std::env::temp_dir().join(format!("chariot-test-{}-{n}-{name}", std::process::id()))
}

fn run_match(args: &[&str]) -> (String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_chariot"))
        .arg("match")
        .args(args)
        .output()
        .expect("run chariot match");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn short_self_play_match_and_pgn_round_trip() {
    let path = temp("selfplay.pgn");
    let (stdout, stderr) = run_match(&[
        "--games",
        "4",
        "--depth",
        "2",
        "--concurrency",
        "2",
        "--pgn",
        path.to_str().expect("utf-8 path"),
    ]);
    assert!(stdout.contains("W/D/L: "), "{stdout}");
    assert!(stdout.contains("Elo difference: "), "{stdout}");
    assert!(stdout.starts_with("Score of "), "{stdout}");
    assert!(stdout.contains("\nEndings: "), "{stdout}");
    assert_eq!(stderr.lines().filter(|l| l.starts_with("game ")).count(), 4);
    let text = std::fs::read_to_string(&path).expect("pgn written");
    let _ = std::fs::remove_file(&path);
    let games = pgn::read(&text).expect("pgn parses");
    assert_eq!(games.len(), 4);
    for g in &games {
        let result = g.tag("Result").expect("result tag");
        assert_eq!(result, g.result);
        let round: usize = g.tag("Round").and_then(|r| r.parse().ok()).expect("round");
        // Even rounds swap colours: the same two names, reversed.
        assert!(g.red().is_some() && g.tag("Black").is_some());
        // Games from the built-in openings carry the opening moves from the start position.
        let openings = chariot::tools::openings::parse(chariot::tools::openings::DEFAULT_OPENINGS)
            .expect("openings");
        let opening = &openings[(round - 1) / 2];
        assert_eq!(&g.game.moves()[..opening.moves.len()], &opening.moves[..]);
        // Every game ended by rule or position here; the referee agrees on replay.
        let outcome = g.game.outcome(400).expect("game over on replay");
        let expected = match outcome {
            Outcome::Win(Color::Red, _) => "1-0",
            Outcome::Win(Color::Black, _) => "0-1",
            Outcome::Draw(_) => "1/2-1/2",
        };
        assert_eq!(result, expected, "{:?}", g.tags);
    }
}

fn fake(name: &str) -> String {
    format!(
        "{}/tests/fake_engines/{name}.sh",
        env!("CARGO_MANIFEST_DIR")
    )
}

fn misbehaving(engine: &str, reason: &str, extra: &[&str]) {
    let path = temp(&format!("{engine}.pgn"));
    let f = fake(engine);
    let mut args = vec![
        "--engine2",
        f.as_str(),
        "--games",
        "2",
        "--pgn",
        path.to_str().expect("utf-8 path"),
    ];
    if !extra.contains(&"--tc") {
        args.extend_from_slice(&["--depth", "1"]);
    }
    args.extend_from_slice(extra);
    let (stdout, _) = run_match(&args);
    assert!(stdout.contains("W/D/L: 2/0/0"), "{engine}: {stdout}");
    let text = std::fs::read_to_string(&path).expect("pgn written");
    let _ = std::fs::remove_file(&path);
    let games = pgn::read(&text).expect("pgn parses");
    assert_eq!(games.len(), 2);
    for g in games {
        let why = g.tag("Termination").unwrap_or_default().to_string();
        assert!(
            why.contains(reason),
            "{engine}: termination {why:?} lacks {reason:?}"
        );
    }
}

#[test]
fn illegal_move_loses() {
    misbehaving("illegal", "played illegal move a0a9", &[]);
}

#[test]
fn crash_loses() {
    misbehaving("crash", "crashed", &[]);
}

#[test]
fn hang_loses() {
    misbehaving("hang", "hung", &["--timeout", "500"]);
}

#[test]
fn hang_on_the_clock_loses_on_time() {
    misbehaving("hang", "lost on time", &["--tc", "0.3+0"]);
}

#[test]
fn wrong_dialect_loses() {
    misbehaving("wrong_dialect", "no handshake", &["--handshake", "300"]);
}

fn openings_file(name: &str, text: &str) -> std::path::PathBuf {
    let path = temp(name);
    std::fs::write(&path, text).expect("write openings");
    path
}

const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

#[test]
fn crashed_engine_is_restarted_for_the_next_game() {
    let openings = openings_file("flaky.txt", &format!("{START}\n"));
    let o = openings.to_str().expect("utf-8 path").to_string();
    let path = temp("flaky.pgn");
    let f = fake("flaky");
    let (stdout, _) = run_match(&[
        "--engine2",
        &f,
        "--games",
        "2",
        "--depth",
        "1",
        "--openings",
        &o,
        "--pgn",
        path.to_str().expect("utf-8 path"),
    ]);
    let _ = std::fs::remove_file(&openings);
    assert!(stdout.contains("W/D/L: 2/0/0"), "{stdout}");
    let text = std::fs::read_to_string(&path).expect("pgn written");
    let _ = std::fs::remove_file(&path);
    let games = pgn::read(&text).expect("pgn parses");
    assert_eq!(games.len(), 2);
    for g in games {
        // The fake moves once per process: in both games it moved, then crashed.
        let moves: Vec<String> = g.game.moves().iter().map(|m| m.to_string()).collect();
        assert!(
            moves.contains(&"a3a4".to_string()) || moves.contains(&"a6a5".to_string()),
            "{moves:?}"
        );
        assert!(g.tag("Termination").unwrap_or_default().contains("crashed"));
    }
}

#[test]
fn ucci_engines_are_detected_and_repetition_draws() {
    let openings = openings_file("shuttle.txt", &format!("{START}\n"));
    let o = openings.to_str().expect("utf-8 path").to_string();
    let path = temp("shuttle.pgn");
    let f = fake("ucci_shuttle");
    // Engine 2 ignores `isready`: the runner must notice at start-up and not wait for it.
    let f2 = format!("{f} --no-isready");
    let (stdout, stderr) = run_match(&[
        "--engine1",
        &f,
        "--engine2",
        &f2,
        "--games",
        "2",
        "--tc",
        "5+0.05",
        "--handshake",
        "300",
        "--openings",
        &o,
        "--pgn",
        path.to_str().expect("utf-8 path"),
    ]);
    let _ = std::fs::remove_file(&openings);
    assert!(stdout.contains("W/D/L: 0/2/0"), "{stdout}\n{stderr}");
    assert!(stderr.contains("(ucci,"), "{stderr}");
    let text = std::fs::read_to_string(&path).expect("pgn written");
    let _ = std::fs::remove_file(&path);
    let games = pgn::read(&text).expect("pgn parses");
    assert_eq!(games.len(), 2);
    for g in &games {
        assert_eq!(g.result, "1/2-1/2");
        assert_eq!(g.tag("Termination"), Some("threefold repetition"));
        assert_eq!(g.tag("TimeControl"), Some("5+0.05"));
        assert_eq!(g.game.moves().len(), 8);
        assert_eq!(g.tag("FEN"), None, "the start position needs no FEN tag");
    }
}

#[test]
fn no_move_is_a_draw_claim_only_after_a_hundred_quiet_plies() {
    let f = fake("claimer");
    for (halfmove, want, reason) in [
        (
            110,
            "W/D/L: 0/1/0",
            "red claimed a draw (110 plies without capture)",
        ),
        (20, "W/D/L: 0/0/1", "red gave no move"),
    ] {
        let fen = START.replace(" 0 1", &format!(" {halfmove} 60"));
        let openings = openings_file(&format!("claim{halfmove}.txt"), &format!("{fen}\n"));
        let path = temp(&format!("claim{halfmove}.pgn"));
        let (stdout, _) = run_match(&[
            "--engine1",
            &f,
            "--games",
            "1",
            "--depth",
            "1",
            "--openings",
            openings.to_str().expect("utf-8 path"),
            "--pgn",
            path.to_str().expect("utf-8 path"),
        ]);
        let _ = std::fs::remove_file(&openings);
        assert!(stdout.contains(want), "{halfmove}: {stdout}");
        let text = std::fs::read_to_string(&path).expect("pgn written");
        let _ = std::fs::remove_file(&path);
        let games = pgn::read(&text).expect("pgn parses");
        assert_eq!(games[0].tag("Termination"), Some(reason));
        assert_eq!(games[0].tag("FEN"), Some(fen.as_str()));
    }
}

#[test]
fn bad_engine_command_is_an_error() {
    let out = Command::new(env!("CARGO_BIN_EXE_chariot"))
        .args([
            "match",
            "--engine2",
            "./no-such-engine-here",
            "--games",
            "1",
        ])
        .output()
        .expect("run chariot match");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("engine 2"));
    let out = Command::new(env!("CARGO_BIN_EXE_chariot"))
        .args(["match", "--depth", "2", "--tc", "1+0"])
        .output()
        .expect("run chariot match");
    assert_eq!(out.status.code(), Some(2));
}

fn game(fen: &str, moves: &[&str]) -> Game {
    Game::from_moves(fen.parse::<Position>().expect("valid"), moves).expect("legal")
}

#[test]
fn repetition_without_checks_draws() {
    let cycle = ["h0g2", "h9g7", "g2h0", "g7h9"];
    let mut moves: Vec<&str> = cycle.iter().chain(cycle.iter()).copied().collect();
    let g = game(chariot::board::START_FEN, &moves[..7]);
    assert_eq!(g.outcome(400), None, "second occurrence only");
    let g = game(chariot::board::START_FEN, &moves);
    assert_eq!(g.outcome(400), Some(Outcome::Draw(Reason::Repetition)));
    moves.truncate(4);
    assert_eq!(game(chariot::board::START_FEN, &moves).outcome(400), None);
}

#[test]
fn perpetual_check_loses() {
    let moves = [
        "a8a9", "f9f8", "a9a8", "f8f9", "a8a9", "f9f8", "a9a8", "f8f9",
    ];
    let g = game("5k3/R8/9/5P3/9/9/9/9/9/3K5 w - - 0 1", &moves);
    assert_eq!(
        g.outcome(400),
        Some(Outcome::Win(Color::Black, Reason::PerpetualCheck))
    );
}

#[test]
fn sixty_move_rule_and_mates() {
    let g = game("5k3/9/9/9/9/9/9/9/9/R2K5 w - - 119 80", &["a0a1"]);
    assert_eq!(g.outcome(400), Some(Outcome::Draw(Reason::MoveLimit)));
    // Mate on the 120th ply stands.
    let g = game("3k5/9/9/9/9/9/9/9/9/R3K4 w - - 119 80", &["a0d0"]);
    assert_eq!(
        g.outcome(400),
        Some(Outcome::Win(Color::Red, Reason::Checkmate))
    );
    let g = game("3k5/R8/9/9/9/9/9/9/4R4/5K3 b - - 0 1", &[]);
    assert_eq!(
        g.outcome(400),
        Some(Outcome::Win(Color::Red, Reason::Stalemate))
    );
    let g = game("4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1", &[]);
    assert_eq!(g.outcome(400), Some(Outcome::Draw(Reason::BareMaterial)));
    let g = game(chariot::board::START_FEN, &["h2e2"]);
    assert_eq!(g.outcome(1), Some(Outcome::Draw(Reason::LengthCap)));
    assert_eq!(g.outcome(400), None);
}

#[test]
fn default_openings_are_legal_and_about_a_hundred() {
    let o = chariot::tools::openings::parse(chariot::tools::openings::DEFAULT_OPENINGS)
        .expect("legal openings");
    assert!((95..=110).contains(&o.len()), "{}", o.len());
}

#[test]
fn spsa_plays_pairs_and_prints_the_numbers_it_tuned() {
    let out = Command::new(env!("CARGO_BIN_EXE_chariot"))
        .args([
            "spsa",
            "--tc",
            "0.2+0.002",
            "--pairs",
            "2",
            "--concurrency",
            "2",
            "--param",
            "rfp_margin",
            "--param",
            "lmr_div",
            "--start",
            "rfp_margin=100",
            "--report",
            "1",
        ])
        .output()
        .expect("run chariot spsa");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert_eq!(stderr.lines().filter(|l| l.starts_with("pair ")).count(), 2);
    assert_eq!(
        stderr.lines().filter(|l| l.starts_with("theta ")).count(),
        2
    );
    // A table row per number (name, default, value now), then the words for a match.
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 3, "{stdout}");
    let margin: Vec<&str> = lines[0].split_whitespace().collect();
    assert_eq!(margin[..2], ["rfp_margin", "77"]);
    // Two pairs at r = 0.002 move θ by far less than a step from its start.
    let value: f64 = margin[2].parse().expect("a number");
    assert!((value - 100.0).abs() < 8.0, "{value}");
    assert!(lines[1].starts_with("lmr_div "), "{stdout}");
    let words: Vec<&str> = lines[2].split_whitespace().collect();
    assert_eq!(words.len(), 4, "{stdout}");
    assert_eq!(words[0], "--option1");
    assert!(words[1].starts_with("rfp_margin="), "{stdout}");
    assert!(words[3].starts_with("lmr_div="), "{stdout}");
}

#[test]
fn spsa_against_an_outside_opponent_plays_each_side_against_it() {
    let me = env!("CARGO_BIN_EXE_chariot");
    let out = Command::new(me)
        .args([
            "spsa",
            "--tc",
            "0.2+0.002",
            "--pairs",
            "1",
            "--param",
            "nmp_base",
            "--opponent",
            me,
            "--opponent-depth",
            "1",
        ])
        .output()
        .expect("run chariot spsa");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    // Each side's points are its own, out of 2: they need not add up to 2.
    let line = stderr
        .lines()
        .find(|l| l.starts_with("pair 1 "))
        .expect("a pair line");
    let words: Vec<&str> = line.split_whitespace().collect();
    let plus = words.iter().position(|w| *w == "plus").expect("plus");
    let minus = words.iter().position(|w| *w == "minus").expect("minus");
    for i in [plus, minus] {
        let (points, of) = words[i + 1].split_once('/').expect("points/2");
        let points: f64 = points.parse().expect("a number");
        assert!((0.0..=2.0).contains(&points) && of == "2", "{line}");
    }
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("nmp_base "));
}
