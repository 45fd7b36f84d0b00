//! `path`: grid A* as an engine command and a command-line subcommand.
//!
//! `grid` reads maps (Moving AI `.map` files and text grids), `astar` searches them (4- or
//! 8-connected, integer 10/14 costs, admissible heuristics, an energy budget with supply
//! stations), `scen` runs Moving AI scenario files, and this module parses the command and
//! formats the answer.
//!
//! Syntax (keywords case-insensitive):
//! ```text
//! path (map FILE | grid FILE | inline ROWS) [from X Y] [to X Y] [moves 4|8|8int]
//!      [heuristic manhattan|octile|euclidean|zero] [energy T] [jps]
//! path scen FILE.scen [--map FILE.map] [--jps]
//! ```
//! `inline` rows are separated by `/`. Text grids mark start `S` and goal `G`; `from`/`to`
//! override them (and are required for Moving AI maps).

pub mod astar;
pub mod grid;
pub mod jps;
pub mod scen;

use astar::{Heuristic, Moves, Query, Solver, MAX_STATES};
use grid::Grid;
use std::time::Instant;

/// Largest accepted energy budget.
pub const MAX_ENERGY: u32 = 100_000;

/// Runs one `path` command given its words (after `path`). `Ok` carries the answer's lines.
pub fn command<S: AsRef<str>>(args: &[S]) -> Result<String, String> {
    let words: Vec<&str> = args.iter().map(|s| s.as_ref()).collect();
    let Some(first) = words.first() else {
        return Err("usage: path (map FILE | grid FILE | inline ROWS) [from X Y] [to X Y] [moves 4|8|8int] [heuristic H] [energy T] | path scen FILE.scen [--map FILE.map]".into());
    };
    if first.eq_ignore_ascii_case("scen") {
        return scenario_command(&words[1..]);
    }
    let mut grid: Option<Grid> = None;
    let mut from = None;
    let mut to = None;
    let mut moves = Moves::Four;
    let mut heuristic = None;
    let mut energy = None;
    let mut jps = false;
    let mut i = 0;
    let word = |i: usize| {
        words
            .get(i)
            .copied()
            .ok_or_else(|| format!("missing value after '{}'", words[i - 1]))
    };
    let coord = |i: usize| -> Result<i64, String> {
        let w = word(i)?;
        w.parse::<i64>()
            .map_err(|_| format!("bad coordinate '{}'", clip(w)))
    };
    while i < words.len() {
        let kw = words[i].to_ascii_lowercase();
        match kw.as_str() {
            "map" | "grid" => {
                let file = word(i + 1)?;
                let text = read_limited(file)?;
                grid = Some(
                    if kw == "map" {
                        Grid::parse_movingai(&text)
                    } else {
                        Grid::parse_text(text.lines())
                    }
                    .map_err(|e| e.to_string())?,
                );
                i += 2;
            }
            "inline" => {
                grid = Some(Grid::parse_text(word(i + 1)?.split('/')).map_err(|e| e.to_string())?);
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
                    w => return Err(format!("bad moves '{}': 4, 8 or 8int", clip(w))),
                };
                i += 2;
            }
            "heuristic" => {
                heuristic = Some(match word(i + 1)?.to_ascii_lowercase().as_str() {
                    "manhattan" => Heuristic::Manhattan,
                    "octile" => Heuristic::Octile,
                    "euclidean" => Heuristic::Euclidean,
                    "zero" | "dijkstra" => Heuristic::Zero,
                    w => return Err(format!("bad heuristic '{}'", clip(w))),
                });
                i += 2;
            }
            "energy" => {
                let w = word(i + 1)?;
                let t = w
                    .parse::<u32>()
                    .ok()
                    .filter(|t| (1..=MAX_ENERGY).contains(t))
                    .ok_or_else(|| format!("bad energy '{}': 1 to {MAX_ENERGY}", clip(w)))?;
                energy = Some(t);
                i += 2;
            }
            "jps" => {
                jps = true;
                i += 1;
            }
            _ => return Err(format!("unknown word '{}'", clip(words[i]))),
        }
    }
    let grid = grid.ok_or("no map: give map FILE, grid FILE or inline ROWS")?;
    let heuristic = heuristic.unwrap_or(moves.default_heuristic());
    if !heuristic.admissible_for(moves) {
        return Err(format!(
            "heuristic {heuristic:?} overestimates with diagonal moves; use octile, euclidean or zero"
        ));
    }
    let point = |what: &'static str, given: Option<(i64, i64)>, marked: Option<(usize, usize)>| {
        let (x, y) = given
            .or(marked.map(|(x, y)| (x as i64, y as i64)))
            .ok_or(grid::GridError::Missing(what))?;
        grid.check_point(what, x, y)
    };
    let start = point("start", from, grid.start).map_err(|e| e.to_string())?;
    let goal = point("goal", to, grid.goal).map_err(|e| e.to_string())?;
    if let Some(t) = energy {
        if (t as usize + 1).saturating_mul(grid.width * grid.height) > MAX_STATES {
            return Err(format!("energy {t} on this map needs too many states"));
        }
    }
    let q = Query {
        start,
        goal,
        moves,
        heuristic,
        energy,
    };
    if jps && (moves == Moves::Four || energy.is_some()) {
        return Err("jps needs moves 8 or 8int and no energy budget".into());
    }
    let t0 = Instant::now();
    let out = if jps {
        jps::Jps::new().solve(&astar::Prepared::new(&grid), &q)
    } else {
        Solver::new().solve(&grid, &q)
    };
    let ms = t0.elapsed().as_secs_f64() * 1000.0;
    let mut text = String::new();
    match out.solution {
        None => {
            let why = match energy {
                Some(t) => format!("no path: goal unreachable within energy {t}"),
                None => "no path: goal unreachable".to_string(),
            };
            text.push_str(&format!(
                "{why}\nexpanded {}\ntime_ms {ms:.3}",
                out.expanded
            ));
        }
        Some(sol) => {
            let cost = if moves == Moves::EightInt {
                format!("{}", sol.cost.round() as i64)
            } else if sol.cost.fract() == 0.0 {
                format!("{}", sol.cost)
            } else {
                format!("{:.6}", sol.cost)
            };
            let coords: Vec<String> = sol.path.iter().map(|(x, y)| format!("({x},{y})")).collect();
            let steps: Vec<&str> = sol.path.windows(2).map(|w| direction(w[0], w[1])).collect();
            text.push_str(&format!(
                "cost {cost}\nsteps {}\nexpanded {}\ntime_ms {ms:.3}\npath {}\nmoves {}",
                steps.len(),
                out.expanded,
                coords.join(" "),
                steps.join(" ")
            ));
        }
    }
    Ok(text)
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

/// Reads a map file, refusing absurdly large ones before reading them.
fn read_limited(file: &str) -> Result<String, String> {
    let meta = std::fs::metadata(file).map_err(|e| format!("cannot read {}: {e}", clip(file)))?;
    if meta.len() > 80 << 20 {
        return Err(format!("{} is too large", clip(file)));
    }
    let bytes = std::fs::read(file).map_err(|e| format!("cannot read {}: {e}", clip(file)))?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

fn scenario_command(words: &[&str]) -> Result<String, String> {
    let file = words
        .first()
        .ok_or("usage: path scen FILE.scen [--map FILE.map]")?;
    let mut map = None;
    let mut jps = false;
    let mut i = 1;
    while i < words.len() {
        match words[i].to_ascii_lowercase().as_str() {
            "--map" | "map" => {
                map = Some(*words.get(i + 1).ok_or("missing map file")?);
                i += 2;
            }
            "--jps" | "jps" => {
                jps = true;
                i += 1;
            }
            _ => return Err(format!("unknown word '{}'", clip(words[i]))),
        }
    }
    let s = scen::run(
        std::path::Path::new(file),
        map.map(std::path::Path::new),
        jps,
    )?;
    let mut text = s.notes.join("\n");
    if !text.is_empty() {
        text.push('\n');
    }
    text.push_str(&s.line());
    Ok(text)
}
