//! Board properties: FEN round trips and errors, copy-make, incremental keys, and the fast
//! generator against the reference generator over random playouts.

mod common;

use chariot::board::{Color, Game, Move, Position, Square};
use common::reference::Mailbox;
use proptest::prelude::*;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

fn all_fens() -> Vec<String> {
    let mut fens: Vec<String> = common::read_epd(include_str!("../positions/perft.epd"))
        .into_iter()
        .map(|e| e.fen)
        .collect();
    fens.extend(
        common::read_epd(include_str!("../positions/mates.epd"))
            .into_iter()
            .map(|e| e.fen),
    );
    fens.push(chariot::board::START_FEN.to_string());
    fens
}

fn sorted(mut v: Vec<Move>) -> Vec<u16> {
    let mut r: Vec<u16> = v.drain(..).map(|m| m.raw()).collect();
    r.sort_unstable();
    r
}

/// Checks everything the board promises about one position.
fn check_position(pos: &Position) {
    assert_eq!(pos.key(), pos.compute_key(), "incremental key of {pos}");
    let reparsed: Position = pos.fen().parse().expect("own FEN parses");
    assert_eq!(&reparsed, pos, "FEN round trip of {pos}");
    let fast: Vec<Move> = pos.legal_moves().iter().collect();
    let slow = Mailbox::from_position(pos).legal_moves();
    assert_eq!(sorted(fast.clone()), sorted(slow), "legal moves of {pos}");
    assert_eq!(pos.count_legal(), fast.len());
    let info = pos.check_info();
    for m in fast.iter() {
        assert!(pos.is_legal(*m), "{m} in {pos}");
        // Checks are told without playing the move, exactly, and so from the summary.
        let check = pos.play(*m).in_check();
        assert_eq!(pos.gives_check(*m), check, "{m} in {pos}");
        assert_eq!(pos.gives_check_with(*m, &info), check, "{m} in {pos}");
    }
    let caps: Vec<Move> = pos.legal_captures().iter().collect();
    let expected: Vec<Move> = fast
        .iter()
        .copied()
        .filter(|m| pos.piece_at(m.to()).is_some())
        .collect();
    assert_eq!(sorted(caps), sorted(expected), "captures of {pos}");
    // Quiet checks come in the order of the full list, so quiescence's tree is the same.
    let checks: Vec<Move> = pos.legal_quiet_checks().iter().collect();
    let expected: Vec<Move> = fast
        .iter()
        .copied()
        .filter(|m| pos.piece_at(m.to()).is_none() && pos.gives_check(*m))
        .collect();
    assert_eq!(checks, expected, "quiet checks of {pos}");
    // is_legal rejects every other from/to pair.
    let mut legal = 0;
    for from in Square::all() {
        if pos.piece_at(from).map(|p| p.color()) != Some(pos.side_to_move()) {
            continue;
        }
        for to in Square::all() {
            if from != to && pos.is_legal(Move::new(from, to)) {
                legal += 1;
            }
        }
    }
    assert_eq!(legal, fast.len(), "is_legal count in {pos}");
}

#[test]
fn reference_agrees_on_every_test_position() {
    for fen in all_fens() {
        let pos: Position = fen.parse().unwrap_or_else(|e| panic!("{fen}: {e}"));
        check_position(&pos);
        for m in pos.legal_moves().iter() {
            check_position(&pos.play(m));
        }
    }
}

/// Plays a random game of up to `plies` plies from `start`, checking every position.
fn random_walk(seed: u64, start: &Position, plies: usize) {
    walk(seed, start, plies, false);
}

/// As `random_walk`; with `checks`, a checking move is played half the time there is one, so
/// that many positions are in check (single, double, by a cannon over either side's screen).
fn walk(seed: u64, start: &Position, plies: usize, checks: bool) {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut pos = start.clone();
    for _ in 0..plies {
        check_position(&pos);
        let moves = pos.legal_moves();
        if moves.is_empty() {
            assert!(Mailbox::from_position(&pos).legal_moves().is_empty());
            break;
        }
        let checking: Vec<Move> = if checks {
            moves.iter().filter(|m| pos.gives_check(*m)).collect()
        } else {
            Vec::new()
        };
        let m = if !checking.is_empty() && rng.random_bool(0.5) {
            checking[rng.random_range(0..checking.len())]
        } else {
            moves.get(rng.random_range(0..moves.len()))
        };
        let before = pos.clone();
        let child = pos.play(m);
        // Copy-make leaves the parent untouched.
        assert_eq!(pos, before);
        // make in place gives the same child.
        let mut in_place = pos.clone();
        in_place.make(m);
        assert_eq!(in_place, child);
        assert_eq!(pos.key_after(m), child.key());
        assert!(!child.king_in_check(child.side_to_move().flip()));
        pos = child;
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]
    #[test]
    fn random_playouts_agree_with_reference(seed in any::<u64>()) {
        random_walk(seed, &Position::startpos(), 160);
    }

    #[test]
    fn checking_playouts_agree_with_reference(seed in any::<u64>()) {
        walk(seed, &Position::startpos(), 160, true);
    }
}

#[test]
fn random_playouts_from_test_positions() {
    for (i, fen) in all_fens().iter().enumerate() {
        let pos: Position = fen.parse().expect("valid");
        for s in 0..8 {
            random_walk(i as u64 * 1000 + s, &pos, 60);
        }
    }
}

#[test]
fn fen_round_trips_and_tolerates_short_forms() {
    for fen in all_fens() {
        let pos: Position = fen.parse().expect("valid");
        assert_eq!(pos.fen().parse::<Position>().expect("round trip"), pos);
    }
    let start = Position::startpos();
    let short: Position = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w"
        .parse()
        .expect("two fields");
    assert_eq!(short, start);
    let bare: Position = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR"
        .parse()
        .expect("board only");
    assert_eq!(bare.side_to_move(), Color::Red);
    let red_r: Position = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR r - - 0 1"
        .parse()
        .expect("r for red");
    assert_eq!(red_r, start);
    let wxf: Position = "rhbakabhr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w - - 0 1"
        .parse()
        .expect("WXF letters");
    assert_eq!(wxf, start);
    assert_eq!(wxf.fen(), chariot::board::START_FEN);
    let black: Position = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 7 3"
        .parse()
        .expect("black to move");
    assert_eq!(black.side_to_move(), Color::Black);
    assert_eq!(black.halfmove_clock(), 7);
    assert_eq!(black.fullmove_number(), 3);
    assert_ne!(black.key(), start.key());
}

#[test]
fn malformed_fens_are_rejected_with_a_reason() {
    let cases: &[(&str, &str)] = &[
        ("", "empty"),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/RNBAKABNR w",
            "9 ranks",
        ),
        (
            "rnbakabnr/9/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
            "11 ranks",
        ),
        (
            "rnbakabnr/8/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
            "rank 8",
        ),
        (
            "rnbakabnrr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
            "rank 9",
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN1R w",
            "rank 0",
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNX w",
            "unknown piece letter 'X'",
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN0 w",
            "unknown piece letter '0'",
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR x",
            "side to move",
        ),
        (
            "rnba1abnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
            "black king missing",
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBA1ABNR w",
            "red king missing",
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBAKABNR w",
            "more than one red king",
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/R8/RNBAKABNR w",
            "too many red Rooks",
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/PC5C1/9/RNBAKABNR w",
            "too many red Pawns",
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2A2C1/9/RNB1KABNR w",
            "Advisor on e2",
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1CA4C1/9/RNB1KABNR w",
            "Advisor on c2",
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C1B3C1/9/RN1AKABNR w",
            "Elephant on d2",
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/4B4/9/P1P1P1P1P/1C5C1/9/RNBAKA1NR w",
            "Elephant on e5",
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P2/1C5CP/9/RNBAKABNR w",
            "Pawn on i2",
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1PP1/1C5C1/9/RNBAKABNR w",
            "Pawn on h3",
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBA1ABNR/4K4 w",
            "11 ranks",
        ),
        (
            "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/2K6/RNBA1ABNR w",
            "King on c1",
        ),
        ("3k5/9/9/9/9/9/9/9/9/K8 w", "King on a0"),
        ("4k4/9/9/9/9/9/9/9/9/4K4 w", "side not to move is in check"),
        (
            "4k4/9/9/9/9/9/9/9/4R4/3K5 w",
            "side not to move is in check",
        ),
    ];
    for (fen, needle) in cases {
        match fen.parse::<Position>() {
            Ok(p) => panic!("accepted malformed FEN {fen:?} as {p}"),
            Err(e) => {
                let msg = e.to_string();
                assert!(
                    msg.contains(needle),
                    "FEN {fen:?}: message {msg:?} lacks {needle:?}"
                );
            }
        }
    }
}

#[test]
fn move_text_parses_and_checks_legality() {
    let pos = Position::startpos();
    let m = pos.parse_move("h2e2").expect("legal");
    assert_eq!(m.to_string(), "h2e2");
    assert_eq!(pos.parse_move("H2E2").expect("upper case"), m);
    assert_eq!(pos.parse_move("b0c2").expect("horse").to_string(), "b0c2");
    for bad in [
        "", "h2", "h2e2x", "z2e2", "h2e:", "h2h2", "0000", "(none)", "é2e2",
    ] {
        let e = pos.parse_move(bad).expect_err(bad);
        assert!(e.to_string().contains("malformed"), "{bad}: {e}");
    }
    for illegal in ["h2h0", "b0b2", "e0e1e", "a3a5", "h9g7", "e3e5"] {
        assert!(pos.parse_move(illegal).is_err(), "{illegal}");
    }
    // Pinned by the flying-general rule: the cannon between the kings cannot leave the file.
    let pinned: Position = "4k4/9/9/9/9/9/9/9/4C4/4K4 w".parse().expect("valid");
    assert!(pinned.parse_move("e1d1").is_err());
    assert!(pinned.parse_move("e1e5").is_ok());
    assert!(pinned.parse_move("e0d0").is_ok());
    // A king may not step onto an open file facing the other king.
    let facing: Position = "3k5/9/9/9/9/9/9/9/9/4K4 w".parse().expect("valid");
    assert!(facing.parse_move("e0d0").is_err());
    assert!(facing.parse_move("e0f0").is_ok());
}

#[test]
fn game_from_moves_is_atomic() {
    let g = Game::from_moves(Position::startpos(), &["h2e2", "h9g7", "h0g2"]).expect("legal");
    assert_eq!(g.moves().len(), 3);
    assert_eq!(g.positions().len(), 4);
    assert_eq!(g.position().side_to_move(), Color::Black);
    let e = Game::from_moves(Position::startpos(), &["h2e2", "h2e2"]).expect_err("illegal");
    assert_eq!(e.ply, 2);
    assert!(e.to_string().contains("illegal move h2e2 at ply 2"), "{e}");
    let e = Game::from_moves(Position::startpos(), &["h2e2", "xx"]).expect_err("malformed");
    assert!(e.to_string().contains("malformed move xx at ply 2"), "{e}");
}
