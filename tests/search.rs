//! Search: forced mates with exact distances, legal moves everywhere, rules inside the search,
//! and the bench signature.

mod common;

use chariot::board::{Game, Position};
use chariot::search::score::{self, UciScore};
use chariot::search::{Control, Limits, NullSink, SearchResult, Searcher};
use std::sync::Arc;

fn search(game: &Game, limits: Limits) -> SearchResult {
    let mut s = Searcher::new(16);
    s.search(game, &limits, &Arc::new(Control::new(false)), &mut NullSink)
}

fn depth(d: u32) -> Limits {
    Limits {
        depth: Some(d),
        ..Default::default()
    }
}

#[test]
fn mates_epd_exact_distance_and_best_move() {
    let lines = common::read_epd(include_str!("../positions/mates.epd"));
    assert_eq!(lines.len(), 28);
    let mut failures = Vec::new();
    for epd in &lines {
        let op = |k: &str| {
            epd.ops
                .iter()
                .find(|(key, _)| key == k)
                .map(|(_, v)| v.clone())
                .unwrap_or_else(|| panic!("{} lacks {k}", epd.fen))
        };
        let dm: i32 = op("dm").parse().expect("dm");
        let bm: Vec<String> = op("bm").split_whitespace().map(String::from).collect();
        let pos: Position = epd.fen.parse().expect("valid");
        // Budget: iterations up to twice the mate distance in plies plus eight.
        let d = 2 * dm.unsigned_abs() + 8;
        let r = search(&Game::new(pos), depth(d));
        let best = r.best.map(|m| m.to_string()).unwrap_or_default();
        let reported = score::uci(r.score);
        if reported != UciScore::Mate(dm) || !bm.contains(&best) {
            failures.push(format!(
                "{}: expected mate {dm} with {bm:?}, got {reported:?} {best} at depth {}",
                epd.fen, r.depth
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
