//! The mate track (`chariot mates`): reading both mate-file formats, the solved and exact
//! counts of Chariot's search and of another engine's process, and harvesting positions from
//! match PGNs.

use chariot::tools::matches::mates::{self, Budget, Solver, Verdict};
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_chariot");

fn chariot(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(BIN).args(args).output().expect("runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn both_file_formats_are_read() {
    let ours = mates::read_cases(include_str!("../positions/mates.epd")).expect("mates.epd");
    assert_eq!(ours.len(), 28);
    assert_eq!(ours[0].dm, 1);
    assert_eq!(ours[0].bm, ["d9e9"]);
    let real = mates::read_cases(include_str!("../positions/realmates.epd")).expect("realmates");
    assert_eq!(real.len(), 64, "comment lines skipped");
    assert_eq!(
        (real[0].dm, real[0].bm.as_slice()),
        (5, &["b3f3".to_string()][..])
    );
    for bad in [
        "",
        "# only a comment\n",
        "rnbakabnr/9 w; dm 2",
        "4k4/9/9/9/9/9/9/9/9/4K4 w; bm a0a1",
    ] {
        assert!(mates::read_cases(bad).is_err(), "{bad:?} refused");
    }
}

#[test]
fn the_second_real_game_file_holds_what_it_says() {
    let first = mates::read_cases(include_str!("../positions/realmates.epd")).expect("realmates");
    let second =
        mates::read_cases(include_str!("../positions/realmates2.epd")).expect("realmates2");
    assert!(second.len() >= 100, "{} positions", second.len());
    let key = |c: &mates::MateCase| {
        let fen = c.position.fen();
        fen.split_whitespace().take(2).collect::<Vec<_>>().join(" ")
    };
    let mut seen: std::collections::HashSet<String> = first.iter().map(key).collect();
    for c in &second {
        assert!(seen.insert(key(c)), "{} twice", c.position.fen());
        assert!(
            c.dm > 0,
            "{}: announced by the side to move",
            c.position.fen()
        );
        // The move played is legal, and where the mate is in one, it leaves no legal move (a
        // stalemate loses too).
        let [bm] = c.bm.as_slice() else {
            panic!("{}: one move", c.position.fen())
        };
        let m = c.position.parse_move(bm).expect("a move");
        assert!(
            c.position.legal_moves().iter().any(|l| l == m),
            "{bm} legal"
        );
        if c.dm == 1 {
            let after = c.position.play(m);
            assert!(after.legal_moves().is_empty(), "{bm} mates");
        }
    }
}

#[test]
fn verdicts_count_mates_of_the_right_sign_and_length() {
    let v = |mate: Option<i32>| Verdict {
        mate,
        score: String::new(),
    };
    assert!(v(Some(3)).solved(4) && !v(Some(3)).exact(4));
    assert!(v(Some(4)).solved(4) && v(Some(4)).exact(4));
    assert!(!v(Some(5)).solved(4));
    assert!(!v(Some(-2)).solved(4));
    assert!(!v(None).solved(4));
    assert!(v(Some(-3)).solved(-4) && !v(Some(-3)).exact(-4));
    assert!(!v(Some(2)).solved(-4));
}

#[test]
fn chariot_solves_the_short_mates_at_their_depth() {
    let cases = mates::read_cases(include_str!("../positions/mates.epd")).expect("mates.epd");
    let short: Vec<_> = cases.into_iter().filter(|c| c.dm.abs() <= 2).collect();
    let mut solver = Solver::chariot(16, Some(chariot::eval::nnue::default_network()));
    let mut seen = 0;
    let t = mates::run(&short, &mut solver, Budget::Depth(8), |_, _, _| {
        seen += 1;
        std::ops::ControlFlow::Continue(())
    })
    .expect("runs");
    assert_eq!(seen, short.len());
    assert_eq!((t.positions, t.solved, t.exact), (9, 9, 9));
}

#[test]
fn another_engine_runs_the_same_file() {
    // Chariot's own binary as the other engine, over the UCI protocol.
    let (ok, out, err) = chariot(&[
        "mates",
        "positions/mates.epd",
        "--nodes",
        "20000",
        "--engine",
        BIN,
        "--option",
        "Hash=8",
    ]);
    assert!(ok, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 29, "{out}");
    assert!(
        lines[0].contains("dm   1") && lines[0].ends_with("exact"),
        "{out}"
    );
    let total = lines[28];
    assert!(
        total.starts_with("solved ") && total.ends_with("/28 at 20000 nodes"),
        "{out}"
    );
    let solved: usize = total["solved ".len()..]
        .split('/')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!(solved >= 14, "half the file at least: {total}");
}

#[test]
fn bad_input_is_one_error_line() {
    let (ok, _, err) = chariot(&["mates", "no-such-file.epd"]);
    assert!(!ok && err.lines().count() == 1, "{err}");
    let (ok, _, err) = chariot(&["mates", "positions/perft.epd"]);
    assert!(!ok && err.contains("mate distance"), "{err}");
}

#[test]
fn harvest_finds_the_first_announced_mate_of_the_winner() {
    let pgn = "\
[Event \"t\"]\n[White \"red-engine\"]\n[Black \"black-engine\"]\n[Result \"1-0\"]\n\n\
1. h2e2 {+0.30/8 0.1s} h9g7 {#-5/9 0.1s} 2. h0g2 {#4/9 0.1s} i9h9 {#-3/9} 1-0\n\n\
[Event \"t\"]\n[White \"a\"]\n[Black \"b\"]\n[Result \"1/2-1/2\"]\n\n\
1. h2e2 {#2/3} h9g7 1/2-1/2\n";
    let lines = mates::harvest(pgn.as_bytes()).expect("reads");
    assert_eq!(
        lines,
        ["rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2; dm 4; bm h0g2; c0 \"announced by red-engine\""]
    );
}
