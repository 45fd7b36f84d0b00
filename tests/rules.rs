//! The repetition law as the referee (`Game::outcome`, `chariot judge`) applies it: every line of
//! `positions/repetition.epd` (verdicts of pyffish's `xiangqi` rules) and constructed cycles of
//! perpetual check and chase, each checked against pyffish when it was written.

use chariot::board::chase::{chased_by, perpetual_chasers, verdict, Verdict};
use chariot::board::rules::{Outcome, Reason};
use chariot::board::{Color, Game, Position};
use chariot::tools::matches::judge::{judge, judge_pgn, judge_text};

/// Lines (1-based) where our verdict deliberately differs from pyffish's, and why. pyffish
/// approximates protection; we ask whether a legal recapture exists after the capture.
const DIFFERENCES: [(usize, &str); 3] = [
    // pyffish counts Red's elephant on e2 as pinned by the facing generals although Black's
    // elephant and advisor stand between them on the e-file, so the elephant on c0 it protects
    // looks unprotected; the rook's attack from c4 is no chase and Black does not lose.
    (46, "draw"),
    // The rook on e2 takes the advisor on f2 and so leaves the e-file: the advisor on e1 it
    // pinned is free and takes back. pyffish judges the pin before the capture.
    (65, "draw"),
    // Like line 46: Black's advisor on e8 protects the horse on d7; pyffish counts it pinned
    // by the generals' file although Red's elephant and advisor stand between them.
    (71, "draw"),
];

fn outcome_text(o: &Option<Outcome>) -> &'static str {
    match o {
        Some(Outcome::Win(Color::Red, _)) => "red",
        Some(Outcome::Win(Color::Black, _)) => "black",
        Some(Outcome::Draw(_)) => "draw",
        None => "none",
    }
}

#[test]
fn repetition_epd_judged_as_pyffish_does() {
    let text = include_str!("../positions/repetition.epd");
    let mut agree = 0;
    let mut failures = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let fields: Vec<&str> = line.split(" ; ").map(str::trim).collect();
        assert_eq!(fields.len(), 4, "line {}", i + 1);
        let moves: Vec<&str> = fields[1]
            .strip_prefix("moves ")
            .expect("moves field")
            .split_whitespace()
            .collect();
        let (winner, kind) = (fields[2], fields[3]);
        let j = judge_text(Some(fields[0]), &moves).expect("legal line");
        let got = outcome_text(&j.outcome);
        let expected = DIFFERENCES
            .iter()
            .find(|(n, _)| *n == i + 1)
            .map_or(winner, |(_, ours)| ours);
        if got == expected && j.ply == moves.len() {
            agree += usize::from(got == winner);
            // The kind of ending matches the line's kind.
            if let Some(Outcome::Win(_, reason)) = &j.outcome {
                let is_check = *reason == Reason::PerpetualCheck;
                assert_eq!(
                    is_check,
                    kind.starts_with("check"),
                    "line {}: {reason}",
                    i + 1
                );
            }
        } else {
            failures.push(format!("line {}: {kind}, {winner} expected, {j}", i + 1));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(agree, 120 - DIFFERENCES.len());
}

fn cycle(fen: &str, four: &str) -> Game {
    let moves: Vec<&str> = four.split_whitespace().cycle().take(8).collect();
    Game::from_moves(fen.parse::<Position>().expect("valid FEN"), &moves).expect("legal")
}

fn ending(g: &Game) -> Option<Outcome> {
    g.outcome(usize::MAX)
}

const ROOK_CHASES_CANNON: &str = "5k3/9/2c6/9/9/9/9/3R5/9/4K4 w - - 0 1";

#[test]
fn rook_chasing_an_unprotected_cannon_loses() {
    let g = cycle(ROOK_CHASES_CANNON, "d2c2 c7d7 c2d2 d7c7");
    let chase = Outcome::Win(Color::Black, Reason::PerpetualChase(Color::Red));
    assert_eq!(ending(&g), Some(chase));
    assert_eq!(
        Reason::PerpetualChase(Color::Red).to_string(),
        "perpetual chase by red"
    );
    // Not before the third occurrence.
    assert_eq!(judge(g.start(), &g.moves()[..7]).outcome, None);
    // The move d2c2 chases the cannon on c7, and nothing else.
    let c7 = "c7".parse().unwrap();
    let m = g.start().parse_move("d2c2").unwrap();
    assert_eq!(chased_by(g.start(), m).collect::<Vec<_>>(), vec![c7]);
}

#[test]
fn horse_chasing_a_protected_rook_loses() {
    let g = cycle(
        "2r1k4/9/9/9/2r6/3N5/9/9/9/3K5 w - - 0 1",
        "d4b3 c5c6 b3d4 c6c5",
    );
    let chase = Outcome::Win(Color::Black, Reason::PerpetualChase(Color::Red));
    assert_eq!(ending(&g), Some(chase));
}

#[test]
fn rook_attacking_a_protected_horse_is_no_chase() {
    let protected = cycle(
        "5k3/9/2n5r/9/8r/9/9/3R5/9/3K5 w - - 0 1",
        "d2c2 c7d5 c2d2 d5c7",
    );
    assert_eq!(ending(&protected), Some(Outcome::Draw(Reason::Repetition)));
    // The same without the black rooks that protect it: a chase.
    let bare = cycle(
        "5k3/9/2n6/9/9/9/9/3R5/9/3K5 w - - 0 1",
        "d2c2 c7d5 c2d2 d5c7",
    );
    let chase = Outcome::Win(Color::Black, Reason::PerpetualChase(Color::Red));
    assert_eq!(ending(&bare), Some(chase));
}

#[test]
fn two_pieces_chased_in_turn_draw() {
    let g = cycle(
        "5k3/9/2cn5/9/9/9/9/3R5/9/3K5 w - - 0 1",
        "d2c2 f9f8 c2d2 f8f9",
    );
    assert_eq!(ending(&g), Some(Outcome::Draw(Reason::Repetition)));
    let moves = g.moves();
    assert!(chased_by(&g.positions()[0], moves[0]).any());
    assert!(chased_by(&g.positions()[2], moves[2]).any());
    assert_eq!(perpetual_chasers(g.start(), moves), [false, false]);
}

#[test]
fn perpetual_check_against_perpetual_chase_the_checker_loses() {
    // Red's rook checks on every move; each king move uncovers a cannon's attack on it.
    let g = cycle(
        "4ka2c/R4n2c/9/9/9/9/9/9/9/3K5 w - - 0 1",
        "a8a9 e9e8 a9a8 e8e9",
    );
    assert_eq!(perpetual_chasers(g.start(), g.moves()), [false, true]);
    assert_eq!(
        ending(&g),
        Some(Outcome::Win(Color::Black, Reason::PerpetualCheck))
    );
    assert_eq!(
        verdict([true, false], || [false, true]),
        Verdict::PerpetualCheck(Color::Red)
    );
}

#[test]
fn both_sides_chasing_draw() {
    // Each side's pawn steps aside and back, each step uncovering a rook or freeing a horse's
    // leg against the same enemy horse.
    let g = cycle(
        "4k4/2RN5/2P6/2n6/9/9/2N6/2p6/2rn5/3K5 w - - 0 1",
        "c7d7 c2d2 d7c7 d2c2",
    );
    assert_eq!(perpetual_chasers(g.start(), g.moves()), [true, true]);
    assert_eq!(ending(&g), Some(Outcome::Draw(Reason::Repetition)));
}

#[test]
fn discovered_chase_loses_but_an_uncrossed_pawn_is_never_chased() {
    // The pawn's steps uncover the rook on c8, then free the leg of the horse on d8.
    let horse = cycle(
        "4k4/2RN5/2P6/2n6/9/9/9/9/9/3K5 w - - 0 1",
        "c7d7 e9e8 d7c7 e8e9",
    );
    let chase = Outcome::Win(Color::Black, Reason::PerpetualChase(Color::Red));
    assert_eq!(ending(&horse), Some(chase));
    let pawn = cycle(
        "4k4/2RN5/2P6/2p6/9/9/9/9/9/3K5 w - - 0 1",
        "c7d7 e9e8 d7c7 e8e9",
    );
    assert_eq!(ending(&pawn), Some(Outcome::Draw(Reason::Repetition)));
}

#[test]
fn a_chase_completed_on_the_120th_ply_still_loses() {
    let fen = ROOK_CHASES_CANNON.replace(" 0 1", " 112 60");
    let g = cycle(&fen, "d2c2 c7d7 c2d2 d7c7");
    assert_eq!(g.position().halfmove_clock(), 120);
    let chase = Outcome::Win(Color::Black, Reason::PerpetualChase(Color::Red));
    assert_eq!(ending(&g), Some(chase));
    // One ply earlier on the clock, the 60-move rule ends it first, at ply 7.
    let fen = ROOK_CHASES_CANNON.replace(" 0 1", " 113 60");
    let g = cycle(&fen, "d2c2 c7d7 c2d2 d7c7");
    let j = judge(g.start(), g.moves());
    assert_eq!(
        (j.outcome, j.ply),
        (Some(Outcome::Draw(Reason::MoveLimit)), 7)
    );
}

#[test]
fn judge_lines_and_errors() {
    let moves = "d2c2 c7d7 c2d2 d7c7 d2c2 c7d7 c2d2 d7c7".split_whitespace();
    let moves: Vec<&str> = moves.collect();
    let j = judge_text(Some(ROOK_CHASES_CANNON), &moves).unwrap();
    assert_eq!(j.to_string(), "0-1 perpetual chase by red at ply 8");
    let j = judge_text(Some(ROOK_CHASES_CANNON), &moves[..3]).unwrap();
    assert_eq!(j.to_string(), "* in progress at ply 3");
    let j = judge_text(None, &["h2e2", "h9g7"]).unwrap();
    assert_eq!(j.to_string(), "* in progress at ply 2");
    let e = judge_text(None, &["h2e2", "h2e2"]).unwrap_err().to_string();
    assert!(e.contains("ply 2"), "{e}");
    let e = judge_text(None, &["h2e2", "zz"]).unwrap_err().to_string();
    assert!(e.contains("ply 2"), "{e}");
    assert!(judge_text(Some("nonsense"), &moves).is_err());
}

#[test]
fn judge_pgn_reports_disagreements() {
    let pgn = "[Round \"1\"]\n[FEN \"5k3/9/2c6/9/9/9/9/3R5/9/4K4 w - - 0 1\"]\n\
        [Result \"1/2-1/2\"]\n\n1. d2c2 c7d7 2. c2d2 d7c7 3. d2c2 c7d7 4. c2d2 d7c7 1/2-1/2\n\n\
        [Round \"2\"]\n[Result \"0-1\"]\n\n1. h2e2 h9g7 0-1\n";
    let (text, disagree) = judge_pgn(pgn.as_bytes()).unwrap();
    assert_eq!(disagree, 1);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines,
        [
            "game 1: 0-1 perpetual chase by red at ply 8 (recorded 1/2-1/2: disagrees)",
            "game 2: * in progress at ply 2 (recorded 0-1: not by the rules)",
            "2 games, 1 disagree",
        ]
    );
    assert!(judge_pgn(b"[Round \"3\"]\n\n1. h2e2 h2e2 *\n")
        .unwrap_err()
        .to_string()
        .contains("ply 2"));
}

fn run_judge(args: &[&str]) -> (Option<i32>, String, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_chariot"))
        .arg("judge")
        .args(args)
        .output()
        .expect("runs");
    let text = |b: Vec<u8>| String::from_utf8(b).expect("utf-8");
    (out.status.code(), text(out.stdout), text(out.stderr))
}

#[test]
fn judge_command_lines_and_exit_statuses() {
    let cycle = "d2c2 c7d7 c2d2 d7c7 d2c2 c7d7 c2d2 d7c7";
    let mut args = vec!["--fen", ROOK_CHASES_CANNON];
    args.extend(cycle.split_whitespace());
    let (code, out, _) = run_judge(&args);
    assert_eq!(
        (code, out.as_str()),
        (Some(0), "0-1 perpetual chase by red at ply 8\n")
    );
    let (code, out, _) = run_judge(&["h2e2"]);
    assert_eq!((code, out.as_str()), (Some(0), "* in progress at ply 1\n"));
    let (code, _, err) = run_judge(&["h2e2", "h9g7", "e2e9"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("ply 3"), "{err}");
    let (code, _, err) = run_judge(&["--fen", "9/9 w", "h2e2"]);
    assert_eq!(code, Some(2), "{err}");
    let dir = std::env::temp_dir().join(format!("chariot-judge-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("games.pgn");
    let pgn = format!(
        "[FEN \"{ROOK_CHASES_CANNON}\"]\n[Result \"0-1\"]\n\n{cycle} 0-1\n\n\
         [Result \"1-0\"]\n\n1. h0g2 h9g7 2. g2h0 g7h9 3. h0g2 h9g7 4. g2h0 g7h9 1-0\n"
    );
    std::fs::write(&file, pgn).unwrap();
    let (code, out, _) = run_judge(&["--pgn", file.to_str().unwrap()]);
    assert_eq!(code, Some(1), "{out}");
    assert_eq!(
        out,
        "game 1: 0-1 perpetual chase by red at ply 8\n\
         game 2: 1/2-1/2 threefold repetition at ply 8 (recorded 1-0: disagrees)\n\
         2 games, 1 disagree\n"
    );
    // A missing file is exit status 3, as in every subcommand (docs/development.md).
    let (code, _, _) = run_judge(&["--pgn", dir.join("missing.pgn").to_str().unwrap()]);
    assert_eq!(code, Some(3));
    std::fs::remove_dir_all(&dir).ok();
}
