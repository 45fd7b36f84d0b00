//! Moving AI scenario files: every query solved and checked against its optimal length.

use super::astar::{Heuristic, Moves, Query};
use super::cache::{self, Source};
use super::grid::{Grid, GridError};
use super::method::{MapData, Method, Workspace};
use crate::host::Instant;
use std::path::{Path, PathBuf};

/// One scenario line.
#[derive(Clone, Debug)]
pub struct Scenario {
    /// Map file name as written (directory prefix possible).
    pub map: String,
    /// Start (x, y).
    pub start: (i64, i64),
    /// Goal (x, y).
    pub goal: (i64, i64),
    /// Optimal length.
    pub optimal: f64,
}

/// Why a scenario batch could not run; lines and scenarios are counted from 1.
#[derive(Debug, thiserror::Error)]
pub enum ScenError {
    /// A line without the nine tab-separated fields.
    #[error("scenario line {0}: expected 9 tab-separated fields")]
    Fields(usize),
    /// A coordinate that is not an integer.
    #[error("scenario line {line}: bad number '{text}'")]
    Number {
        /// Line number.
        line: usize,
        /// The field as written.
        text: String,
    },
    /// An optimal length that is not a number.
    #[error("scenario line {line}: bad length '{text}'")]
    Length {
        /// Line number.
        line: usize,
        /// The field as written.
        text: String,
    },
    /// The scenario file cannot be read.
    #[error("cannot read {}: {source}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The map file cannot be read.
    #[error("cannot read map {}: {source}", path.display())]
    ReadMap {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// No scenario to name the map.
    #[error("no scenarios")]
    Empty,
    /// The map is not a valid Moving AI map.
    #[error(transparent)]
    Map(#[from] GridError),
    /// The method cannot answer the scenarios on this map (says why).
    #[error("{0}")]
    Method(String),
    /// A scenario's start or goal is off the map or on a wall.
    #[error("scenario {scenario}: {error}")]
    Point {
        /// Scenario number.
        scenario: usize,
        /// The problem.
        error: GridError,
    },
}

/// Parses a `.scen` text (`version 1` header, tab-separated lines).
pub fn parse(text: &str) -> Result<Vec<Scenario>, ScenError> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim_end_matches('\r');
        if line.trim().is_empty() || line.starts_with("version") {
            continue;
        }
        let f: Vec<&str> = line.split('\t').collect();
        if f.len() != 9 {
            return Err(ScenError::Fields(n + 1));
        }
        let num = |i: usize| {
            f[i].trim().parse::<i64>().map_err(|_| ScenError::Number {
                line: n + 1,
                text: f[i].to_string(),
            })
        };
        out.push(Scenario {
            map: f[1].to_string(),
            start: (num(4)?, num(5)?),
            goal: (num(6)?, num(7)?),
            optimal: f[8].trim().parse().map_err(|_| ScenError::Length {
                line: n + 1,
                text: f[8].to_string(),
            })?,
        });
    }
    Ok(out)
}

/// Totals of a batch.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    /// Scenarios read.
    pub scenarios: usize,
    /// Scenarios with a path found.
    pub solved: usize,
    /// Scenarios whose cost differs from the optimal length (1e-4 relative).
    pub mismatches: usize,
    /// States expanded in all.
    pub expanded: u64,
    /// Seconds spent searching.
    pub seconds: f64,
    /// The method that searched.
    pub method: Option<Method>,
    /// Milliseconds the method's tables took to build.
    pub prep_ms: f64,
    /// Bytes they hold.
    pub prep_bytes: usize,
    /// Whether map and tables came from the cache (read and built by an earlier command).
    pub reused: bool,
    /// The first few mismatches, described.
    pub notes: Vec<String>,
}

/// Whether `cost` matches `optimal` within 1e-4 relative.
pub fn matches(cost: f64, optimal: f64) -> bool {
    (cost - optimal).abs() <= 1e-4 * optimal.abs().max(1.0)
}

/// Reads a scenario file and finds its map: `map_path`, or the file named in the scenarios,
/// looked up beside the scenario file.
pub fn read(
    scen_path: &Path,
    map_path: Option<&Path>,
) -> Result<(Vec<Scenario>, PathBuf), ScenError> {
    let text = std::fs::read_to_string(scen_path).map_err(|source| ScenError::Read {
        path: scen_path.to_path_buf(),
        source,
    })?;
    let scenarios = parse(&text)?;
    let map_file = match map_path {
        Some(p) => p.to_path_buf(),
        None => {
            let name = scenarios
                .first()
                .map(|s| s.map.rsplit(['/', '\\']).next().unwrap_or("").to_string())
                .ok_or(ScenError::Empty)?;
            scen_path.parent().unwrap_or(Path::new(".")).join(name)
        }
    };
    Ok((scenarios, map_file))
}

/// The map in a Moving AI map file, from the cache when the file is unchanged.
pub fn load_map(map_file: &Path) -> Result<(std::sync::Arc<MapData>, Source), ScenError> {
    let read_err = |source| ScenError::ReadMap {
        path: map_file.to_path_buf(),
        source,
    };
    cache::map(
        map_file,
        |path, _| {
            let text = std::fs::read_to_string(path).map_err(read_err)?;
            Ok(MapData::new(Grid::parse_movingai(&text)?))
        },
        read_err,
    )
}

/// The query of a scenario (8-connected, octile, no energy), checked against the map;
/// `i` counts from 0.
pub fn query(grid: &Grid, s: &Scenario, i: usize) -> Result<Query, ScenError> {
    let point = |what, (x, y): (i64, i64)| {
        grid.check_point(what, x, y)
            .map_err(|error| ScenError::Point {
                scenario: i + 1,
                error,
            })
    };
    Ok(Query {
        start: point("start", s.start)?,
        goal: point("goal", s.goal)?,
        moves: Moves::Eight,
        heuristic: Heuristic::Octile,
        energy: None,
    })
}

/// Solves every scenario of `scen_path` on its map (`map_path`, or the file named in the
/// scenarios, looked up beside the scenario file) with `method` (`Auto`: the one `choose`
/// picks for the map). The method's tables are built before the clock for the queries starts.
pub fn run(
    scen_path: &Path,
    map_path: Option<&Path>,
    method: Method,
) -> Result<Summary, ScenError> {
    let (scenarios, map_file) = read(scen_path, map_path)?;
    let (map, source) = load_map(&map_file)?;
    let grid = &map.grid;
    let queries = scenarios
        .iter()
        .enumerate()
        .map(|(i, s)| query(grid, s, i))
        .collect::<Result<Vec<_>, _>>()?;
    let method = match (method, queries.first()) {
        (Method::Auto, Some(q)) => map.choose(q),
        (Method::Auto, None) => Method::Astar,
        (m, _) => m,
    };
    if let Some(q) = queries.first() {
        if let Some(why) = method.refusal(q, grid.width * grid.height) {
            return Err(ScenError::Method(why));
        }
    }
    let reused = source == Source::Cached && map.is_prepared(method);
    let (prep_ms, prep_bytes) = map.prepare(method);
    let mut sum = Summary {
        scenarios: scenarios.len(),
        method: Some(method),
        prep_ms,
        prep_bytes,
        reused,
        ..Default::default()
    };
    let mut ws = Workspace::new();
    let start = Instant::now();
    for (i, (s, q)) in scenarios.iter().zip(&queries).enumerate() {
        let out = ws.solve(&map, method, q);
        sum.expanded += out.expanded;
        match out.solution {
            Some(sol) => {
                sum.solved += 1;
                if !matches(sol.cost, s.optimal) {
                    sum.mismatches += 1;
                    if sum.notes.len() < 5 {
                        sum.notes.push(format!(
                            "scenario {}: cost {:.6}, optimal {:.6}",
                            i + 1,
                            sol.cost,
                            s.optimal
                        ));
                    }
                }
            }
            None => {
                sum.mismatches += 1;
                if sum.notes.len() < 5 {
                    sum.notes.push(format!("scenario {}: no path", i + 1));
                }
            }
        }
    }
    sum.seconds = start.elapsed().as_secs_f64();
    Ok(sum)
}

impl Summary {
    /// The summary line: `scenarios N solved N mismatches M total_ms T mean_ms U expanded E
    /// method NAME prep_ms P prep_mb B reused 0|1` (times of the queries alone; the tables'
    /// build time and size apart).
    pub fn line(&self) -> String {
        format!(
            "scenarios {} solved {} mismatches {} total_ms {:.1} mean_ms {:.4} expanded {} method {} prep_ms {:.1} prep_mb {:.2} reused {}",
            self.scenarios,
            self.solved,
            self.mismatches,
            self.seconds * 1000.0,
            self.seconds * 1000.0 / self.scenarios.max(1) as f64,
            self.expanded,
            self.method.unwrap_or(Method::Auto).name(),
            self.prep_ms,
            self.prep_bytes as f64 / (1 << 20) as f64,
            u8::from(self.reused)
        )
    }
}
