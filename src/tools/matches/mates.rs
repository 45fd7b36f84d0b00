//! `chariot mates`: the mate track. Runs a file of forced mates at a node budget (or at depth
//! 2|N| + k) through Chariot's search, or through any UCI or UCCI engine, and counts the
//! positions solved and those solved at their exact distance; and harvests new positions from
//! match PGNs: the first position of a decisive game where the winner's search announced mate.
//!
//! A position is *solved* when the last score reported before the answer is a mate for the
//! side to move in at most its `dm` moves (for `dm -N`: a mate against it), and *exact* when
//! that mate is `dm` moves. The same rule judges Chariot and the engine beside it.

use super::engine::{Answer, Engine, EngineError, EngineSpec, Go};
use crate::board::{FenError, Game, Position};
use crate::eval::nnue::Network;
use crate::protocol::output::{uci, UciScore};
use crate::search::{Limits, NullSink, Searcher, Signals};
use crate::tools::pgn;
use std::ops::ControlFlow;
use std::sync::Arc;
use std::time::Duration;

/// One line of a mate file: `FEN; dm N; bm MOVE …; c0 "…"` (the separators of `mates.epd`,
/// ` ;dm N ;bm …`, work too).
#[derive(Clone, Debug)]
pub struct MateCase {
    /// The position.
    pub position: Position,
    /// Mate in `dm` moves for the side to move (negative: it is mated in `-dm`).
    pub dm: i32,
    /// The best moves, as written.
    pub bm: Vec<String>,
}

/// A mate file that cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum MatesError {
    /// A line's FEN is not a legal position.
    #[error("line {line}: {source}")]
    Fen {
        /// The line number (1-based).
        line: usize,
        /// Why the FEN was refused.
        source: FenError,
    },
    /// A line has no `dm N` (or N is 0 or not a number).
    #[error("line {0}: no mate distance (`dm N`, N not 0)")]
    Distance(usize),
    /// The file has no position.
    #[error("no position in the file")]
    Empty,
    /// The engine beside Chariot failed.
    #[error("engine: {0}")]
    Engine(EngineError),
    /// The engine gave no move (and so no search) for a position with moves.
    #[error("engine gave no move for line {0}")]
    NoMove(usize),
    /// A PGN file that cannot be read.
    #[error(transparent)]
    Pgn(#[from] pgn::PgnError),
}

/// Reads a mate file; `#` lines and blank lines are skipped.
pub fn read_cases(text: &str) -> Result<Vec<MateCase>, MatesError> {
    let mut cases = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut fields = line.split(';').map(str::trim);
        let fen = fields.next().unwrap_or_default();
        let position = Position::from_fen(fen).map_err(|source| MatesError::Fen {
            line: i + 1,
            source,
        })?;
        let (mut dm, mut bm) = (0, Vec::new());
        for field in fields {
            match field.split_once(' ') {
                Some(("dm", v)) => dm = v.trim().parse().unwrap_or(0),
                Some(("bm", v)) => bm = v.split_whitespace().map(String::from).collect(),
                _ => {}
            }
        }
        if dm == 0 {
            return Err(MatesError::Distance(i + 1));
        }
        cases.push(MateCase { position, dm, bm });
    }
    if cases.is_empty() {
        return Err(MatesError::Empty);
    }
    Ok(cases)
}

/// How long each position is searched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// `go nodes N`.
    Nodes(u64),
    /// `go depth 2|dm| + k`: the depth a mate in N needs (2N − 1 plies) and k more.
    Depth(u32),
}

impl Budget {
    fn go(self, dm: i32) -> Go {
        match self {
            Budget::Nodes(n) => Go::Nodes(n),
            Budget::Depth(k) => Go::Depth(2 * dm.unsigned_abs() + k),
        }
    }
}

/// What a search reported for one position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// The mate reported, in moves (negative: against the side to move); `None` for a
    /// centipawn score.
    pub mate: Option<i32>,
    /// The score as reported (`#3`, `+12.34`).
    pub score: String,
}

impl Verdict {
    /// The reported mate has the right sign and is no longer than `dm` moves.
    pub fn solved(&self, dm: i32) -> bool {
        match self.mate {
            Some(m) if dm > 0 => m > 0 && m <= dm,
            Some(m) => m < 0,
            None => false,
        }
    }

    /// The reported mate is exactly `dm`.
    pub fn exact(&self, dm: i32) -> bool {
        self.mate == Some(dm)
    }
}

/// The engine that searches: Chariot in this process (the built-in network, or the classical
/// evaluation for `None`), or another engine's process.
pub enum Solver {
    /// This program's search.
    Chariot(Box<Searcher>),
    /// A running UCI or UCCI engine.
    Engine(Box<Engine>),
}

impl Solver {
    /// Chariot's search with a table of `hash_mb` MiB, evaluating with `net`.
    pub fn chariot(hash_mb: usize, net: Option<Arc<Network>>) -> Solver {
        let mut s = Searcher::new(hash_mb);
        s.set_network(net);
        Solver::Chariot(Box::new(s))
    }

    /// Starts the engine of `spec`.
    pub fn engine(spec: &EngineSpec) -> Result<Solver, MatesError> {
        Engine::start(spec, 10_000)
            .map(|e| Solver::Engine(Box::new(e)))
            .map_err(MatesError::Engine)
    }

    /// Searches `case` within `budget`, each position from an empty hash table.
    pub fn solve(&mut self, case: &MateCase, budget: Budget) -> Result<Verdict, MatesError> {
        let game = Game::new(case.position.clone());
        match self {
            Solver::Chariot(s) => {
                s.clear();
                let limits = match budget {
                    Budget::Nodes(n) => Limits {
                        nodes: Some(n),
                        ..Limits::default()
                    },
                    Budget::Depth(_) => Limits {
                        depth: Some(2 * case.dm.unsigned_abs() + budget_depth(budget)),
                        ..Limits::default()
                    },
                };
                let r = s.search(
                    &game,
                    &limits,
                    &Arc::new(Signals::new(false)),
                    &mut NullSink,
                );
                Ok(match uci(r.score) {
                    UciScore::Mate(m) => Verdict {
                        mate: Some(m),
                        score: format!("#{m}"),
                    },
                    UciScore::Cp(c) => Verdict {
                        mate: None,
                        score: format!("{:+.2}", c as f64 / 100.0),
                    },
                })
            }
            Solver::Engine(e) => {
                e.new_game(10_000).map_err(MatesError::Engine)?;
                let (answer, thought, _) = e
                    .think(&game, budget.go(case.dm), 10_000, Duration::from_secs(600))
                    .map_err(MatesError::Engine)?;
                let score = thought.score.unwrap_or_default();
                let mate = score.strip_prefix('#').and_then(|m| m.parse().ok());
                if answer == Answer::NoMove && case.position.count_legal() > 0 {
                    return Err(MatesError::NoMove(0));
                }
                Ok(Verdict { mate, score })
            }
        }
    }
}

fn budget_depth(b: Budget) -> u32 {
    match b {
        Budget::Depth(k) => k,
        Budget::Nodes(_) => 0,
    }
}

/// The count over a file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Positions searched.
    pub positions: usize,
    /// Positions solved.
    pub solved: usize,
    /// Positions solved at their exact distance.
    pub exact: usize,
}

/// Runs every case through `solver`, calling `each` with the case's index, the case and its
/// verdict as each completes; `each` breaks to end the run there (the tally so far).
pub fn run(
    cases: &[MateCase],
    solver: &mut Solver,
    budget: Budget,
    mut each: impl FnMut(usize, &MateCase, &Verdict) -> ControlFlow<()>,
) -> Result<Tally, MatesError> {
    let mut t = Tally::default();
    for (i, case) in cases.iter().enumerate() {
        let v = solver.solve(case, budget).map_err(|e| match e {
            MatesError::NoMove(_) => MatesError::NoMove(i + 1),
            e => e,
        })?;
        t.positions += 1;
        t.solved += usize::from(v.solved(case.dm));
        t.exact += usize::from(v.exact(case.dm));
        if each(i, case, &v).is_break() {
            break;
        }
    }
    Ok(t)
}

/// New mate-track lines from PGN text (as `chariot match` writes it, with the engines' scores
/// as move comments): for each decisive game, the position before the first move of the winner
/// whose comment announces a mate (`#N`, N > 0), as `FEN; dm N; bm MOVE; c0 "announced by
/// NAME"`.
pub fn harvest(records: &[u8]) -> Result<Vec<String>, MatesError> {
    let mut out = Vec::new();
    for g in pgn::read(records)? {
        let winner = match g.red_points() {
            Some(p) if p > 0.5 => 0,
            Some(p) if p < 0.5 => 1,
            _ => continue,
        };
        let name = if winner == 0 { g.red() } else { g.tag("Black") };
        let (moves, positions) = (g.game.moves(), g.game.positions());
        for (ply, (m, comment)) in moves.iter().zip(&g.comments).enumerate() {
            let pos = &positions[ply];
            let announced = comment
                .as_deref()
                .and_then(|c| c.split_whitespace().find_map(|w| w.strip_prefix('#')))
                .and_then(|w| w.split('/').next()?.parse::<i32>().ok())
                .filter(|&n| n > 0);
            if let (true, Some(n)) = (pos.side_to_move().index() == winner, announced) {
                out.push(format!(
                    "{}; dm {n}; bm {m}; c0 \"announced by {}\"",
                    pos.fen(),
                    name.unwrap_or("?")
                ));
                break;
            }
        }
    }
    Ok(out)
}
