//! Search benchmarks: fixed-depth searches from the start position and a middlegame.

use chariot::board::{Game, Position};
use chariot::search::{Limits, NullSink, Searcher, Signals};
use criterion::{criterion_group, criterion_main, Criterion};
use std::sync::Arc;

fn search(fen: &str, depth: u32) -> u64 {
    let pos: Position = fen.parse().expect("valid FEN");
    let mut s = Searcher::new(16);
    let limits = Limits {
        depth: Some(depth),
        ..Default::default()
    };
    s.search(
        &Game::new(pos),
        &limits,
        &Arc::new(Signals::new(false)),
        &mut NullSink,
    )
    .nodes
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("search");
    g.sample_size(10);
    g.bench_function("startpos depth 8", |b| {
        b.iter(|| search(chariot::board::START_FEN, 8))
    });
    g.bench_function("middlegame depth 7", |b| {
        b.iter(|| {
            search(
                "2bakab1r/7C1/3r2n2/p2C2p1p/2P5P/1c3p1c1/P3P1P2/2N6/R5R2/2BAKABN1 w - - 39 29",
                7,
            )
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
