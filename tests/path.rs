//! Grid paths: every benchmark scenario at its optimal length (the automatic choice on all,
//! every other method on a quarter by default and on all with `--ignored`), energy budgets
//! against brute force, random grids against Dijkstra and BFS for every method, the map
//! cache, and every kind of bad input.
//!
//! `cargo test --release --test path -- --ignored` runs the slow ones: every scenario with
//! every method.

use chariot::path::astar::{Heuristic, Moves, Query, Solver};
use chariot::path::grid::{Cell, Grid};
use chariot::path::method::{MapData, Workspace, METHODS};
use chariot::path::{command, scen, Method};
use proptest::prelude::*;
use std::collections::VecDeque;
use std::path::Path;

const MAPS: &[(&str, usize)] = &[
    ("arena", 160),
    ("lak303d", 1060),
    ("den520d", 888),
    ("Boston_0_256", 950),
    ("brc202d", 1260),
    ("maze512-32-9", 1602),
    ("random512-10-0", 835),
    ("32room_000", 950),
    ("TheFrozenSea", 1480),
    ("maze512-1-9", 891),
    ("maze512-4-6", 1144),
    ("random512-40-5", 1048),
    ("64room_005", 1160),
    ("Paris_1_512", 950),
    ("den602d", 1330),
];

fn data(name: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/maps")
        .join(name)
}

#[test]
fn every_benchmark_scenario_has_its_optimal_length() {
    let mut total = 0;
    for (name, count) in MAPS {
        let path = data(&format!("{name}.map.scen"));
        assert!(path.exists(), "missing test data {}", path.display());
        let s = scen::run(&path, None, Method::Auto).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(s.scenarios, *count, "{name}");
        assert_eq!(s.solved, *count, "{name}: {:?}", s.notes);
        assert_eq!(s.mismatches, 0, "{name}: {:?}", s.notes);
        total += s.scenarios;
    }
    assert_eq!(total, 15708);
}

/// Every `every`-th scenario of every map, with every method that applies (IDA* only on maps
/// within its size limit).
fn methods_on_scenarios(every: usize) {
    let mut ws = Workspace::new();
    for (name, _) in MAPS {
        let (all, map_file) = scen::read(&data(&format!("{name}.map.scen")), None).expect(name);
        let text = std::fs::read_to_string(map_file).expect(name);
        let map = MapData::new(Grid::parse_movingai(&text).expect(name));
        let cells = map.grid.width * map.grid.height;
        for method in METHODS {
            for (i, s) in all.iter().enumerate().step_by(every) {
                let q = scen::query(&map.grid, s, i).expect(name);
                if method.refusal(&q, cells).is_some() {
                    break;
                }
                let out = ws.solve(&map, method, &q);
                let sol = out
                    .solution
                    .unwrap_or_else(|| panic!("{name} {i} {method:?}"));
                assert!(
                    scen::matches(sol.cost, s.optimal),
                    "{name} scenario {} {method:?}: {} vs {}",
                    i + 1,
                    sol.cost,
                    s.optimal
                );
                check_path(&map.grid, &q, &sol.path, sol.cost);
            }
        }
    }
}

#[test]
fn every_method_keeps_the_optimal_lengths_on_a_quarter_of_the_scenarios() {
    methods_on_scenarios(4);
}

#[test]
#[ignore = "slow: every scenario with every method (a few minutes in release)"]
fn every_method_keeps_every_optimal_length() {
    methods_on_scenarios(1);
}

/// A path is connected, starts and ends where asked, never crosses a wall or cuts a corner,
/// and costs what was reported.
fn check_path(g: &Grid, q: &Query, path: &[(usize, usize)], cost: f64) {
    assert_eq!(path.first(), Some(&q.start));
    assert_eq!(path.last(), Some(&q.goal));
    let (st, dg) = q.moves.costs();
    let mut c = 0.0;
    for w in path.windows(2) {
        let (p, n) = (w[0], w[1]);
        let (dx, dy) = (n.0 as i64 - p.0 as i64, n.1 as i64 - p.1 as i64);
        assert!(
            dx.abs() <= 1 && dy.abs() <= 1 && (dx, dy) != (0, 0),
            "{p:?} {n:?}"
        );
        assert!(g.passable(n.0 as i64, n.1 as i64));
        if dx != 0 && dy != 0 {
            assert!(q.moves != Moves::Four);
            assert!(
                g.passable(p.0 as i64 + dx, p.1 as i64) && g.passable(p.0 as i64, p.1 as i64 + dy),
                "corner cut at {p:?}"
            );
            c += dg;
        } else {
            c += st;
        }
    }
    assert!((c - cost).abs() <= 1e-6 * cost.max(1.0), "{c} vs {cost}");
}

#[test]
fn scen_command_summary_line() {
    let p = data("arena.map.scen");
    let out = command(&["scen", p.to_str().expect("utf-8")]).expect("runs");
    assert!(
        out.starts_with("scenarios 160 solved 160 mismatches 0 total_ms "),
        "{out}"
    );
    assert!(out.contains(" method jps+ prep_ms "), "{out}");
    assert!(out.contains(" prep_mb "), "{out}");
    for (method, name) in [
        ("astar", "astar"),
        ("subgoal", "subgoal"),
        ("ch", "ch"),
        ("idastar", "idastar"),
    ] {
        let out = command(&["scen", p.to_str().expect("utf-8"), "--method", method]).expect("runs");
        assert!(out.contains("mismatches 0"), "{out}");
        assert!(out.contains(&format!(" method {name} ")), "{out}");
    }
    let out = command(&["scen", p.to_str().expect("utf-8"), "--jps"]).expect("runs");
    assert!(out.contains(" method jps "), "{out}");
    let big = data("den520d.map.scen");
    let e = command(&["scen", big.to_str().expect("utf-8"), "--method", "idastar"])
        .expect_err("too large")
        .to_string();
    assert!(e.contains("small maps"), "{e}");
    let m = data("arena.map");
    let out = command(&[
        "scen",
        p.to_str().expect("utf-8"),
        "--map",
        m.to_str().expect("utf-8"),
    ])
    .expect("runs");
    assert!(out.contains("mismatches 0"), "{out}");
}

/// Shortest number of steps with an energy budget, by breadth-first search over
/// (cell, energy) with no pruning: 4-connected, unit steps.
fn brute_energy(g: &Grid, start: (usize, usize), goal: (usize, usize), t: u32) -> Option<usize> {
    let layers = t as usize + 1;
    let mut dist = vec![usize::MAX; g.width * g.height * layers];
    let id = |x: usize, y: usize, e: u32| (y * g.width + x) * layers + e as usize;
    let mut q = VecDeque::new();
    dist[id(start.0, start.1, t)] = 0;
    q.push_back((start.0, start.1, t));
    while let Some((x, y, e)) = q.pop_front() {
        let d = dist[id(x, y, e)];
        if (x, y) == goal {
            return Some(d);
        }
        if e == 0 {
            continue;
        }
        for (dx, dy) in [(0i64, -1i64), (0, 1), (-1, 0), (1, 0)] {
            let (nx, ny) = (x as i64 + dx, y as i64 + dy);
            if !g.passable(nx, ny) {
                continue;
            }
            let (nx, ny) = (nx as usize, ny as usize);
            let ne = if g.cells[g.index(nx, ny)] == Cell::Station {
                t
            } else {
                e - 1
            };
            if dist[id(nx, ny, ne)] == usize::MAX {
                dist[id(nx, ny, ne)] = d + 1;
                q.push_back((nx, ny, ne));
            }
        }
    }
    None
}

fn solve_text(rows: &str, energy: Option<u32>) -> (Grid, Option<f64>) {
    let g = Grid::parse_text(rows.split('/')).expect("valid grid");
    let q = Query {
        start: g.start.expect("S"),
        goal: g.goal.expect("G"),
        moves: Moves::Four,
        heuristic: Heuristic::Manhattan,
        energy,
    };
    let out = Solver::new().solve(&g, &q);
    if let Some(sol) = &out.solution {
        // The path is connected, wall-free, never runs dry, and its length is its cost.
        assert_eq!(sol.path.first(), Some(&q.start));
        assert_eq!(sol.path.last(), Some(&q.goal));
        assert_eq!(sol.path.len() as f64 - 1.0, sol.cost);
        let mut left = energy.unwrap_or(u32::MAX);
        for w in sol.path.windows(2) {
            let (a, b) = (w[0], w[1]);
            assert_eq!(a.0.abs_diff(b.0) + a.1.abs_diff(b.1), 1);
            assert!(g.passable(b.0 as i64, b.1 as i64));
            assert!(left >= 1, "ran dry");
            left = if g.cells[g.index(b.0, b.1)] == Cell::Station {
                energy.unwrap_or(u32::MAX)
            } else {
                left - 1
            };
        }
    }
    (g, out.solution.map(|s| s.cost))
}

#[test]
fn energy_detour_through_a_station() {
    // Straight: 9 steps, more than T = 6. Up to the station (5 steps), then on (6 steps).
    let rows = "....+...../S........G";
    let (g, cost) = solve_text(rows, Some(6));
    let bf = brute_energy(&g, g.start.unwrap(), g.goal.unwrap(), 6);
    assert_eq!(bf, Some(11));
    assert_eq!(cost, Some(11.0));
    // Without the budget the straight line wins.
    assert_eq!(solve_text(rows, None).1, Some(9.0));
}

#[test]
fn energy_revisits_a_cell_with_more_energy() {
    // The only station is in a dead end: go in, refill, come back over the same cells.
    let rows = "#####+####/S........G/##########";
    let (g, cost) = solve_text(rows, Some(6));
    let bf = brute_energy(&g, g.start.unwrap(), g.goal.unwrap(), 6);
    assert_eq!(bf, Some(11));
    assert_eq!(cost, Some(11.0));
}

#[test]
fn energy_infeasible() {
    let rows = "S.........G";
    let (g, cost) = solve_text(rows, Some(4));
    assert_eq!(brute_energy(&g, g.start.unwrap(), g.goal.unwrap(), 4), None);
    assert_eq!(cost, None);
    let out = command(&["inline", rows, "energy", "4"]).expect("runs");
    assert!(out.starts_with("no path"), "{out}");
}

/// The passable cells of a `w` × `h` grid, row by row.
fn free_cells(g: &Grid, w: usize, h: usize) -> Vec<(usize, usize)> {
    (0..h)
        .flat_map(|y| (0..w).map(move |x| (x, y)))
        .filter(|&(x, y)| g.passable(x as i64, y as i64))
        .collect()
}

fn random_grid(seed: u64, w: usize, h: usize, walls: u32, stations: u32) -> Grid {
    let mut x = seed | 1;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let mut rows = Vec::new();
    for _ in 0..h {
        let row: String = (0..w)
            .map(|_| {
                let r = (next() % 100) as u32;
                if r < walls {
                    '#'
                } else if r < walls + stations {
                    '+'
                } else {
                    '.'
                }
            })
            .collect();
        rows.push(row);
    }
    Grid::parse_text(rows.iter().map(String::as_str)).expect("valid")
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]
    #[test]
    fn astar_equals_dijkstra_and_bfs(seed in any::<u64>(), w in 2usize..14, h in 2usize..14) {
        let g = random_grid(seed, w, h, 30, 8);
        let free = free_cells(&g, w, h);
        prop_assume!(free.len() >= 2);
        let a = free[(seed % free.len() as u64) as usize];
        let b = free[((seed >> 20) % free.len() as u64) as usize];
        let mut solver = Solver::new();
        for moves in [Moves::Four, Moves::Eight, Moves::EightInt] {
            let q = |heuristic| Query { start: a, goal: b, moves, heuristic, energy: None };
            let fast = solver.solve(&g, &q(moves.default_heuristic())).solution;
            let slow = solver.solve(&g, &q(Heuristic::Zero)).solution;
            let eu = solver.solve(&g, &q(Heuristic::Euclidean)).solution;
            prop_assert_eq!(fast.is_some(), slow.is_some());
            if let (Some(f), Some(s), Some(e)) = (&fast, &slow, &eu) {
                prop_assert!((f.cost - s.cost).abs() < 1e-9 && (e.cost - s.cost).abs() < 1e-9);
                let (st, dg) = moves.costs();
                let mut c = 0.0;
                for win in f.path.windows(2) {
                    let (p, n) = (win[0], win[1]);
                    let (dx, dy) = (n.0 as i64 - p.0 as i64, n.1 as i64 - p.1 as i64);
                    prop_assert!(dx.abs() <= 1 && dy.abs() <= 1 && (dx, dy) != (0, 0));
                    prop_assert!(g.passable(n.0 as i64, n.1 as i64));
                    if dx != 0 && dy != 0 {
                        prop_assert!(moves != Moves::Four);
                        prop_assert!(g.passable(p.0 as i64 + dx, p.1 as i64) && g.passable(p.0 as i64, p.1 as i64 + dy), "corner cut");
                        c += dg;
                    } else {
                        c += st;
                    }
                }
                prop_assert!((c - f.cost).abs() < 1e-9);
                prop_assert_eq!(f.path.first(), Some(&a));
                prop_assert_eq!(f.path.last(), Some(&b));
            }
        }
        let prepared = chariot::path::astar::Prepared::new(&g);
        let mut jumper = chariot::path::jps::Jps::new();
        for moves in [Moves::Eight, Moves::EightInt] {
            let q = Query { start: a, goal: b, moves, heuristic: Heuristic::Octile, energy: None };
            let j = jumper.solve(&prepared, &q).solution;
            let d = solver.solve(&g, &Query { heuristic: Heuristic::Zero, ..q }).solution;
            prop_assert_eq!(j.is_some(), d.is_some());
            if let (Some(j), Some(d)) = (j, d) {
                prop_assert!((j.cost - d.cost).abs() < 1e-9, "jps {} dijkstra {}", j.cost, d.cost);
                let (st, dg) = moves.costs();
                let mut c = 0.0;
                for win in j.path.windows(2) {
                    let (p, n) = (win[0], win[1]);
                    let (dx, dy) = (n.0 as i64 - p.0 as i64, n.1 as i64 - p.1 as i64);
                    prop_assert!(dx.abs() <= 1 && dy.abs() <= 1 && (dx, dy) != (0, 0));
                    prop_assert!(g.passable(n.0 as i64, n.1 as i64));
                    if dx != 0 && dy != 0 {
                        prop_assert!(g.passable(p.0 as i64 + dx, p.1 as i64) && g.passable(p.0 as i64, p.1 as i64 + dy));
                        c += dg;
                    } else {
                        c += st;
                    }
                }
                prop_assert!((c - j.cost).abs() < 1e-9);
            }
        }
        for t in [1u32, 3, 6] {
            let q = Query { start: a, goal: b, moves: Moves::Four, heuristic: Heuristic::Manhattan, energy: Some(t) };
            let got = solver.solve(&g, &q).solution.map(|s| s.cost as usize);
            prop_assert_eq!(got, brute_energy(&g, a, b, t));
        }
    }
}

#[test]
fn command_output_and_moves() {
    let out = command(&["inline", "S..#/.#../...G", "moves", "8"]).expect("runs");
    assert!(out.contains("cost 4.414214"), "{out}");
    assert!(out.contains("moves R R D DR"), "{out}");
    assert!(out.contains("path (0,0) (1,0) (2,0) (2,1) (3,2)"), "{out}");
    let out = command(&["INLINE", "S..#/.#../...G", "MOVES", "8int"]).expect("runs");
    assert!(out.contains("cost 44"), "{out}");
    let out =
        command(&["inline", "0001/0101/0000", "from", "0", "0", "to", "3", "2"]).expect("digits");
    assert!(out.contains("cost 5"), "{out}");
    let m = data("arena.map");
    let out = command(&[
        "map",
        m.to_str().expect("utf-8"),
        "from",
        "1",
        "11",
        "to",
        "1",
        "12",
        "moves",
        "8",
    ])
    .expect("map");
    assert!(out.starts_with("cost 1"), "{out}");
}

#[test]
fn bad_input_is_refused_with_a_reason() {
    let cases: &[(&[&str], &str)] = &[
        (&["inline", "S..#/.#/...G"], "ragged rows"),
        (&["inline", "S.x/..G"], "unknown character 'x'"),
        (&["inline", "S../..."], "no goal"),
        (&["inline", ".../..G"], "no start"),
        (&["inline", "S.S/..G"], "more than one start"),
        (&["inline", "S../..G", "from", "9", "9"], "outside the map"),
        (&["inline", "S#./..G", "from", "1", "0"], "on a wall"),
        (&["inline", "S#./..G", "to", "-1", "0"], "outside the map"),
        (
            &["inline", "S../..G", "moves", "8", "heuristic", "manhattan"],
            "overestimates",
        ),
        (&["inline", "S../..G", "moves", "6"], "bad moves"),
        (&["inline", "S../..G", "energy", "0"], "bad energy"),
        (&["inline", "S../..G", "from", "1"], "missing value"),
        (&["inline", "S../..G", "frobnicate"], "unknown word"),
        (&["inline", "S../..G", "jps"], "jps needs moves 8"),
        (&["from", "0", "0"], "no map"),
        (&[], "usage"),
        (&["map", "/nonexistent/file.map"], "cannot read"),
        (&["scen", "/nonexistent/file.scen"], "cannot read"),
    ];
    for (args, needle) in cases {
        let e = command(args).expect_err(needle).to_string();
        assert!(e.contains(needle), "{args:?}: {e:?} lacks {needle:?}");
    }
    let too_wide = format!(
        "type octile\nheight 1\nwidth 100000\nmap\n{}\n",
        ".".repeat(100)
    );
    assert!(Grid::parse_movingai(&too_wide)
        .unwrap_err()
        .to_string()
        .contains("too large"));
    let rows_mismatch = "type octile\nheight 3\nwidth 2\nmap\n..\n..\n";
    assert!(Grid::parse_movingai(rows_mismatch)
        .unwrap_err()
        .to_string()
        .contains("header says 3 rows"));
    let width_mismatch = "type octile\nheight 2\nwidth 3\nmap\n..\n..\n";
    assert!(Grid::parse_movingai(width_mismatch)
        .unwrap_err()
        .to_string()
        .contains("ragged"));
    let bad_header = "type octile\nheight x\nwidth 3\nmap\n";
    assert!(Grid::parse_movingai(bad_header)
        .unwrap_err()
        .to_string()
        .contains("bad height"));
    assert!(Grid::parse_movingai("").is_err());
    let huge = vec!["."; 9000];
    assert!(Grid::parse_text(huge.iter().copied())
        .unwrap_err()
        .to_string()
        .contains("too large"));
    let e = command(&["inline", &vec!["."; 9000].join("/")])
        .expect_err("too large")
        .to_string();
    assert!(e.contains("too large"), "{e}");
}

#[test]
fn path_in_the_protocol_loop_and_cli() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_chariot"))
        .args(["path", "inline", "S.+/..G", "energy", "2"])
        .output()
        .expect("run");
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("cost 3"));
    let bad = std::process::Command::new(env!("CARGO_BIN_EXE_chariot"))
        .args(["path", "inline", "S.x"])
        .output()
        .expect("run");
    assert_eq!(bad.status.code(), Some(2));
    use std::io::Write;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_chariot"))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("spawn");
    child
        .stdin
        .as_mut()
        .expect("stdin")
        .write_all(b"path inline S..G\npath inline S.x\nisready\n")
        .expect("write");
    // End of input waits for the path answers (an explicit `quit` would not).
    let out = child.wait_with_output().expect("wait");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("cost 3\n"), "{text}");
    assert!(
        text.contains("info string path: unknown character"),
        "{text}"
    );
    assert!(text.contains("readyok"), "{text}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]
    /// Every method (and the automatic choice) that accepts a query finds Dijkstra's length and
    /// a valid path, on random grids with walls, dead ends and stations, with and without an
    /// energy budget.
    #[test]
    fn every_method_equals_dijkstra(seed in any::<u64>(), w in 2usize..16, h in 2usize..16, walls in 10u32..45) {
        let g = random_grid(seed, w, h, walls, 6);
        let free = free_cells(&g, w, h);
        prop_assume!(free.len() >= 2);
        let map = MapData::new(g.clone());
        let mut ws = Workspace::new();
        let mut reference = Solver::new();
        for k in 0..4u64 {
            let a = free[((seed >> (k * 8)) % free.len() as u64) as usize];
            let b = free[((seed >> (k * 8 + 24)) % free.len() as u64) as usize];
            for moves in [Moves::Four, Moves::Eight, Moves::EightInt] {
                for energy in [None, Some(3u32), Some(7)] {
                    let q = Query { start: a, goal: b, moves, heuristic: moves.default_heuristic(), energy };
                    let dijkstra = reference.solve(&g, &Query { heuristic: Heuristic::Zero, ..q }).solution;
                    for method in METHODS.into_iter().chain([Method::Auto]) {
                        if method.refusal(&q, w * h).is_some() {
                            continue;
                        }
                        let got = ws.solve(&map, method, &q).solution;
                        prop_assert_eq!(got.is_some(), dijkstra.is_some(), "{:?} {:?} {:?} {:?}", method, moves, energy, (a, b));
                        if let (Some(got), Some(d)) = (&got, &dijkstra) {
                            prop_assert!((got.cost - d.cost).abs() < 1e-6, "{:?} {:?} {:?}: {} vs {}", method, moves, energy, got.cost, d.cost);
                            if energy.is_none() {
                                check_path(&g, &q, &got.path, got.cost);
                            } else {
                                prop_assert_eq!(got.path.first(), Some(&a));
                                prop_assert_eq!(got.path.last(), Some(&b));
                            }
                        }
                    }
                }
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]
    /// The contraction hierarchy on 40 × 36 grids from sparse to dense walls (deep
    /// hierarchies, many shortcuts): Dijkstra's length and a valid path for moves 8 and 8int,
    /// including ends on subgoals and unreachable goals.
    #[test]
    fn hierarchy_equals_dijkstra_on_larger_grids(seed in any::<u64>(), walls in 3u32..45) {
        let (w, h) = (40, 36);
        let g = random_grid(seed, w, h, walls, 0);
        let free = free_cells(&g, w, h);
        prop_assume!(free.len() >= 2);
        let map = MapData::new(g.clone());
        let mut ws = Workspace::new();
        let mut reference = Solver::new();
        let mut x = seed | 1;
        for _ in 0..12 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let a = free[(x % free.len() as u64) as usize];
            let b = free[((x >> 32) % free.len() as u64) as usize];
            for moves in [Moves::Eight, Moves::EightInt] {
                let q = Query { start: a, goal: b, moves, heuristic: moves.default_heuristic(), energy: None };
                let dijkstra = reference.solve(&g, &Query { heuristic: Heuristic::Zero, ..q }).solution;
                let got = ws.solve(&map, Method::Hierarchy, &q).solution;
                prop_assert_eq!(got.is_some(), dijkstra.is_some(), "{:?} {:?}", moves, (a, b));
                if let (Some(got), Some(d)) = (&got, &dijkstra) {
                    prop_assert!((got.cost - d.cost).abs() < 1e-6, "{:?} {:?}: {} vs {}", moves, (a, b), got.cost, d.cost);
                    check_path(&g, &q, &got.path, got.cost);
                }
            }
        }
    }
}

/// Grids where the hierarchy leaves a core: every pair of a sample against Dijkstra, so the
/// climbs, the core search and the unpacking of shortcuts through it are all exercised.
#[test]
fn hierarchy_with_a_core_equals_dijkstra() {
    for (seed, walls) in [(7u64, 8u32), (11, 5), (13, 10)] {
        let (w, h) = (64, 64);
        let g = random_grid(seed, w, h, walls, 0);
        let map = MapData::new(g.clone());
        let core = map.hierarchy(Moves::Eight).value.core();
        assert!(core > 0, "seed {seed} walls {walls}: no core");
        let free = free_cells(&g, w, h);
        let mut ws = Workspace::new();
        let mut reference = Solver::new();
        for i in 0..60 {
            let a = free[(i * 7919) % free.len()];
            let b = free[(i * 104_729 + 17) % free.len()];
            for moves in [Moves::Eight, Moves::EightInt] {
                let q = Query {
                    start: a,
                    goal: b,
                    moves,
                    heuristic: moves.default_heuristic(),
                    energy: None,
                };
                let d = reference
                    .solve(
                        &g,
                        &Query {
                            heuristic: Heuristic::Zero,
                            ..q
                        },
                    )
                    .solution;
                let got = ws.solve(&map, Method::Hierarchy, &q).solution;
                assert_eq!(got.is_some(), d.is_some(), "{moves:?} {a:?} {b:?}");
                if let (Some(got), Some(d)) = (got, d) {
                    assert!((got.cost - d.cost).abs() < 1e-6, "{moves:?} {a:?} {b:?}");
                    check_path(&g, &q, &got.path, got.cost);
                }
            }
        }
    }
}

#[test]
fn textbook_methods_refuse_large_maps_and_wrong_moves() {
    let big = vec![".".repeat(70); 70].join("/");
    let e = command(&[
        "inline", &big, "from", "0", "0", "to", "5", "5", "method", "iddfs",
    ])
    .expect_err("too large")
    .to_string();
    assert!(e.contains("small maps") && e.contains("4096"), "{e}");
    let e = command(&["inline", "S..G", "moves", "8", "method", "iddfs"])
        .expect_err("unit steps")
        .to_string();
    assert!(e.contains("iddfs needs unit steps"), "{e}");
    let e = command(&["inline", "S..G", "method", "jps+"])
        .expect_err("moves 8")
        .to_string();
    assert!(e.contains("jps+ needs moves 8"), "{e}");
    let e = command(&["inline", "S..G", "method", "bfs"])
        .expect_err("bad method")
        .to_string();
    assert!(e.contains("bad method 'bfs'"), "{e}");
    for (method, moves) in [
        ("iddfs", "4"),
        ("idastar", "8"),
        ("subgoal", "8"),
        ("ch", "8int"),
        ("jps+", "8int"),
    ] {
        let out = command(&[
            "inline",
            "S.#.../...#.G/.#....",
            "moves",
            moves,
            "method",
            method,
        ])
        .expect("runs");
        assert!(out.contains(&format!("method {method}")), "{out}");
    }
    let out = command(&["inline", "S..#/.#../...G", "moves", "8"]).expect("runs");
    assert!(out.contains("method jps+"), "{out}");
    let out = command(&["inline", "S..#/.#../...G"]).expect("runs");
    assert!(out.contains("method astar"), "{out}");
}

#[test]
fn map_files_are_cached_until_they_change() {
    let dir = std::env::temp_dir().join(format!("chariot-path-cache-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("m.map");
    let f = file.to_str().expect("utf-8").to_string();
    let open = "type octile\nheight 3\nwidth 4\nmap\n....\n....\n....\n";
    std::fs::write(&file, open).expect("write");
    let ask = |method: &str| {
        command(&[
            "map", &f, "from", "0", "0", "to", "3", "2", "moves", "8", "method", method,
        ])
        .expect("runs")
    };
    let first = ask("subgoal");
    assert!(first.contains("cost 3.828427"), "{first}");
    assert!(first.contains("prep_ms "), "{first}");
    // Same file: the graph built for the first query is used again.
    let second = ask("subgoal");
    assert!(!second.contains("prep_ms "), "{second}");
    // Changed (another length): read again, and the wall is seen.
    std::fs::write(
        &file,
        "type octile\nheight 3\nwidth 4\nmap\n....\n@@@.\n....\n\n",
    )
    .expect("write");
    let third = ask("subgoal");
    assert!(third.contains("prep_ms "), "{third}");
    assert!(third.contains("cost 5\n"), "{third}");
    let out = command(&["stats", &f]).expect("stats");
    assert!(out.starts_with("width 4 height 3 free 9 "), "{out}");
    std::fs::remove_dir_all(&dir).ok();
}
