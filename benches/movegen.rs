//! Move generation benchmarks: legal move generation over fixed positions, and perft 3.

use chariot::board::perft::perft;
use chariot::board::Position;
use criterion::{black_box, criterion_group, criterion_main, Criterion};

fn positions() -> Vec<Position> {
    include_str!("../positions/perft.epd")
        .lines()
        .filter_map(|l| l.split(';').next())
        .filter_map(|f| f.trim().parse().ok())
        .collect()
}

fn bench_movegen(c: &mut Criterion) {
    let ps = positions();
    c.bench_function("legal_moves over perft.epd", |b| {
        b.iter(|| {
            let mut n = 0;
            for p in &ps {
                n += black_box(p).legal_moves().len();
            }
            n
        })
    });
    let start = Position::startpos();
    c.bench_function("perft 3 startpos", |b| {
        b.iter(|| perft(black_box(&start), 3))
    });
}

criterion_group!(benches, bench_movegen);
criterion_main!(benches);
