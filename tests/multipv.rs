//! MultiPV: N distinct legal first moves per iteration in score order, fewer lines when there
//! are fewer root moves (few legal moves, `searchmoves`), and the best move is line 1.

mod common;

use chariot::board::{Game, Move, Position};
use chariot::search::{Info, InfoSink, Limits, Searcher, Signals};
use common::depth;
use std::sync::Arc;

#[derive(Default)]
struct Record(Vec<Info>);
impl InfoSink for Record {
    fn iteration(&mut self, info: &Info) {
        self.0.push(info.clone());
    }
}

/// Runs a search and returns the lines of its last iteration and the best move.
fn run(fen: &str, multipv: usize, threads: usize, limits: Limits) -> (Vec<Info>, Move) {
    let pos: Position = fen.parse().expect("fen");
    let mut s = Searcher::new(16);
    s.set_threads(threads);
    s.set_multipv(multipv);
    let mut rec = Record::default();
    let r = s.search(
        &Game::new(pos.clone()),
        &limits,
        &Arc::new(Signals::new(false)),
        &mut rec,
    );
    let last = rec.0.last().expect("an iteration").depth;
    let lines: Vec<Info> = rec.0.into_iter().filter(|i| i.depth == last).collect();
    for (k, l) in lines.iter().enumerate() {
        assert_eq!(l.multipv as usize, k + 1);
        assert!(pos.is_legal(l.pv[0]), "illegal {}", l.pv[0]);
    }
    for w in lines.windows(2) {
        assert!(w[0].score >= w[1].score, "out of order: {:?}", lines);
    }
    let mut firsts: Vec<Move> = lines.iter().map(|l| l.pv[0]).collect();
    firsts.sort_by_key(|m| m.to_string());
    firsts.dedup();
    assert_eq!(firsts.len(), lines.len(), "repeated first move");
    let best = r.best.expect("best");
    assert_eq!(best, lines[0].pv[0], "bestmove is not line 1");
    (lines, best)
}

const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w";

#[test]
fn n_lines_in_order_with_one_and_two_threads() {
    for threads in [1, 2] {
        let (lines, _) = run(START, 5, threads, depth(5));
        assert_eq!(lines.len(), 5);
    }
    let (one, _) = run(START, 1, 1, depth(4));
    assert_eq!(one.len(), 1);
}

#[test]
fn fewer_lines_with_fewer_root_moves() {
    // Red's only legal move is the king's step aside.
    let (lines, best) = run("4k4/9/9/9/9/9/9/9/4A4/3AK4 w", 3, 1, depth(3));
    assert_eq!(lines.len(), 1);
    assert_eq!(best.to_string(), "e0f0");
    let pos: Position = START.parse().expect("fen");
    let wanted: Vec<Move> = ["h2e2", "b0c2", "a3a4"]
        .iter()
        .map(|t| pos.parse_move(t).expect("legal"))
        .collect();
    let limits = Limits {
        depth: Some(4),
        root_moves: wanted.clone(),
        ..Default::default()
    };
    let (lines, best) = run(START, 10, 2, limits);
    assert_eq!(lines.len(), 3);
    assert!(lines.iter().all(|l| wanted.contains(&l.pv[0])));
    assert!(wanted.contains(&best));
}
