//! `path`: grid shortest paths as an engine command and a command-line subcommand.
//!
//! `grid` reads maps (Moving AI `.map` files and text grids); `astar` searches them (4- or
//! 8-connected, integer 10/14 costs, admissible heuristics, an energy budget with supply
//! stations); `jps`, `jpsplus` (precomputed jumps), `subgoal` (simple subgoal graphs) and
//! `contract` (a contraction hierarchy over the subgoal graph) are the faster exact methods for
//! 8-connected maps without energy (all of them forget the last query by generation stamps,
//! `stamp`); `textbook` has IDDFS and IDA* for small maps; `method`
//! names them, prepares what they need and picks one automatically; `cache` keeps map files
//! read and what was built for them between commands; `scen` runs
//! Moving AI scenario files. This module runs the command in three steps: `parse` (words to a
//! `Request` checked against its map, or a `PathError`), `solve` (the search, timed) and
//! `format` (the answer's text).
//!
//! Syntax (keywords case-insensitive):
//! ```text
//! path (map FILE | grid FILE | inline ROWS) [from X Y] [to X Y] [moves 4|8|8int]
//!      [heuristic manhattan|octile|euclidean|zero] [energy T] [method NAME] [jps]
//! path scen FILE.scen [--map FILE.map] [--method NAME] [--jps]
//! path stats FILE.map
//! ```
//! `inline` rows are separated by `/`. Text grids mark start `S` and goal `G`; `from`/`to`
//! override them (and are required for Moving AI maps). NAME is `auto` (the default), `astar`,
//! `jps`, `jps+`, `subgoal`, `ch`, `iddfs` or `idastar`; `jps` alone means `method jps`.

pub mod astar;
pub mod cache;
pub mod contract;
pub mod forest;
pub mod grid;
pub mod jps;
pub mod jpsplus;
pub mod method;
pub mod scen;
mod stamp;
pub mod subgoal;
pub mod textbook;

use crate::host::Instant;
use astar::{Heuristic, Moves, Outcome, Query, MAX_STATES};
use grid::{Grid, GridError};
pub use method::{MapData, Method};
use scen::ScenError;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Largest accepted energy budget.
pub const MAX_ENERGY: u32 = 100_000;

/// Why a `path` command was refused; `Display` names the bad word.
#[derive(Debug, thiserror::Error)]
pub enum PathError {
    /// No words at all.
    #[error("usage: path (map FILE | grid FILE | inline ROWS) [from X Y] [to X Y] [moves 4|8|8int] [heuristic H] [energy T] [method NAME] | path scen FILE.scen [--map FILE.map] [--method NAME] | path stats FILE.map")]
    Usage,
    /// `scen` without a file.
    #[error("usage: path scen FILE.scen [--map FILE.map] [--method NAME]")]
    ScenUsage,
    /// A keyword at the end, without its value; carries the keyword.
    #[error("missing value after '{0}'")]
    MissingValue(String),
    /// `scen … --map` without a file.
    #[error("missing map file")]
    MissingMapFile,
    /// A word that is no keyword.
    #[error("unknown word '{0}'")]
    UnknownWord(String),
    /// A coordinate that is not an integer.
    #[error("bad coordinate '{0}'")]
    BadCoordinate(String),
    /// A movement rule other than 4, 8 or 8int.
    #[error("bad moves '{0}': 4, 8 or 8int")]
    BadMoves(String),
    /// A heuristic name not known.
    #[error("bad heuristic '{0}'")]
    BadHeuristic(String),
    /// An energy budget that is not an integer from 1 to `MAX_ENERGY`.
    #[error("bad energy '{0}': 1 to {max}", max = MAX_ENERGY)]
    BadEnergy(String),
    /// No `map`, `grid` or `inline`.
    #[error("no map: give map FILE, grid FILE or inline ROWS")]
    NoMap,
    /// A heuristic that would overestimate with the movement rule asked for.
    #[error("heuristic {0:?} overestimates with diagonal moves; use octile, euclidean or zero")]
    Inadmissible(Heuristic),
    /// An energy budget whose state space on the map is too large.
    #[error("energy {0} on this map needs too many states")]
    TooManyStates(u32),
    /// A method name not known.
    #[error("bad method '{0}': auto, astar, jps, jps+, subgoal, ch, iddfs or idastar")]
    BadMethod(String),
    /// A method that cannot answer this query on this map (says why).
    #[error("{0}")]
    MethodRefused(String),
    /// A map file that cannot be read.
    #[error("cannot read {file}: {source}")]
    Read {
        /// The file as given (clipped).
        file: String,
        /// Why.
        source: std::io::Error,
    },
    /// A map file too large to read.
    #[error("{0} is too large")]
    FileTooLarge(String),
    /// The map, or the start or goal on it.
    #[error(transparent)]
    Grid(#[from] GridError),
    /// A scenario batch.
    #[error(transparent)]
    Scen(#[from] ScenError),
}

/// A `path` command parsed and checked against its map: what `solve` needs.
#[derive(Clone, Debug)]
pub enum Request {
    /// One search on one map.
    Search {
        /// The map (shared with the cache for map files).
        map: Arc<MapData>,
        /// Start and goal (on the map, off walls), moves, an admissible heuristic, energy.
        query: Query,
        /// The method asked for (`Auto` unless named); it applies to the query.
        method: Method,
    },
    /// The statistics of a Moving AI map and the method `auto` takes on it.
    Stats(Arc<MapData>),
    /// A Moving AI scenario file.
    Scen {
        /// The `.scen` file.
        file: PathBuf,
        /// The map, if not the one named in the scenarios.
        map: Option<PathBuf>,
        /// The method asked for.
        method: Method,
    },
}

/// What `solve` found.
#[derive(Clone, Debug)]
pub enum Answer {
    /// One search.
    Search {
        /// The query searched.
        query: Query,
        /// The path, if any, and the states expanded.
        outcome: Outcome,
        /// The method that searched.
        method: Method,
        /// Milliseconds the search took.
        ms: f64,
        /// Milliseconds spent building the method's tables for this command (0 if they were
        /// built before).
        prep_ms: f64,
    },
    /// A scenario batch.
    Scen(scen::Summary),
    /// A map's statistics line.
    Stats(String),
}

/// Runs one `path` command given its words (after `path`). `Ok` carries the answer's lines.
pub fn command<S: AsRef<str>>(args: &[S]) -> Result<String, PathError> {
    let request = parse(args)?;
    Ok(format(&solve(&request)?))
}

/// Parses the words after `path`, reads the map and checks the query against it.
pub fn parse<S: AsRef<str>>(args: &[S]) -> Result<Request, PathError> {
    let words: Vec<&str> = args.iter().map(|s| s.as_ref()).collect();
    match words.first() {
        None => Err(PathError::Usage),
        Some(first) if first.eq_ignore_ascii_case("scen") => parse_scen(&words[1..]),
        Some(first) if first.eq_ignore_ascii_case("stats") => {
            let file = words
                .get(1)
                .ok_or(PathError::MissingValue("stats".into()))?;
            Ok(Request::Stats(load_map(file)?))
        }
        Some(_) => parse_search(&words),
    }
}

fn parse_search(words: &[&str]) -> Result<Request, PathError> {
    let mut grid: Option<Arc<MapData>> = None;
    let mut from = None;
    let mut to = None;
    let mut moves = Moves::Four;
    let mut heuristic = None;
    let mut energy = None;
    let mut method = Method::Auto;
    let word = |i: usize| {
        words
            .get(i)
            .copied()
            .ok_or_else(|| PathError::MissingValue(words[i - 1].to_string()))
    };
    let coord = |i: usize| -> Result<i64, PathError> {
        let w = word(i)?;
        w.parse::<i64>()
            .map_err(|_| PathError::BadCoordinate(clip(w)))
    };
    let mut i = 0;
    while i < words.len() {
        let kw = words[i].to_ascii_lowercase();
        match kw.as_str() {
            "map" => {
                grid = Some(load_map(word(i + 1)?)?);
                i += 2;
            }
            "grid" => {
                let text = read_limited(word(i + 1)?)?;
                grid = Some(Arc::new(MapData::new(Grid::parse_text(text.lines())?)));
                i += 2;
            }
            "inline" => {
                let g = Grid::parse_text(word(i + 1)?.split('/'))?;
                grid = Some(Arc::new(MapData::new(g)));
                i += 2;
            }
            "from" | "to" => {
                let p = (coord(i + 1)?, coord(i + 2)?);
                if kw == "from" {
                    from = Some(p);
                } else {
                    to = Some(p);
                }
                i += 3;
            }
            "moves" => {
                moves = match word(i + 1)?.to_ascii_lowercase().as_str() {
                    "4" => Moves::Four,
                    "8" => Moves::Eight,
                    "8int" => Moves::EightInt,
                    w => return Err(PathError::BadMoves(clip(w))),
                };
                i += 2;
            }
            "heuristic" => {
                heuristic = Some(match word(i + 1)?.to_ascii_lowercase().as_str() {
                    "manhattan" => Heuristic::Manhattan,
                    "octile" => Heuristic::Octile,
                    "euclidean" => Heuristic::Euclidean,
                    "zero" | "dijkstra" => Heuristic::Zero,
                    w => return Err(PathError::BadHeuristic(clip(w))),
                });
                i += 2;
            }
            "energy" => {
                let w = word(i + 1)?;
                let t = w
                    .parse::<u32>()
                    .ok()
                    .filter(|t| (1..=MAX_ENERGY).contains(t))
                    .ok_or_else(|| PathError::BadEnergy(clip(w)))?;
                energy = Some(t);
                i += 2;
            }
            "method" => {
                let w = word(i + 1)?;
                method = Method::parse(w).ok_or_else(|| PathError::BadMethod(clip(w)))?;
                i += 2;
            }
            "jps" => {
                method = Method::Jps;
                i += 1;
            }
            _ => return Err(PathError::UnknownWord(clip(words[i]))),
        }
    }
    let map = grid.ok_or(PathError::NoMap)?;
    let grid = &map.grid;
    let heuristic = heuristic.unwrap_or(moves.default_heuristic());
    if !heuristic.admissible_for(moves) {
        return Err(PathError::Inadmissible(heuristic));
    }
    let point = |what: &'static str, given: Option<(i64, i64)>, marked: Option<(usize, usize)>| {
        let (x, y) = given
            .or(marked.map(|(x, y)| (x as i64, y as i64)))
            .ok_or(GridError::Missing(what))?;
        grid.check_point(what, x, y)
    };
    let start = point("start", from, grid.start)?;
    let goal = point("goal", to, grid.goal)?;
    if let Some(t) = energy {
        if (t as usize + 1).saturating_mul(grid.width * grid.height) > MAX_STATES {
            return Err(PathError::TooManyStates(t));
        }
    }
    let query = Query {
        start,
        goal,
        moves,
        heuristic,
        energy,
    };
    if let Some(why) = method.refusal(&query, grid.width * grid.height) {
        return Err(PathError::MethodRefused(why));
    }
    Ok(Request::Search { map, query, method })
}

/// A Moving AI map file, from the cache when unchanged.
fn load_map(file: &str) -> Result<Arc<MapData>, PathError> {
    let unreadable = |source| PathError::Read {
        file: clip(file),
        source,
    };
    let (map, _) = cache::map(
        Path::new(file),
        |path, len| {
            if len > MAX_FILE {
                return Err(PathError::FileTooLarge(clip(file)));
            }
            let bytes = std::fs::read(path).map_err(unreadable)?;
            let grid = Grid::parse_movingai(&String::from_utf8_lossy(&bytes))?;
            Ok(MapData::new(grid))
        },
        unreadable,
    )?;
    Ok(map)
}

/// The words after `path scen`.
fn parse_scen(words: &[&str]) -> Result<Request, PathError> {
    let file = words.first().ok_or(PathError::ScenUsage)?;
    let mut map = None;
    let mut method = Method::Auto;
    let mut i = 1;
    while i < words.len() {
        match words[i].to_ascii_lowercase().as_str() {
            "--map" | "map" => {
                map = Some(*words.get(i + 1).ok_or(PathError::MissingMapFile)?);
                i += 2;
            }
            "--method" | "method" => {
                let w = *words
                    .get(i + 1)
                    .ok_or_else(|| PathError::MissingValue(words[i].to_string()))?;
                method = Method::parse(w).ok_or_else(|| PathError::BadMethod(clip(w)))?;
                i += 2;
            }
            "--jps" | "jps" => {
                method = Method::Jps;
                i += 1;
            }
            _ => return Err(PathError::UnknownWord(clip(words[i]))),
        }
    }
    Ok(Request::Scen {
        file: PathBuf::from(file),
        map: map.map(PathBuf::from),
        method,
    })
}

/// Searches a request: one query (timed), or every scenario of a file (which reads the files
/// and may fail on them).
pub fn solve(request: &Request) -> Result<Answer, PathError> {
    match request {
        Request::Search { map, query, method } => {
            let method = match method {
                Method::Auto => map.choose(query),
                m => *m,
            };
            let t0 = Instant::now();
            let fresh = !map.is_prepared(method);
            map.prepare(method);
            let prep_ms = if fresh {
                t0.elapsed().as_secs_f64() * 1000.0
            } else {
                0.0
            };
            let t1 = Instant::now();
            let outcome = cache::with_workspace(|ws| ws.solve(map, method, query));
            let ms = t1.elapsed().as_secs_f64() * 1000.0;
            Ok(Answer::Search {
                query: *query,
                outcome,
                method,
                ms,
                prep_ms,
            })
        }
        Request::Scen { file, map, method } => {
            Ok(Answer::Scen(scen::run(file, map.as_deref(), *method)?))
        }
        Request::Stats(map) => Ok(Answer::Stats(map.stats_line())),
    }
}

/// The answer's lines: `cost`, `steps`, `expanded`, `time_ms`, `path`, `moves` for a found
/// path, the reason and `expanded`, `time_ms` for none, the summary line (after any notes) for a
/// scenario batch.
pub fn format(answer: &Answer) -> String {
    match answer {
        Answer::Search {
            query,
            outcome,
            method,
            ms,
            prep_ms,
        } => {
            let mut text = format_search(query, outcome, *ms);
            text.push_str(&format!("\nmethod {}", method.name()));
            if *prep_ms > 0.0 {
                text.push_str(&format!("\nprep_ms {prep_ms:.3}"));
            }
            text
        }
        Answer::Stats(line) => line.clone(),
        Answer::Scen(s) => {
            let mut text = s.notes.join("\n");
            if !text.is_empty() {
                text.push('\n');
            }
            text.push_str(&s.line());
            text
        }
    }
}

fn format_search(query: &Query, out: &Outcome, ms: f64) -> String {
    match &out.solution {
        None => {
            let why = match query.energy {
                Some(t) => format!("no path: goal unreachable within energy {t}"),
                None => "no path: goal unreachable".to_string(),
            };
            format!("{why}\nexpanded {}\ntime_ms {ms:.3}", out.expanded)
        }
        Some(sol) => {
            let cost = if query.moves == Moves::EightInt {
                format!("{}", sol.cost.round() as i64)
            } else if sol.cost.fract() == 0.0 {
                format!("{}", sol.cost)
            } else {
                format!("{:.6}", sol.cost)
            };
            let coords: Vec<String> = sol.path.iter().map(|(x, y)| format!("({x},{y})")).collect();
            let steps: Vec<&str> = sol.path.windows(2).map(|w| direction(w[0], w[1])).collect();
            format!(
                "cost {cost}\nsteps {}\nexpanded {}\ntime_ms {ms:.3}\npath {}\nmoves {}",
                steps.len(),
                out.expanded,
                coords.join(" "),
                steps.join(" ")
            )
        }
    }
}

fn direction(a: (usize, usize), b: (usize, usize)) -> &'static str {
    let dx = b.0 as i64 - a.0 as i64;
    let dy = b.1 as i64 - a.1 as i64;
    match (dx, dy) {
        (0, -1) => "U",
        (0, 1) => "D",
        (-1, 0) => "L",
        (1, 0) => "R",
        (-1, -1) => "UL",
        (1, -1) => "UR",
        (-1, 1) => "DL",
        _ => "DR",
    }
}

fn clip(s: &str) -> String {
    s.chars().filter(|c| !c.is_control()).take(24).collect()
}

/// Largest map file read.
const MAX_FILE: u64 = 80 << 20;

/// Reads a map file, refusing absurdly large ones before reading them.
fn read_limited(file: &str) -> Result<String, PathError> {
    let unreadable = |source| PathError::Read {
        file: clip(file),
        source,
    };
    let meta = std::fs::metadata(file).map_err(unreadable)?;
    if meta.len() > MAX_FILE {
        return Err(PathError::FileTooLarge(clip(file)));
    }
    let bytes = std::fs::read(file).map_err(unreadable)?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}
