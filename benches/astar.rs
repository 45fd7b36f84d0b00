//! `path` on Moving AI maps: every method of Chariot and the automatic choice against the
//! generic `astar` of the `pathfinding` crate on the same queries (octile heuristic, no corner
//! cutting), with the optimal lengths checked for all of them.
//!
//! The maps are every `X.map.scen` (with `X.map` beside it) in `CHARIOT_MAPS` (default
//! `tests/data/maps`); `CHARIOT_EVERY=n` takes every n-th scenario of each file (default 25,
//! so the buckets stay spread over all lengths). Before the criterion groups (the automatic
//! choice and `pathfinding` per map; `CHARIOT_BENCH_ALL=1` adds every method) it prints a table
//! of its own: per map the median over at least 5 runs (and a quarter of a second of runs) of
//! the mean time per query of each method, the preparation alone (built afresh, median of 3)
//! and amortised over the whole scenario file.

use chariot::path::astar::{Moves, Query};
use chariot::path::grid::Grid;
use chariot::path::method::{MapData, Method, Workspace, METHODS};
use chariot::path::scen::{self, Scenario};
use criterion::{criterion_group, criterion_main, Criterion};
use std::path::PathBuf;
use std::time::Instant;

struct Map {
    name: String,
    data: MapData,
    /// Scenarios in the whole file.
    total: usize,
    scens: Vec<Scenario>,
    queries: Vec<Query>,
}

fn maps() -> Vec<Map> {
    let dir = std::env::var("CHARIOT_MAPS")
        .map(PathBuf::from)
        .unwrap_or_else(|_| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/maps"));
    let every: usize = std::env::var("CHARIOT_EVERY")
        .ok()
        .and_then(|v| v.parse().ok())
        .filter(|&n| n > 0)
        .unwrap_or(25);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.to_string_lossy().ends_with(".map.scen"))
        .collect();
    // Smallest map first.
    files.sort_by_key(|p| {
        let map = p.with_extension("");
        (std::fs::metadata(&map).map_or(0, |m| m.len()), p.clone())
    });
    files
        .into_iter()
        .map(|scen_file| {
            let (all, map_file) = scen::read(&scen_file, None).expect("valid scenarios");
            let text = std::fs::read_to_string(&map_file).expect("map file");
            let grid = Grid::parse_movingai(&text).expect("valid map");
            let total = all.len();
            let scens: Vec<Scenario> = all.into_iter().step_by(every).collect();
            let queries = scens
                .iter()
                .enumerate()
                .map(|(i, s)| scen::query(&grid, s, i).expect("valid query"))
                .collect();
            let name = map_file
                .file_stem()
                .map_or(String::new(), |s| s.to_string_lossy().into_owned());
            Map {
                name,
                data: MapData::new(grid),
                total,
                scens,
                queries,
            }
        })
        .collect()
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

fn run_all(ws: &mut Workspace, map: &Map, method: Method) -> f64 {
    map.queries
        .iter()
        .map(|q| {
            ws.solve(&map.data, method, q)
                .solution
                .map_or(f64::NAN, |p| p.cost)
        })
        .sum()
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Runs of each timing go on past the minimum count until they have taken this long, so a
/// fast method is timed over as long a stretch as a slow one and a burst of other work on the
/// machine cannot cover most of its runs.
const MIN_SECONDS: f64 = 0.25;

/// Median over at least `runs` runs (and `MIN_SECONDS`, at most 1000 runs) of the mean
/// microseconds per query of `f` (which runs every query).
fn per_query_us(queries: usize, runs: usize, mut f: impl FnMut()) -> f64 {
    let start = Instant::now();
    let mut times = Vec::new();
    while times.len() < runs || (start.elapsed().as_secs_f64() < MIN_SECONDS && times.len() < 1000)
    {
        let t = Instant::now();
        f();
        times.push(t.elapsed().as_secs_f64() * 1e6 / queries.max(1) as f64);
    }
    median(times)
}

/// The methods that apply to the scenarios of `map` (8-connected, no energy).
fn methods(map: &Map) -> Vec<Method> {
    let cells = map.data.grid.width * map.data.grid.height;
    METHODS
        .into_iter()
        .filter(|m| {
            map.queries
                .first()
                .is_some_and(|q| m.refusal(q, cells).is_none())
        })
        .collect()
}

fn check(map: &Map) {
    let mut ws = Workspace::new();
    for m in methods(map).into_iter().chain([Method::Auto]) {
        for (s, q) in map.scens.iter().zip(&map.queries) {
            let c = ws
                .solve(&map.data, m, q)
                .solution
                .map_or(f64::NAN, |p| p.cost);
            assert!(
                scen::matches(c, s.optimal),
                "{} {}: {c} vs {}",
                map.name,
                m.name(),
                s.optimal
            );
        }
    }
    for s in &map.scens {
        assert!(
            scen::matches(crate_astar(&map.data.grid, s), s.optimal),
            "{} pathfinding",
            map.name
        );
    }
}

fn table(maps: &[Map]) {
    println!(
        "\n| map | queries | auto | auto µs/query | best | best µs/query | A* µs/query | pathfinding µs/query | speed-up | speed-up amortised | prep_ms | prep_mb |"
    );
    println!("|---|---:|---|---:|---|---:|---:|---:|---:|---:|---:|---:|");
    for map in maps {
        let mut ws = Workspace::new();
        let n = map.queries.len();
        let q0 = map.queries.first().copied().expect("a query");
        debug_assert!(q0.moves == Moves::Eight);
        let auto = map.data.choose(&q0);
        let mut times = Vec::new();
        for m in methods(map) {
            map.data.prepare(m);
            run_all(&mut ws, map, m);
            let us = per_query_us(n, 5, || {
                std::hint::black_box(run_all(&mut ws, map, m));
            });
            times.push((m, us));
        }
        let pf = per_query_us(n, 3, || {
            std::hint::black_box(
                map.scens
                    .iter()
                    .map(|s| crate_astar(&map.data.grid, s))
                    .sum::<f64>(),
            );
        });
        // Preparation alone: built afresh on a copy of the map.
        let prep: Vec<(f64, usize)> = (0..3)
            .map(|_| MapData::new(map.data.grid.clone()).prepare(auto))
            .collect();
        let prep_ms = median(prep.iter().map(|p| p.0).collect());
        let prep_mb = prep[0].1 as f64 / (1 << 20) as f64;
        let auto_us = times.iter().find(|t| t.0 == auto).map_or(f64::NAN, |t| t.1);
        let best = *times
            .iter()
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .expect("a method");
        let astar_us = times
            .iter()
            .find(|t| t.0 == Method::Astar)
            .map_or(f64::NAN, |t| t.1);
        let amortised = auto_us + prep_ms * 1000.0 / map.total as f64;
        println!(
            "| {} | {n} of {} | {} | {auto_us:.1} | {} | {:.1} | {astar_us:.1} | {pf:.1} | {:.1}× | {:.1}× | {prep_ms:.1} | {prep_mb:.1} |",
            map.name,
            map.total,
            auto.name(),
            best.0.name(),
            best.1,
            pf / auto_us,
            pf / amortised
        );
        let all: Vec<String> = times
            .iter()
            .map(|(m, us)| format!("{} {us:.1}", m.name()))
            .collect();
        println!("<!-- {}: {} -->", map.name, all.join(", "));
    }
    println!();
}

fn bench(c: &mut Criterion) {
    let maps = maps();
    for map in &maps {
        check(map);
    }
    table(&maps);
    let every_method = std::env::var("CHARIOT_BENCH_ALL").is_ok_and(|v| v == "1");
    for map in &maps {
        let mut g = c.benchmark_group(format!("{} ({} queries)", map.name, map.queries.len()));
        g.sample_size(10);
        let mut ws = Workspace::new();
        let mut ours = vec![Method::Auto];
        if every_method {
            ours.extend(methods(map));
        }
        for m in ours {
            map.data.prepare(m);
            g.bench_function(m.name(), |b| b.iter(|| run_all(&mut ws, map, m)));
        }
        g.bench_function("pathfinding", |b| {
            b.iter(|| {
                map.scens
                    .iter()
                    .map(|s| crate_astar(&map.data.grid, s))
                    .sum::<f64>()
            })
        });
        g.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
