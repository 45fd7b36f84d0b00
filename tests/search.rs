//! Search: forced mates with exact distances, legal moves everywhere, rules inside the search,
//! and the bench signature.

mod common;

use chariot::board::rules::{Outcome, Reason};
use chariot::board::{Color, Game, Position};
use chariot::protocol::output::{uci, UciScore};
use chariot::score::Score;
use chariot::search::{Limits, NullSink, SearchResult, Searcher, Signals};
use common::depth;
use std::sync::Arc;

fn search(game: &Game, limits: Limits) -> SearchResult {
    let mut s = Searcher::new(16);
    s.search(game, &limits, &Arc::new(Signals::new(false)), &mut NullSink)
}

/// A line of `positions/mates.epd`: the position, the mate distance (`dm`, negative when the
/// side to move is mated) and the best moves (`bm`).
fn mate_case(epd: &common::Epd) -> (Position, i32, Vec<String>) {
    let op = |k: &str| {
        epd.ops
            .iter()
            .find(|(key, _)| key == k)
            .map(|(_, v)| v.clone())
            .unwrap_or_else(|| panic!("{} lacks {k}", epd.fen))
    };
    let dm: i32 = op("dm").parse().expect("dm");
    let bm: Vec<String> = op("bm").split_whitespace().map(String::from).collect();
    (epd.fen.parse().expect("valid"), dm, bm)
}

/// What is wrong with search result `r` on a mates.epd line, if anything.
fn mate_failure(epd: &common::Epd, dm: i32, bm: &[String], r: &SearchResult) -> Option<String> {
    let best = r.best.map(|m| m.to_string()).unwrap_or_default();
    let reported = uci(r.score);
    (reported != UciScore::Mate(dm) || !bm.contains(&best)).then(|| {
        format!(
            "{}: expected mate {dm} with {bm:?}, got {reported:?} {best} at depth {}",
            epd.fen, r.depth
        )
    })
}

#[test]
fn mates_epd_exact_distance_and_best_move() {
    let lines = common::read_epd(include_str!("../positions/mates.epd"));
    assert_eq!(lines.len(), 28);
    let mut failures = Vec::new();
    for epd in &lines {
        let (pos, dm, bm) = mate_case(epd);
        let r = search(&Game::new(pos), common::mate_limits(dm));
        failures.extend(mate_failure(epd, dm, &bm, &r));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Every mate with the network (and so with ProbCut, on by default), within the same limits.
#[test]
fn mates_epd_exact_distance_with_the_network() {
    let lines = common::read_epd(include_str!("../positions/mates.epd"));
    let mut failures = Vec::new();
    for epd in &lines {
        let (pos, dm, bm) = mate_case(epd);
        let mut s = Searcher::new(16);
        s.set_network(Some(chariot::eval::nnue::default_network()));
        let r = s.search(
            &Game::new(pos),
            &common::mate_limits(dm),
            &Arc::new(Signals::new(false)),
            &mut NullSink,
        );
        failures.extend(mate_failure(epd, dm, &bm, &r));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// ProbCut (on by default) cuts nodes: a smaller tree at the same depth in an opening with
/// pieces out than with it off (from the start position itself, where no capture clears the
/// margin, it only adds nodes). That it keeps every mate is the test above, which runs with
/// the defaults.
#[test]
fn probcut_cuts_nodes() {
    let with = |on: bool| {
        let mut s = Searcher::new(16);
        s.set_network(Some(chariot::eval::nnue::default_network()));
        if !on {
            s.params_mut().set("probcut_depth", 0.0).expect("in range");
        }
        s
    };
    let nodes = |on: bool| {
        let moves = ["h2e2", "h9g7", "h0g2", "i9h9"];
        let game = Game::from_moves(Position::startpos(), &moves).expect("legal");
        let r = with(on).search(
            &game,
            &depth(11),
            &Arc::new(Signals::new(false)),
            &mut NullSink,
        );
        r.nodes
    };
    let (off, on) = (nodes(false), nodes(true));
    assert!(
        on < off,
        "ProbCut searched {on} nodes to depth 11, without it {off}"
    );
}

#[test]
fn legal_move_in_every_perft_position() {
    for epd in common::read_epd(include_str!("../positions/perft.epd")) {
        let pos: Position = epd.fen.parse().expect("valid");
        let r = search(&Game::new(pos.clone()), depth(3));
        match r.best {
            Some(m) => assert!(pos.is_legal(m), "{m} in {}", epd.fen),
            None => assert!(pos.legal_moves().is_empty(), "no move in {}", epd.fen),
        }
        if let Some(p) = r.ponder {
            let m = r.best.expect("ponder implies best");
            assert!(
                pos.play(m).is_legal(p),
                "ponder {p} after {m} in {}",
                epd.fen
            );
        }
    }
}

#[test]
fn perpetual_check_loses_for_the_checker() {
    // Red has checked with every move; Black's only reply makes the third occurrence.
    let start: Position = "5k3/R8/9/5P3/9/9/9/9/9/3K5 w - - 0 1"
        .parse()
        .expect("valid");
    let game = Game::from_moves(
        start,
        &["a8a9", "f9f8", "a9a8", "f8f9", "a8a9", "f9f8", "a9a8"],
    )
    .expect("legal");
    assert_eq!(game.position().legal_moves().len(), 1);
    let r = search(&game, depth(4));
    assert_eq!(r.best.map(|m| m.to_string()).as_deref(), Some("f8f9"));
    assert_eq!(
        r.score,
        Score::ban_win(1),
        "Black wins by Red's perpetual check"
    );
    assert_eq!(uci(r.score), UciScore::Mate(1));
}

#[test]
fn perpetual_check_on_the_120th_ply_still_loses() {
    // As above, but the third occurrence falls on the 120th ply without a capture: the referee
    // judges the repetition before the 60-move rule, and so must the search (a game was once
    // lost by perpetual check that the engine had scored as a 60-move draw).
    let start: Position = "5k3/R8/9/5P3/9/9/9/9/9/3K5 w - - 112 1"
        .parse()
        .expect("valid");
    let moves = ["a8a9", "f9f8", "a9a8", "f8f9", "a8a9", "f9f8", "a9a8"];
    let game = Game::from_moves(start, &moves).expect("legal");
    assert_eq!(game.position().halfmove_clock(), 119);
    let r = search(&game, depth(4));
    assert_eq!(r.best.map(|m| m.to_string()).as_deref(), Some("f8f9"));
    assert_eq!(
        r.score,
        Score::ban_win(1),
        "Black wins by Red's perpetual check"
    );
    let mut done = game.clone();
    done.play(r.best.expect("a move")).expect("legal");
    assert_eq!(done.position().halfmove_clock(), 120);
    assert_eq!(
        done.outcome(400),
        Some(Outcome::Win(Color::Black, Reason::PerpetualCheck))
    );
}

#[test]
fn plain_repetition_is_a_draw() {
    let game = Game::from_moves(
        Position::startpos(),
        &["h0g2", "h9g7", "g2h0", "g7h9", "h0g2", "h9g7", "g2h0"],
    )
    .expect("legal");
    let only = game.position().parse_move("g7h9").expect("legal");
    let r = search(
        &game,
        Limits {
            depth: Some(5),
            root_moves: vec![only],
            ..Default::default()
        },
    );
    assert_eq!(r.best, Some(only));
    assert_eq!(
        r.score,
        Score::DRAW,
        "third occurrence without checks is a draw"
    );
    // Without the history the same move is an ordinary move with an ordinary score.
    let fresh = Game::new(game.position().clone());
    let r2 = search(
        &fresh,
        Limits {
            depth: Some(5),
            root_moves: vec![only],
            ..Default::default()
        },
    );
    assert_ne!(r2.score, Score::DRAW);
}

#[test]
fn a_repeat_in_the_search_is_judged_from_the_first_occurrence() {
    // From a game lost by this once: Red, a rook up, shuffles f4f3 f3f4 while Black shuffles
    // the horse, so f3f4 makes the second occurrence. Black then checks with c0c1 and c1c0
    // (the general's replies are forced) to reach the third. Over the last loop alone Black
    // checked every move, but the referee judges from the first occurrence, where Black's horse
    // moves were no checks: a draw, not Black's perpetual check.
    let start: Position = "3a1kb2/9/3ab4/2cN5/1R6p/2Nn1CP2/8P/5A3/4K4/2r2A3 b - - 0 53"
        .parse()
        .expect("valid");
    let game = Game::from_moves(start, &["d4e6", "f4f3", "e6d4"]).expect("legal");
    let repeat = game.position().parse_move("f3f4").expect("legal");
    let r = search(
        &game,
        Limits {
            depth: Some(7),
            root_moves: vec![repeat],
            ..Default::default()
        },
    );
    assert_eq!(r.score, Score::DRAW, "Black's checks draw");
    // The referee agrees: the line played out is a threefold repetition.
    let mut done = game.clone();
    for m in ["f3f4", "c0c1", "e1e0", "c1c0", "e0e1"] {
        let m = done.position().parse_move(m).expect("legal");
        done.play(m).expect("legal");
    }
    assert_eq!(done.outcome(400), Some(Outcome::Draw(Reason::Repetition)));
}

#[test]
fn sixty_move_rule_draws() {
    let fen = |clock: u32| format!("5k3/9/9/9/9/9/9/9/9/R2K5 w - - {clock} 80");
    let drawn = search(&Game::new(fen(119).parse().expect("valid")), depth(6));
    assert_eq!(
        drawn.score,
        Score::DRAW,
        "every move reaches 120 plies without capture"
    );
    let fresh = search(&Game::new(fen(0).parse().expect("valid")), depth(6));
    assert!(fresh.score > Score::cp(500), "a rook up: {}", fresh.score);
    // A mate on the 120th ply still counts: no legal move beats the move-count draw.
    let mate: Position = "3k5/9/9/9/9/9/9/9/9/R3K4 w - - 119 80"
        .parse()
        .expect("valid");
    let r = search(&Game::new(mate), depth(4));
    assert_eq!(r.best.map(|m| m.to_string()).as_deref(), Some("a0d0"));
    assert_eq!(uci(r.score), UciScore::Mate(1));
}

/// A search stopped before its first iteration completes plays the hash move, as
/// `SearchResult::lines` promises, not the first move generated.
#[test]
fn a_search_stopped_at_once_plays_the_hash_move() {
    let game = Game::new(Position::startpos());
    let mut s = Searcher::new(16);
    let signals = Arc::new(Signals::new(false));
    let deep = s.search(&game, &depth(6), &signals, &mut NullSink);
    let first = game.position().legal_moves().iter().next();
    assert_ne!(
        deep.best, first,
        "the test needs a best move other than the first"
    );
    // Every line at depth 1 is more than the 1024 nodes after which the stop is seen.
    s.set_multipv(128);
    let stopped = Arc::new(Signals::new(false));
    stopped.stop();
    let r = s.search(&game, &depth(6), &stopped, &mut NullSink);
    assert!(r.lines.is_empty(), "{r:?}");
    assert_eq!(r.best, deep.best);
}

#[test]
fn bench_signature_is_deterministic() {
    let expected: u64 = include_str!("bench_signature.txt")
        .trim()
        .parse()
        .expect("signature file holds a number");
    let depth = chariot::search::bench::DEFAULT_DEPTH;
    let (a, _) = chariot::search::bench::bench(depth);
    let (b, _) = chariot::search::bench::bench(depth);
    assert_eq!(a, b, "bench is deterministic");
    assert_eq!(
        a, expected,
        "bench signature changed: update tests/bench_signature.txt if the search changed on purpose"
    );
}

/// Red's rook has chased Black's cannon (unprotected) with every move: d2c2 c7d7 c2d2 d7c7 …
const CHASE: [&str; 8] = [
    "d2c2", "c7d7", "c2d2", "d7c7", "d2c2", "c7d7", "c2d2", "d7c7",
];

#[test]
fn perpetual_chase_wins_for_the_chased_side() {
    // Black's reply d7c7 makes the third occurrence: Red, the chaser, loses (a check-only rule
    // would score it a draw).
    let start: Position = "5k3/9/2c6/9/9/9/9/3R5/9/4K4 w - - 0 1"
        .parse()
        .expect("valid");
    let game = Game::from_moves(start, &CHASE[..7]).expect("legal");
    let r = search(&game, depth(4));
    assert_eq!(r.best.map(|m| m.to_string()).as_deref(), Some("d7c7"));
    assert_eq!(
        r.score,
        Score::ban_win(1),
        "Black wins by Red's perpetual chase"
    );
}

#[test]
fn the_engine_does_not_chase_into_a_lost_repetition() {
    // Black has a horse and two pawns more; after six plies of the chase, c2d2 repeats
    // the chase and Black's d7c7 then makes the third occurrence. A draw under check-only
    // rules, a loss under the chase rule: Red must play something else.
    let start: Position = "5k3/9/2c4n1/9/9/9/6p1p/3R5/9/4K4 w - - 0 1"
        .parse()
        .expect("valid");
    let game = Game::from_moves(start.clone(), &CHASE[..6]).expect("legal");
    let chase = game.position().parse_move("c2d2").expect("legal");
    let r = search(&game, depth(6));
    assert_ne!(r.best, Some(chase), "score {}", r.score);
    assert!(!r.score.is_decisive(), "no rule loss: {}", r.score);
    // (Whether Black is ahead is the evaluation's business: with quiet checks in quiescence the
    // search finds play for Red's rook at depth 6 and more; what matters here is the rule.)
    // Forced to repeat, the engine sees the loss.
    let forced = search(
        &game,
        Limits {
            depth: Some(6),
            root_moves: vec![chase],
            ..Default::default()
        },
    );
    assert_eq!(forced.score, Score::ban_loss(2));
}
