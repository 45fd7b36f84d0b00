//! Moving AI scenario files: every query solved and checked against its optimal length.

use super::astar::{Heuristic, Moves, Prepared, Query, Solver};
use super::grid::{Grid, GridError};
use super::jps::Jps;
use std::path::{Path, PathBuf};
use std::time::Instant;

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
    /// The first few mismatches, described.
    pub notes: Vec<String>,
}

/// Whether `cost` matches `optimal` within 1e-4 relative.
pub fn matches(cost: f64, optimal: f64) -> bool {
    (cost - optimal).abs() <= 1e-4 * optimal.abs().max(1.0)
}

/// Solves every scenario of `scen_path` on its map (`map_path`, or the file named in the
/// scenarios, looked up beside the scenario file), with A* or, if `jps`, jump point search.
pub fn run(scen_path: &Path, map_path: Option<&Path>, jps: bool) -> Result<Summary, ScenError> {
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
    let map_text = std::fs::read_to_string(&map_file).map_err(|source| ScenError::ReadMap {
        path: map_file.clone(),
        source,
    })?;
    let grid = Grid::parse_movingai(&map_text)?;
    let mut solver = Solver::new();
    let mut jumper = Jps::new();
    let prepared = Prepared::new(&grid);
    let mut sum = Summary {
        scenarios: scenarios.len(),
        ..Default::default()
    };
    let start = Instant::now();
    for (i, s) in scenarios.iter().enumerate() {
        let a = grid
            .check_point("start", s.start.0, s.start.1)
            .map_err(|error| ScenError::Point {
                scenario: i + 1,
                error,
            })?;
        let b = grid
            .check_point("goal", s.goal.0, s.goal.1)
            .map_err(|error| ScenError::Point {
                scenario: i + 1,
                error,
            })?;
        let q = Query {
            start: a,
            goal: b,
            moves: Moves::Eight,
            heuristic: Heuristic::Octile,
            energy: None,
        };
        let out = if jps {
            jumper.solve(&prepared, &q)
        } else {
            solver.solve_prepared(&prepared, &q)
        };
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
    /// The summary line: `scenarios N solved N mismatches M total_ms T mean_ms U expanded E`.
    pub fn line(&self) -> String {
        format!(
            "scenarios {} solved {} mismatches {} total_ms {:.1} mean_ms {:.4} expanded {}",
            self.scenarios,
            self.solved,
            self.mismatches,
            self.seconds * 1000.0,
            self.seconds * 1000.0 / self.scenarios.max(1) as f64,
            self.expanded
        )
    }
}
