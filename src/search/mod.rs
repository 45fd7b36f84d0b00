//! The game search: iterative deepening over a negamax alpha-beta with quiescence.
//!
//! The controlling thread hands a `Searcher` (which owns the tables) to a search thread, which
//! returns it with the result. Progress goes out through an `InfoSink` as data; turning it into
//! protocol text is the protocol's job.

pub mod limits;
pub mod score;

pub use limits::{Clock, Control, Limits};

use crate::board::{Game, Move, Position};
use crate::eval::evaluate;
use score::{mated_in, INFINITE, MAX_PLY};

/// Kind of bound a reported score is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// Exact score.
    Exact,
    /// The score is at least this (fail high).
    Lower,
    /// The score is at most this (fail low).
    Upper,
}

/// One progress report: normally one per completed iteration.
#[derive(Clone, Debug)]
pub struct Info {
    /// Iteration depth.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// Score from the side to move's view (see `score`).
    pub score: i32,
    /// Whether the score is exact or a bound.
    pub bound: Bound,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Milliseconds since the search started.
    pub time_ms: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Hash table fill, per mille.
    pub hashfull: u32,
    /// Principal variation, legal from the root; starts with the best move.
    pub pv: Vec<Move>,
}

/// Receives progress from the search thread.
pub trait InfoSink: Send {
    /// A completed iteration (or a new best move inside a long one).
    fn iteration(&mut self, info: &Info);
    /// The root move being searched now (sent sparingly on long searches).
    fn currmove(&mut self, _depth: u32, _mv: Move, _number: usize) {}
}

/// An `InfoSink` that discards everything.
pub struct NullSink;
impl InfoSink for NullSink {
    fn iteration(&mut self, _info: &Info) {}
}

/// The outcome of a search.
#[derive(Clone, Debug, Default)]
pub struct SearchResult {
    /// Best move; `None` only when the root has no legal move.
    pub best: Option<Move>,
    /// Expected reply, when the PV has a second move.
    pub ponder: Option<Move>,
    /// Score of the last completed iteration (side to move's view).
    pub score: i32,
    /// Depth of the last completed iteration.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
}

/// Owns the search tables (hash table, histories) between searches.
pub struct Searcher {
    hash_mb: usize,
    nodes: u64,
    seldepth: u32,
    aborted: bool,
    deadline: Option<u64>,
    node_limit: Option<u64>,
}

impl Searcher {
    /// A searcher with a hash table of `hash_mb` MiB.
    pub fn new(hash_mb: usize) -> Searcher {
        Searcher {
            hash_mb: hash_mb.max(1),
            nodes: 0,
            seldepth: 0,
            aborted: false,
            deadline: None,
            node_limit: None,
        }
    }

    /// Resizes the hash table (clears it).
    pub fn set_hash_mb(&mut self, mb: usize) {
        self.hash_mb = mb.max(1);
    }

    /// Hash table size in MiB.
    pub fn hash_mb(&self) -> usize {
        self.hash_mb
    }

    /// Forgets everything learnt (new game).
    pub fn clear(&mut self) {}

    /// Hash table fill, per mille.
    pub fn hashfull(&self) -> u32 {
        0
    }

    /// Quiescence score of the current position (UCCI `go depth 0`).
    pub fn quiescence_score(&mut self, game: &Game) -> i32 {
        let control = Control::new(false);
        self.qsearch(game.position(), -INFINITE, INFINITE, 0, &control)
    }

    /// Searches the current position of `game` within `limits`. Returns when a limit is reached
    /// or `control` is stopped; with `infinite` (or while pondering) it holds the result until
    /// stopped (or until `ponderhit` and a limit).
    pub fn search(
        &mut self,
        game: &Game,
        limits: &Limits,
        control: &Control,
        sink: &mut dyn InfoSink,
    ) -> SearchResult {
        let root = game.position();
        let mut root_moves: Vec<Move> = root.legal_moves().iter().collect();
        if !limits.root_moves.is_empty() {
            root_moves.retain(|m| limits.root_moves.contains(m));
        }
        self.nodes = 0;
        self.aborted = false;
        self.node_limit = limits.nodes;
        let hard = limits
            .movetime
            .map(|t| t.saturating_sub(limits.move_overhead).max(1))
            .or_else(|| {
                limits.clock.map(|c| {
                    let mtg = c.movestogo.unwrap_or(30).clamp(1, 50) as u64;
                    (c.time / mtg + c.inc * 3 / 4)
                        .min(c.time.saturating_sub(limits.move_overhead))
                        .max(1)
                })
            });
        self.deadline = hard;
        let mut result = SearchResult {
            best: root_moves.first().copied(),
            ..Default::default()
        };
        if root_moves.is_empty() {
            return result;
        }
        let max_depth = limits
            .depth
            .unwrap_or(MAX_PLY as u32 - 1)
            .clamp(1, MAX_PLY as u32 - 1);
        for depth in 1..=max_depth {
            self.seldepth = 0;
            let mut alpha = -INFINITE;
            let mut best = None;
            for i in 0..root_moves.len() {
                let m = root_moves[i];
                let v = -self.negamax(
                    &root.play(m),
                    depth as i32 - 1,
                    -INFINITE,
                    -alpha,
                    1,
                    control,
                );
                if self.aborted {
                    break;
                }
                if v > alpha {
                    alpha = v;
                    best = Some(m);
                    root_moves[..=i].rotate_right(1);
                }
            }
            if self.aborted {
                break;
            }
            result.best = best;
            result.score = alpha;
            result.depth = depth;
            let elapsed = control.elapsed_ms();
            sink.iteration(&Info {
                depth,
                seldepth: self.seldepth,
                score: alpha,
                bound: Bound::Exact,
                nodes: self.nodes,
                time_ms: elapsed,
                nps: self.nodes * 1000 / elapsed.max(1),
                hashfull: 0,
                pv: best.into_iter().collect(),
            });
            if let Some(d) = self.deadline {
                if control.clock_ms() * 2 > d && !control.pondering() {
                    break;
                }
            }
        }
        result.nodes = self.nodes;
        while (limits.infinite || control.pondering()) && !control.stopped() {
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        result
    }

    fn check_abort(&mut self, control: &Control) {
        if self.nodes & 1023 == 0 {
            if control.stopped() {
                self.aborted = true;
            }
            if let Some(d) = self.deadline {
                if !control.pondering() && control.clock_ms() >= d {
                    self.aborted = true;
                }
            }
        }
        if let Some(n) = self.node_limit {
            if self.nodes >= n {
                self.aborted = true;
            }
        }
    }

    fn negamax(
        &mut self,
        pos: &Position,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: i32,
        control: &Control,
    ) -> i32 {
        if depth <= 0 || ply >= MAX_PLY - 1 {
            return self.qsearch(pos, alpha, beta, ply, control);
        }
        self.nodes += 1;
        self.check_abort(control);
        if self.aborted {
            return 0;
        }
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return mated_in(ply);
        }
        for m in moves.iter() {
            let v = -self.negamax(&pos.play(m), depth - 1, -beta, -alpha, ply + 1, control);
            if self.aborted {
                return 0;
            }
            if v > alpha {
                alpha = v;
                if alpha >= beta {
                    break;
                }
            }
        }
        alpha
    }

    fn qsearch(
        &mut self,
        pos: &Position,
        mut alpha: i32,
        beta: i32,
        ply: i32,
        control: &Control,
    ) -> i32 {
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply as u32);
        self.check_abort(control);
        if self.aborted {
            return 0;
        }
        let in_check = pos.in_check();
        let moves = if in_check {
            pos.legal_moves()
        } else {
            pos.legal_captures()
        };
        if in_check && moves.is_empty() {
            return mated_in(ply);
        }
        if !in_check {
            let stand = evaluate(pos);
            if stand >= beta || ply >= MAX_PLY - 1 {
                return stand;
            }
            alpha = alpha.max(stand);
        }
        for m in moves.iter() {
            let v = -self.qsearch(&pos.play(m), -beta, -alpha, ply + 1, control);
            if self.aborted {
                return 0;
            }
            if v > alpha {
                alpha = v;
                if alpha >= beta {
                    break;
                }
            }
        }
        alpha
    }
}
