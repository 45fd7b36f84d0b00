//! Lazy SMP: several threads give the exact mate distances and legal moves, the pool is
//! resized between searches and survives a new game, and `stop` reaches every thread at once.

mod common;

use chariot::board::{Game, Position};
use chariot::protocol::output::{uci, UciScore};
use chariot::search::{Limits, NullSink, Searcher, Signals};
use std::sync::Arc;
use std::time::{Duration, Instant};

fn mates(threads: usize) {
    let lines = common::read_epd(include_str!("../positions/mates.epd"));
    let mut s = Searcher::new(16);
    s.set_threads(threads);
    assert_eq!(s.threads(), threads);
    let mut failures = Vec::new();
    for epd in &lines {
        let dm: i32 = epd
            .ops
            .iter()
            .find(|(k, _)| k == "dm")
            .and_then(|(_, v)| v.parse().ok())
            .expect("dm");
        if dm.abs() > 4 {
            continue; // the deeper ones cost seconds each; one thread tests them all
        }
        let pos: Position = epd.fen.parse().expect("valid");
        s.clear();
        let limits = common::mate_limits(dm);
        let game = Game::new(pos.clone());
        let r = s.search(
            &game,
            &limits,
            &Arc::new(Signals::new(false)),
            &mut NullSink,
        );
        let best = r.best.expect("a move");
        if uci(r.score) != UciScore::Mate(dm) || !pos.is_legal(best) {
            failures.push(format!(
                "{}: mate {dm}, got {:?} {best}",
                epd.fen,
                uci(r.score)
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{threads} threads:\n{}",
        failures.join("\n")
    );
}

#[test]
fn two_threads_find_exact_mates() {
    mates(2);
}

#[test]
fn four_threads_find_exact_mates() {
    mates(4);
}

#[test]
fn resizing_and_new_games_between_searches() {
    let mut s = Searcher::new(4);
    let game = Game::new(Position::startpos());
    let limits = Limits {
        depth: Some(6),
        ..Default::default()
    };
    for n in [3, 1, 4, 2, 2, 1] {
        s.set_threads(n);
        s.clear();
        assert_eq!(s.threads(), n);
        let r = s.search(
            &game,
            &limits,
            &Arc::new(Signals::new(false)),
            &mut NullSink,
        );
        assert!(Position::startpos().is_legal(r.best.expect("move")));
        assert_eq!(r.depth, 6);
    }
    s.set_threads(100_000);
    assert_eq!(s.threads(), 1024);
    s.set_threads(2);
    assert_eq!(s.threads(), 2);
}

#[test]
fn stop_reaches_every_thread_at_once() {
    let mut s = Searcher::new(16);
    s.set_threads(4);
    let signals = Arc::new(Signals::new(false));
    let c = Arc::clone(&signals);
    let h = std::thread::spawn(move || {
        let limits = Limits {
            infinite: true,
            ..Default::default()
        };
        let r = s.search(&Game::new(Position::startpos()), &limits, &c, &mut NullSink);
        (r, s)
    });
    std::thread::sleep(Duration::from_millis(300));
    let t = Instant::now();
    signals.stop();
    let (r, s) = h.join().expect("search thread");
    assert!(
        t.elapsed() < Duration::from_millis(50),
        "stop took {:?}",
        t.elapsed()
    );
    assert!(r.nodes > 0 && Position::startpos().is_legal(r.best.expect("move")));
    assert_eq!(s.threads(), 4);
}
