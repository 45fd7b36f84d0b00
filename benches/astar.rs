//! A* on the larger Moving AI maps: Chariot's solver against the generic `astar` of the
//! `pathfinding` crate on the same queries (octile heuristic, no corner cutting), with the
//! optimal lengths checked for both.

use chariot::path::astar::{Heuristic, Moves, Prepared, Query, Solver};
use chariot::path::grid::Grid;
use chariot::path::jps::Jps;
use chariot::path::scen::{self, Scenario};
use criterion::{criterion_group, criterion_main, Criterion};

const MAPS: &[&str] = &[
    "den520d",
    "brc202d",
    "maze512-32-9",
    "random512-10-0",
    "32room_000",
    "TheFrozenSea",
];
/// Every n-th scenario of a map is used (the buckets stay spread over all lengths).
const EVERY: usize = 25;

fn load(name: &str) -> (Grid, Vec<Scenario>) {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/maps/");
    let map = std::fs::read_to_string(format!("{dir}{name}.map")).expect("map file");
    let scen = std::fs::read_to_string(format!("{dir}{name}.map.scen")).expect("scen file");
    let grid = Grid::parse_movingai(&map).expect("valid map");
    let all = scen::parse(&scen).expect("valid scenarios");
    (grid, all.into_iter().step_by(EVERY).collect())
}

/// Integer costs for the crate: straight 1e6, diagonal ⌈√2·1e6⌉ (admissible, exact to 1e-6).
const S: u64 = 1_000_000;
const D: u64 = 1_414_214;

fn crate_astar(grid: &Grid, s: &Scenario) -> f64 {
    let (w, h) = (grid.width as i64, grid.height as i64);
    let free = |x: i64, y: i64| grid.passable(x, y);
    let goal = s.goal;
    let r = pathfinding::directed::astar::astar(
        &s.start,
        |&(x, y)| {
            let mut v = Vec::with_capacity(8);
            for (dx, dy) in [
                (0, -1),
                (0, 1),
                (-1, 0),
                (1, 0),
                (-1, -1),
                (1, -1),
                (-1, 1),
                (1, 1),
            ] {
                let (nx, ny) = (x + dx, y + dy);
                if nx < 0 || ny < 0 || nx >= w || ny >= h || !free(nx, ny) {
                    continue;
                }
                if dx != 0 && dy != 0 && !(free(x + dx, y) && free(x, y + dy)) {
                    continue;
                }
                v.push(((nx, ny), if dx != 0 && dy != 0 { D } else { S }));
            }
            v
        },
        |&(x, y)| {
            let (dx, dy) = ((x - goal.0).unsigned_abs(), (y - goal.1).unsigned_abs());
            let (hi, lo) = (dx.max(dy), dx.min(dy));
            (hi - lo) * S + lo * D
        },
        |&p| p == goal,
    );
    r.map_or(f64::NAN, |(_, c)| c as f64 / S as f64)
}

fn ours(solver: &mut Solver, grid: &Prepared, s: &Scenario) -> f64 {
    let q = Query {
        start: (s.start.0 as usize, s.start.1 as usize),
        goal: (s.goal.0 as usize, s.goal.1 as usize),
        moves: Moves::Eight,
        heuristic: Heuristic::Octile,
        energy: None,
    };
    solver
        .solve_prepared(grid, &q)
        .solution
        .map_or(f64::NAN, |p| p.cost)
}

fn bench(c: &mut Criterion) {
    for name in MAPS {
        let (grid, scens) = load(name);
        let prepared = Prepared::new(&grid);
        let mut solver = Solver::new();
        for s in &scens {
            assert!(
                scen::matches(ours(&mut solver, &prepared, s), s.optimal),
                "{name}"
            );
            assert!(
                (crate_astar(&grid, s) - s.optimal).abs() <= 1e-4 * s.optimal.max(1.0),
                "{name}"
            );
        }
        let mut g = c.benchmark_group(format!("{name} ({} queries)", scens.len()));
        g.sample_size(10);
        g.bench_function("chariot", |b| {
            b.iter(|| {
                scens
                    .iter()
                    .map(|s| ours(&mut solver, &prepared, s))
                    .sum::<f64>()
            })
        });
        let mut jumper = Jps::new();
        let q = |s: &Scenario| Query {
            start: (s.start.0 as usize, s.start.1 as usize),
            goal: (s.goal.0 as usize, s.goal.1 as usize),
            moves: Moves::Eight,
            heuristic: Heuristic::Octile,
            energy: None,
        };
        for s in &scens {
            let c = jumper
                .solve(&prepared, &q(s))
                .solution
                .map_or(f64::NAN, |p| p.cost);
            assert!(scen::matches(c, s.optimal), "{name} jps");
        }
        g.bench_function("chariot jps", |b| {
            b.iter(|| {
                scens
                    .iter()
                    .map(|s| {
                        jumper
                            .solve(&prepared, &q(s))
                            .solution
                            .map_or(0.0, |p| p.cost)
                    })
                    .sum::<f64>()
            })
        });
        g.bench_function("pathfinding", |b| {
            b.iter(|| scens.iter().map(|s| crate_astar(&grid, s)).sum::<f64>())
        });
        g.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
