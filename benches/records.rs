//! Game-record benchmarks: reading and writing PGN in each notation, XQF and DhtmlXQ, in
//! games a second (criterion's throughput). The games are 200 games of 100 seeded random
//! plies from the start position. The bar is 10,000 games a second on one core for PGN and XQF
//! (docs/records.md has the numbers).

use chariot::board::{Notation, Position};
use chariot::record::{self, Format, Node, Record};
use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

const GAMES: usize = 200;

fn games() -> Vec<Record> {
    let mut rng = StdRng::seed_from_u64(1);
    (0..GAMES)
        .map(|i| {
            let mut pos = Position::startpos();
            let mut r = Record::new(pos.clone());
            r.set_tag("Event", "bench");
            r.set_tag("Round", &i.to_string());
            r.set_tag("Result", "1/2-1/2");
            for _ in 0..100 {
                let legal = pos.legal_moves();
                if legal.is_empty() {
                    break;
                }
                let m = legal.get(rng.random_range(0..legal.len()));
                r.moves.push(Node::new(m));
                pos = pos.play(m);
            }
            r
        })
        .collect()
}

fn bench_records(c: &mut Criterion) {
    let games = games();
    let mut group = c.benchmark_group("records");
    group.throughput(Throughput::Elements(GAMES as u64));
    let cases = [
        ("pgn iccs", Format::Pgn, Notation::Iccs),
        ("pgn wxf", Format::Pgn, Notation::Wxf),
        ("pgn chinese", Format::Pgn, Notation::Chinese),
        ("dhtmlxq", Format::DhtmlXq, Notation::Iccs),
    ];
    for (name, format, notation) in cases {
        let bytes = record::write(&games, format, notation);
        group.bench_function(format!("read {name}"), |b| {
            b.iter(|| record::read(black_box(&bytes)).len())
        });
        group.bench_function(format!("write {name}"), |b| {
            b.iter(|| record::write(black_box(&games), format, notation).len())
        });
    }
    // XQF holds one game a file.
    let files: Vec<Vec<u8>> = games
        .iter()
        .map(|g| record::write(std::slice::from_ref(g), Format::Xqf, Notation::Iccs))
        .collect();
    group.bench_function("read xqf", |b| {
        b.iter(|| {
            files
                .iter()
                .map(|f| record::read(black_box(f)).len())
                .sum::<usize>()
        })
    });
    group.bench_function("write xqf", |b| {
        b.iter(|| {
            games
                .iter()
                .map(|g| {
                    record::write(
                        std::slice::from_ref(black_box(g)),
                        Format::Xqf,
                        Notation::Iccs,
                    )
                    .len()
                })
                .sum::<usize>()
        })
    });
    group.finish();
}

criterion_group!(benches, bench_records);
criterion_main!(benches);
