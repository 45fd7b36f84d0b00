//! The game search: iterative deepening with aspiration windows over a principal-variation
//! alpha-beta (`negamax`) with quiescence, a transposition table (`tt`), move ordering by hash
//! move, MVV-LVA, killers, counter-moves and history (`ordering`), null-move pruning, late-move
//! reductions, check extensions, and reverse-futility, futility and razoring at shallow depth.
//!
//! The controlling thread hands a `Searcher` (which owns the tables) to a search thread, which
//! returns it with the result. Progress goes out through an `InfoSink` as data; turning it into
//! protocol text is the protocol's job.

pub mod bench;
pub mod lag;
pub mod limits;
pub mod negamax;
pub mod ordering;
pub mod params;
mod root;
pub mod skill;
pub mod threads;
pub mod time;
pub mod tt;
mod watch;

pub use lag::Lag;
pub use limits::{Clock, Limits, Signals};
pub use params::{ParamError, Params};
pub use tt::Bound;

use crate::board::{Game, Move, Position};
use crate::eval::nnue::{AccumulatorStack, Network};
use crate::score::{Score, MAX_PLY};
use negamax::Frame;
use ordering::Heuristics;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use watch::{Watch, POLL_NODES};

/// The hash table could not be resized: the memory was not to be had.
#[derive(Debug, thiserror::Error)]
#[error("cannot allocate {wanted} MiB for the hash table ({source}); kept {kept} MiB")]
pub struct HashError {
    /// The size asked for, in MiB.
    pub wanted: usize,
    /// The size kept, in MiB.
    pub kept: usize,
    /// The allocator's refusal.
    pub source: crate::large::AllocError,
}

/// One progress report: normally one per completed iteration.
#[derive(Clone, Debug)]
pub struct Info {
    /// Iteration depth.
    pub depth: u32,
    /// Which line this is (1 = best; MultiPV).
    pub multipv: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// Score from the side to move's view.
    pub score: Score,
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

    /// The main thread starts searching root move `mv`, the `number`th of iteration `depth`
    /// (only once the search has run `CURRMOVE_AFTER_MS`).
    fn current_move(&mut self, _depth: u32, _mv: Move, _number: u32) {}
}

/// After this many milliseconds a search reports each root move it starts (`currmove`).
pub const CURRMOVE_AFTER_MS: u64 = 3000;

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
    pub score: Score,
    /// Depth of the last completed iteration.
    pub depth: u32,
    /// Deepest ply reached in the last completed iteration.
    pub seldepth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// The node count the last iteration was reported with: equal to `nodes` when nothing was
    /// searched after it.
    pub reported_nodes: u64,
    /// Milliseconds from the start of the search to its end.
    pub time_ms: u64,
    /// Hash table fill at the end, per mille.
    pub hashfull: u32,
    /// The lines of the last completed iteration, best first (one unless MultiPV). Empty when
    /// no iteration completed: `best` is then the hash move or the first move, and `score` the
    /// static evaluation.
    pub lines: Vec<Line>,
}

/// One principal variation of a completed iteration.
#[derive(Clone, Debug)]
pub struct Line {
    /// Its score (side to move's view).
    pub score: Score,
    /// Its moves, legal from the root; never empty.
    pub pv: Vec<Move>,
}

const PLIES: usize = MAX_PLY as usize + 2;

/// The hash table's size in MiB unless asked otherwise (the `Hash` option's default).
pub const DEFAULT_HASH_MB: usize = 16;

/// What a searcher learns and keeps from one search to the next: the hash table (shared with
/// the helper threads) and the move-ordering histories (its own). `clear` forgets them.
struct Tables {
    tt: Arc<tt::Table>,
    /// The table's size in MiB.
    hash_mb: usize,
    heur: Heuristics,
}

/// Owns the search tables between searches, and walks the tree during one: Stockfish's
/// worker. The tables and the settings live across searches; the tree walk's state below
/// them is one search's, made anew by `setup`.
pub struct Searcher {
    tables: Tables,
    /// Helper threads (only the main searcher has any).
    pool: threads::Pool,
    /// Number of principal variations wanted (MultiPV).
    multipv: usize,
    /// The tuning numbers.
    params: Params,
    /// The network's accumulators, one per ply from the root, when the network evaluates.
    nnue: Option<AccumulatorStack>,
    /// A helper thread's link to the main thread (`None` for the main searcher).
    helper: Option<Helper>,
    // One search's tree walk, reset by `setup`.
    nodes: u64,
    seldepth: u32,
    aborted: bool,
    /// The root's index in `stack` (the game's history since the last capture comes first).
    root: usize,
    root_depth: u32,
    stack: Vec<Frame>,
    pv: Box<[[Option<Move>; PLIES]; PLIES]>,
    pv_len: [usize; PLIES],
    /// The move left out at each ply by a singular-extension search (`None` elsewhere).
    excluded: [Option<Move>; PLIES],
    /// The late move reductions of `params`, made at the start of each search.
    lmr: params::Reductions,
    /// This search's limits and stop decision.
    watch: Watch,
    /// The score the last search ended with, from its mover's view: the score a falling
    /// score is measured from (`time::fall_scale`). Forgotten by `clear`.
    previous: Option<Score>,
}

/// What only a helper thread's searcher has.
struct Helper {
    /// 1… (the main thread is 0).
    id: usize,
    /// Where it publishes its node count.
    published: Arc<AtomicU64>,
    /// Its halt flag, raised by the main thread when its search ends.
    halt: Arc<AtomicBool>,
}

impl Default for Searcher {
    /// A searcher with a hash table of `DEFAULT_HASH_MB` MiB.
    fn default() -> Searcher {
        Searcher::new(DEFAULT_HASH_MB)
    }
}

impl Searcher {
    /// A searcher with a hash table of `hash_mb` MiB.
    pub fn new(hash_mb: usize) -> Searcher {
        Searcher::with_table(Arc::new(tt::Table::new(hash_mb)), hash_mb)
    }

    /// A helper thread's searcher: it is given the shared table with each search and holds
    /// none in between (so a resize frees the old table before allocating the new one).
    fn helper(id: usize, published: Arc<AtomicU64>, halt: &Arc<AtomicBool>) -> Searcher {
        let mut s = Searcher::with_table(Arc::new(tt::Table::empty()), 0);
        s.helper = Some(Helper {
            id,
            published,
            halt: Arc::clone(halt),
        });
        s
    }

    /// 0 for the main thread, 1… for helpers.
    fn thread_id(&self) -> usize {
        self.helper.as_ref().map_or(0, |h| h.id)
    }

    /// Whether this is the main thread's searcher.
    fn is_main(&self) -> bool {
        self.helper.is_none()
    }

    fn with_table(tt: Arc<tt::Table>, hash_mb: usize) -> Searcher {
        Searcher {
            tables: Tables {
                tt,
                hash_mb: hash_mb.max(1),
                heur: Heuristics::new(PLIES),
            },
            pool: threads::Pool::default(),
            multipv: 1,
            params: Params::default(),
            nnue: None,
            helper: None,
            nodes: 0,
            seldepth: 0,
            aborted: false,
            root: 0,
            root_depth: 0,
            stack: Vec::new(),
            pv: Box::new([[None; PLIES]; PLIES]),
            pv_len: [0; PLIES],
            excluded: [None; PLIES],
            lmr: params::Reductions::new(&Params::default()),
            watch: Watch::new(
                &Arc::new(Signals::new(false)),
                &Limits::default(),
                0,
                &Params::default(),
            ),
            previous: None,
        }
    }

    /// The search's tuning numbers, to change; helper threads take a copy at each search's
    /// start.
    pub fn params_mut(&mut self) -> &mut Params {
        &mut self.params
    }

    /// Searches with `params` from now on.
    pub fn set_params(&mut self, params: Params) {
        self.params = params;
    }

    /// Evaluates with `net` from now on, or with the classical evaluation for `None`. The hash
    /// table is cleared when the evaluation changes (it stores static evaluations).
    pub fn set_network(&mut self, net: Option<Arc<Network>>) {
        if self.use_network(net) {
            self.tables.tt.clear();
        }
    }

    /// Evaluates with `net` (or classically) without touching the shared table: a helper
    /// thread follows the main searcher's choice this way. Returns whether it changed.
    fn use_network(&mut self, net: Option<Arc<Network>>) -> bool {
        let same = match (&self.nnue, &net) {
            (Some(s), Some(n)) => Arc::ptr_eq(s.network(), n),
            (None, None) => true,
            _ => false,
        };
        if !same {
            self.nnue = net.map(|n| AccumulatorStack::new(n, PLIES + 2));
        }
        !same
    }

    /// The network in use, if the search evaluates with one.
    pub fn network(&self) -> Option<&Arc<Network>> {
        self.nnue.as_ref().map(|s| s.network())
    }

    /// Resizes the hash table (clears it). The old table is freed first, so the process never
    /// holds both. If `mb` MiB cannot be had, the table keeps its old size and the error says so.
    pub fn set_hash_mb(&mut self, mb: usize) -> Result<(), HashError> {
        let mb = mb.max(1);
        let old = self.tables.hash_mb;
        // Between searches the main searcher holds the only reference: this frees the table.
        self.tables.tt = Arc::new(tt::Table::empty());
        match tt::Table::try_new(mb) {
            Ok(t) => {
                self.tables.tt = Arc::new(t);
                self.tables.hash_mb = mb;
                Ok(())
            }
            Err(e) => {
                self.tables.tt = Arc::new(tt::Table::new(old));
                Err(HashError {
                    wanted: mb,
                    kept: old,
                    source: e,
                })
            }
        }
    }

    /// Sets the number of search threads (1 = the main thread alone), clamped to
    /// 1..=`threads::MAX_THREADS`. Helper threads are kept and reused between searches.
    pub fn set_threads(&mut self, n: usize) {
        let helpers = n.clamp(1, threads::MAX_THREADS) - 1;
        self.pool.resize(helpers);
    }

    /// Number of search threads.
    pub fn threads(&self) -> usize {
        self.pool.helpers() + 1
    }

    /// Sets the number of principal variations reported (MultiPV), at least 1.
    pub fn set_multipv(&mut self, n: usize) {
        self.multipv = n.max(1);
    }

    /// Hash table size in MiB.
    pub fn hash_mb(&self) -> usize {
        self.tables.hash_mb
    }

    /// Forgets everything learnt (new game): hash table and histories.
    pub fn clear(&mut self) {
        self.previous = None;
        self.tables.tt.clear();
        self.tables.heur.clear();
        self.pool.clear();
    }

    /// Hash table fill, per mille.
    pub fn hashfull(&self) -> u32 {
        self.tables.tt.hashfull()
    }

    /// The hash table's move and bounds for `pos`, if stored (UCCI `probe`):
    /// (move, score, depth, bound).
    pub fn probe(&self, pos: &Position) -> Option<(Option<Move>, Score, i32, tt::Bound)> {
        self.tables.tt.probe(pos.key()).map(|h| {
            let score = Score::from_tt(h.score, 0, 0);
            (h.mv.filter(|&m| pos.is_legal(m)), score, h.depth, h.bound)
        })
    }

    /// Makes ready for a search of `game` watched by `watch`: the tree walk from the game's
    /// history since the last capture, the reductions of `params`, the network's accumulators.
    fn setup(&mut self, game: &Game, watch: Watch) {
        self.watch = watch;
        self.nodes = 0;
        self.seldepth = 0;
        self.aborted = false;
        self.lmr = params::Reductions::new(&self.params);
        self.stack.clear();
        let positions = game.positions();
        // Only the part of the history that can repeat matters: since the last capture.
        let start = positions
            .len()
            .saturating_sub(positions.last().map_or(0, |p| p.halfmove_clock() as usize) + 1);
        let mut window = 0u16;
        let moves = game.moves();
        for (i, p) in positions[start..].iter().enumerate() {
            if i > 0 {
                window = window.saturating_add(1);
            }
            // The move played from here, kept for judging chases in a cycle through history.
            let moved = moves.get(start + i).map(|&m| {
                let piece = p.piece_at(m.from()).map_or(0, |pc| pc.index());
                (piece, m)
            });
            self.stack.push(Frame {
                key: p.key(),
                in_check: p.in_check(),
                window,
                eval: Score::DRAW,
                moved,
            });
        }
        self.root = self.stack.len() - 1;
        self.stack.resize(self.root + PLIES + 2, Frame::default());
        if let Some(acc) = &mut self.nnue {
            acc.refresh(0, game.position());
        }
    }

    /// Nodes of every thread in this search.
    fn total_nodes(&self) -> u64 {
        self.nodes + self.pool.nodes()
    }

    /// Whether this search must end now: stopped by the GUI, or (helpers) by the main thread.
    fn halted(&self) -> bool {
        self.watch.signals.stopped()
            || self
                .helper
                .as_ref()
                .is_some_and(|h| h.halt.load(Ordering::Relaxed))
    }

    /// Counts a node; every `POLL_NODES` nodes, checks the limits. Returns whether the search
    /// goes on: once aborted, no node is entered (or counted), so a node limit is exact on
    /// every path, however a caller reached the node after the abort.
    #[inline]
    fn poll(&mut self) -> bool {
        if self.aborted {
            return false;
        }
        self.nodes += 1;
        if self.nodes >= self.watch.next_poll {
            self.check_limits();
        }
        !self.aborted
    }

    /// Every `POLL_NODES` nodes (and exactly at the node limit): publish the node count, and
    /// abort on `stop`, at the hard time limit, at the node limit, or at a `ponderhit` that
    /// leaves nothing to think about.
    fn check_limits(&mut self) {
        self.watch.next_poll = self.nodes + POLL_NODES;
        self.publish_nodes();
        // In a browser, the lines that arrived (a `stop`) are read here.
        crate::host::poll();
        if self.halted() || self.watch.out_of_time() {
            self.aborted = true;
            return;
        }
        if self.at_node_limit() {
            self.aborted = true;
        }
    }

    /// Whether the node limit (of every thread together) is reached, once it applies
    /// (`Limits::min_depth`); if not, the next poll comes exactly at it (counting this thread's
    /// nodes from here) or sooner.
    fn at_node_limit(&mut self) -> bool {
        let Some(n) = self.watch.node_limit.filter(|_| self.watch.can_abort) else {
            return false;
        };
        let total = self.total_nodes();
        let left = n.saturating_sub(total);
        self.watch.next_poll = self.watch.next_poll.min(self.nodes + left);
        left == 0
    }

    /// Quiescence score of the current position (UCCI `go depth 0`).
    pub fn quiescence_score(&mut self, game: &Game) -> Score {
        let signals = Arc::new(Signals::new(false));
        let watch = Watch::new(&signals, &Limits::default(), 0, &self.params);
        self.setup(game, watch);
        self.qsearch(game.position(), -Score::INFINITE, Score::INFINITE, 0, 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_score_is_kept_until_a_new_game() {
        let mut s = Searcher::new(1);
        let game = Game::new(Position::startpos());
        let limits = Limits {
            depth: Some(3),
            ..Default::default()
        };
        assert_eq!(s.previous, None);
        let r = s.search(
            &game,
            &limits,
            &Arc::new(Signals::new(false)),
            &mut NullSink,
        );
        assert_eq!(s.previous, Some(r.score));
        s.clear();
        assert_eq!(s.previous, None);
    }
}
