//! The game search: iterative deepening with aspiration windows over a principal-variation
//! alpha-beta (`negamax`) with quiescence, a transposition table (`tt`), move ordering by hash
//! move, MVV-LVA, killers, counter-moves and history (`ordering`), null-move pruning, late-move
//! reductions, check extensions, and reverse-futility, futility and razoring at shallow depth.
//!
//! The controlling thread hands a `Searcher` (which owns the tables) to a search thread, which
//! returns it with the result. Progress goes out through an `InfoSink` as data; turning it into
//! protocol text is the protocol's job.

pub mod bench;
pub mod limits;
pub mod negamax;
pub mod ordering;
pub mod params;
pub mod skill;
pub mod threads;
pub mod time;
pub mod tt;

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

/// The hash table could not be resized: the memory was not to be had.
#[derive(Debug, thiserror::Error)]
#[error("cannot allocate {wanted} MiB for the hash table ({source}); kept {kept} MiB")]
pub struct HashError {
    /// The size asked for, in MiB.
    pub wanted: usize,
    /// The size kept, in MiB.
    pub kept: usize,
    /// The allocator's refusal.
    pub source: std::collections::TryReserveError,
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

/// Owns the search tables (hash table, histories) between searches.
pub struct Searcher {
    tt: Arc<tt::Table>,
    hash_mb: usize,
    heur: Heuristics,
    /// 0 for the main thread, 1… for helpers.
    thread_id: usize,
    /// Helper threads (only the main searcher has any).
    pool: threads::Pool,
    /// Where a helper publishes its node count.
    published: Option<Arc<AtomicU64>>,
    /// A helper's halt flag, raised by the main thread when its search ends.
    halt: Option<Arc<AtomicBool>>,
    /// Number of principal variations wanted (MultiPV).
    multipv: usize,
    // Per-search state.
    nodes: u64,
    seldepth: u32,
    aborted: bool,
    root: usize,
    root_depth: u32,
    stack: Vec<Frame>,
    pv: Box<[[Option<Move>; PLIES]; PLIES]>,
    pv_len: [usize; PLIES],
    /// The move left out at each ply by a singular-extension search (`None` elsewhere).
    excluded: [Option<Move>; PLIES],
    signals: Arc<Signals>,
    budget: Option<time::Budget>,
    node_limit: Option<u64>,
    /// The node count at which `check_limits` runs next.
    next_poll: u64,
    /// Enough iterations are complete for the node limit to apply (`Limits::min_depth`).
    can_abort: bool,
    /// An iteration is complete: a timed search may stop without losing its answer.
    completed: bool,
    /// A timed search with one root move: answer once an iteration is complete.
    single_move: bool,
    /// `go mate N`: a root move proved to mate in at most N moves ends the search.
    mate_limit: Option<u32>,
    /// Set by the root search when it proved the mate `mate_limit` asks for.
    mate_proven: bool,
    /// The network's accumulators, one per ply from the root, when the network evaluates.
    nnue: Option<AccumulatorStack>,
    /// The tuning numbers.
    params: Params,
    /// The late move reductions of `params`, made at the start of each search.
    lmr: params::Reductions,
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
        s.thread_id = id;
        s.published = Some(published);
        s.halt = Some(Arc::clone(halt));
        s
    }

    fn with_table(tt: Arc<tt::Table>, hash_mb: usize) -> Searcher {
        Searcher {
            tt,
            hash_mb: hash_mb.max(1),
            heur: Heuristics::new(PLIES),
            thread_id: 0,
            pool: threads::Pool::default(),
            published: None,
            halt: None,
            multipv: 1,
            nodes: 0,
            seldepth: 0,
            aborted: false,
            root: 0,
            root_depth: 0,
            stack: Vec::new(),
            pv: Box::new([[None; PLIES]; PLIES]),
            pv_len: [0; PLIES],
            excluded: [None; PLIES],
            signals: Arc::new(Signals::new(false)),
            budget: None,
            node_limit: None,
            next_poll: 0,
            can_abort: false,
            completed: false,
            single_move: false,
            mate_limit: None,
            mate_proven: false,
            nnue: None,
            lmr: params::Reductions::new(&Params::default()),
            params: Params::default(),
        }
    }

    /// The search's tuning numbers.
    pub fn params(&self) -> &Params {
        &self.params
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
            self.tt.clear();
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
        let old = self.hash_mb;
        // Between searches the main searcher holds the only reference: this frees the table.
        self.tt = Arc::new(tt::Table::empty());
        match tt::Table::try_new(mb) {
            Ok(t) => {
                self.tt = Arc::new(t);
                self.hash_mb = mb;
                Ok(())
            }
            Err(e) => {
                self.tt = Arc::new(tt::Table::new(old));
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
        self.hash_mb
    }

    /// Forgets everything learnt (new game): hash table and histories.
    pub fn clear(&mut self) {
        self.tt.clear();
        self.heur.clear();
        self.pool.clear();
    }

    /// Hash table fill, per mille.
    pub fn hashfull(&self) -> u32 {
        self.tt.hashfull()
    }

    /// The hash table's move and bounds for `pos`, if stored (UCCI `probe`):
    /// (move, score, depth, bound).
    pub fn probe(&self, pos: &Position) -> Option<(Option<Move>, Score, i32, tt::Bound)> {
        self.tt.probe(pos.key()).map(|h| {
            let score = Score::from_tt(h.score, 0, 0);
            (h.mv.filter(|&m| pos.is_legal(m)), score, h.depth, h.bound)
        })
    }

    fn setup(&mut self, game: &Game, signals: &Arc<Signals>) {
        self.signals = Arc::clone(signals);
        self.nodes = 0;
        self.next_poll = POLL_NODES;
        self.seldepth = 0;
        self.aborted = false;
        self.completed = false;
        self.mate_proven = false;
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
        self.signals.stopped()
            || self
                .halt
                .as_ref()
                .is_some_and(|h| h.load(Ordering::Relaxed))
    }

    /// Counts a node; every `POLL_NODES` nodes, checks the limits.
    #[inline]
    fn poll(&mut self) {
        self.nodes += 1;
        if self.nodes >= self.next_poll {
            self.check_limits();
        }
    }

    /// Every `POLL_NODES` nodes (and exactly at the node limit): publish the node count, and
    /// abort on `stop`, at the hard time limit, at the node limit, or at a `ponderhit` that
    /// leaves nothing to think about.
    fn check_limits(&mut self) {
        self.next_poll = self.nodes + POLL_NODES;
        if let Some(p) = &self.published {
            p.store(self.nodes, Ordering::Relaxed);
        }
        if self.halted() {
            self.aborted = true;
            return;
        }
        if self.out_of_time() {
            self.aborted = true;
            return;
        }
        if !self.can_abort {
            return;
        }
        if let Some(n) = self.node_limit {
            let total = self.total_nodes();
            if total >= n {
                self.aborted = true;
            } else {
                // Poll again exactly at the limit (counting this thread's nodes from here).
                self.next_poll = self.next_poll.min(self.nodes + (n - total));
            }
        }
    }

    /// Whether a timed search must end now (never while pondering): at the hard limit, which
    /// holds even before the first iteration completes (the answer is then the hash move or the
    /// first move: never lose on time); or, once an iteration is complete, with a single move,
    /// or after a `ponderhit` that came when the target had passed (pondering counts).
    fn out_of_time(&self) -> bool {
        let Some(b) = self.budget else {
            return false;
        };
        if self.signals.pondering() {
            return false;
        }
        if self.signals.clock_ms() >= b.hard {
            return true;
        }
        let late_hit = !b.exact && self.signals.ponderhit_ms().is_some_and(|t| t >= b.target);
        self.completed && (late_hit || self.single_move)
    }

    /// Quiescence score of the current position (UCCI `go depth 0`).
    pub fn quiescence_score(&mut self, game: &Game) -> Score {
        let signals = Arc::new(Signals::new(false));
        self.setup(game, &signals);
        self.can_abort = false;
        self.budget = None;
        self.node_limit = None;
        self.single_move = false;
        self.mate_limit = None;
        self.qsearch(game.position(), -Score::INFINITE, Score::INFINITE, 0)
    }

    /// Searches the current position of `game` within `limits`. Returns when a limit is reached
    /// or `signals` is stopped; with `infinite` (or while pondering) it holds the result until
    /// stopped (or until `ponderhit` and a limit).
    pub fn search(
        &mut self,
        game: &Game,
        limits: &Limits,
        signals: &Arc<Signals>,
        sink: &mut dyn InfoSink,
    ) -> SearchResult {
        let root_pos = game.position().clone();
        let mut root_moves: Vec<Move> = root_pos.legal_moves().iter().collect();
        if !limits.root_moves.is_empty() {
            let wanted: Vec<Move> = root_moves
                .iter()
                .copied()
                .filter(|m| limits.root_moves.contains(m))
                .collect();
            if !wanted.is_empty() {
                root_moves = wanted;
            }
        }
        self.setup(game, signals);
        if self.thread_id == 0 {
            self.tt.new_search();
        }
        let budget = time::budget(limits);
        self.budget = budget;
        self.node_limit = limits.nodes;
        self.can_abort = false;
        self.single_move = budget.is_some() && root_moves.len() == 1;
        self.mate_limit = limits.mate;
        let mut result = SearchResult {
            best: root_moves.first().copied(),
            ..Default::default()
        };
        if root_moves.is_empty() {
            return result;
        }
        // Hash move first.
        if let Some(m) = self.tt.probe(root_pos.key()).and_then(|h| h.mv) {
            if let Some(i) = root_moves.iter().position(|&x| x == m) {
                root_moves[..=i].rotate_right(1);
            }
        }
        let max_depth = limits
            .depth
            .unwrap_or(MAX_PLY as u32 - 4)
            .clamp(1, MAX_PLY as u32 - 4);
        let mut prev_score = Score::DRAW;
        let mut instability = 0.0f64;
        let n_lines = self.multipv.min(root_moves.len());
        let mut prev_lines: Vec<Line> = Vec::new();
        self.pool.start(threads::Job {
            game: game.clone(),
            limits: limits.clone(),
            signals: Arc::clone(signals),
            tt: Arc::clone(&self.tt),
            multipv: self.multipv,
            network: self.network().cloned(),
            params: self.params.clone(),
        });
        for depth in 1..=max_depth {
            if threads::skips(self.thread_id, depth) && depth < max_depth {
                continue;
            }
            self.root_depth = depth;
            self.seldepth = 0;
            // MultiPV: line k is the best of the root moves not already in lines 1…k−1.
            let mut lines: Vec<Line> = Vec::with_capacity(n_lines);
            for k in 0..n_lines {
                let prev = if k == 0 {
                    prev_score
                } else {
                    prev_lines.get(k).map_or(Score::DRAW, |l: &Line| l.score)
                };
                let mut delta = self.params.asp_delta;
                let (mut alpha, mut beta) =
                    if depth as i32 >= self.params.asp_depth && !prev.is_mate() {
                        (prev - delta, prev + delta)
                    } else {
                        (-Score::INFINITE, Score::INFINITE)
                    };
                let score = loop {
                    let v = self.root_search(
                        &root_pos,
                        &mut root_moves[k..],
                        k,
                        depth as i32,
                        alpha,
                        beta,
                        sink,
                    );
                    // A proven mate in N stands, even as a bound outside the window.
                    if self.aborted || self.mate_proven {
                        break v;
                    }
                    if v <= alpha {
                        beta = Score::cp((alpha.get() + beta.get()) / 2);
                        alpha = (v - delta).max(-Score::INFINITE);
                    } else if v >= beta {
                        beta = (v + delta).min(Score::INFINITE);
                    } else {
                        break v;
                    }
                    delta += delta;
                    if delta > self.params.asp_max_delta {
                        alpha = -Score::INFINITE;
                        beta = Score::INFINITE;
                    }
                };
                if self.aborted {
                    break;
                }
                let mut pv: Vec<Move> = (0..self.pv_len[0]).filter_map(|i| self.pv[0][i]).collect();
                if pv.first() != Some(&root_moves[k]) {
                    pv = vec![root_moves[k]];
                }
                lines.push(Line {
                    score,
                    pv: legal_pv(&root_pos, &pv),
                });
                // Lines so far in score order (stable), root moves in the same order.
                lines.sort_by_key(|l| std::cmp::Reverse(l.score));
                for (i, l) in lines.iter().enumerate() {
                    root_moves[i] = l.pv[0];
                }
                // The root moves searched for a line are still all in root_moves[k..]: sorting
                // permutes the first k+1 only, which hold exactly the lines' first moves.
                if self.mate_proven {
                    break;
                }
            }
            if self.aborted {
                // The unfinished iteration is discarded: the last completed one stands.
                break;
            }
            let score = lines[0].score;
            let pv = lines[0].pv.clone();
            let best = pv.first().copied().unwrap_or(root_moves[0]);
            if result.best != Some(best) && depth > 1 {
                instability += 1.0;
            }
            instability *= self.params.instability_decay;
            result.best = Some(best);
            result.ponder = pv.get(1).copied();
            result.score = score;
            result.depth = depth;
            result.seldepth = self.seldepth.max(depth);
            prev_score = score;
            self.completed = true;
            self.can_abort = depth >= limits.min_depth.unwrap_or(1);
            if let Some(n) = limits.nodes.filter(|_| self.can_abort) {
                // Poll exactly at the limit from now on.
                self.next_poll = self
                    .next_poll
                    .min(self.nodes + n.saturating_sub(self.total_nodes()));
            }
            let elapsed = self.signals.elapsed_ms();
            let nodes = self.total_nodes();
            result.reported_nodes = nodes;
            for (k, l) in lines.iter().enumerate() {
                sink.iteration(&Info {
                    depth,
                    multipv: k as u32 + 1,
                    seldepth: result.seldepth,
                    score: l.score,
                    nodes,
                    time_ms: elapsed,
                    nps: nodes * 1000 / elapsed.max(1),
                    hashfull: self.tt.hashfull(),
                    pv: l.pv.clone(),
                });
            }
            result.lines = lines.clone();
            prev_lines = lines;
            if let Some(n) = limits.mate {
                if score >= mate_within(n) {
                    break;
                }
            }
            if let Some(n) = limits.nodes.filter(|_| self.can_abort) {
                if self.total_nodes() >= n {
                    break;
                }
            }
            if let Some(b) = budget.filter(|_| !self.signals.pondering()) {
                // Pondering counts: the search is that much deeper.
                if b.soft_stop(self.signals.elapsed_ms(), instability) || self.out_of_time() {
                    break;
                }
            }
            // A proven mate needs no deeper search (unless the GUI wants to keep going).
            if score
                .plies_to_end()
                .is_some_and(|p| depth as i32 > 2 * p + 4)
                && score.is_mate()
                && limits.depth.is_none()
            {
                break;
            }
            if self.halted() {
                break;
            }
        }
        // Hold the result while the GUI still waits for `stop` (infinite, or pondering).
        while (limits.infinite || self.signals.pondering()) && !self.halted() {
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        self.pool.stop();
        if let Some(p) = &self.published {
            p.store(self.nodes, Ordering::Relaxed);
        }
        if result.lines.is_empty() {
            // Stopped before the first iteration completed: the static evaluation will do.
            result.score = self.evaluate(&root_pos, 0);
        }
        result.nodes = self.total_nodes();
        result.time_ms = self.signals.elapsed_ms();
        result.hashfull = self.tt.hashfull();
        result
    }

    /// One root iteration: PVS over `moves` (reordered: best first), the root moves after the
    /// first `skipped` (MultiPV lines already found; the table is written for line 1 only).
    #[allow(clippy::too_many_arguments)]
    fn root_search(
        &mut self,
        pos: &Position,
        moves: &mut [Move],
        skipped: usize,
        depth: i32,
        mut alpha: Score,
        beta: Score,
        sink: &mut dyn InfoSink,
    ) -> Score {
        let store = skipped == 0;
        let mut best = -Score::INFINITE;
        self.pv_len[0] = 0;
        let idx = self.root;
        for i in 0..moves.len() {
            let m = moves[i];
            if self.thread_id == 0 && self.signals.elapsed_ms() >= CURRMOVE_AFTER_MS {
                sink.current_move(depth as u32, m, (skipped + i + 1) as u32);
            }
            let capture = pos.piece_at(m.to()).is_some();
            let child = pos.play(m);
            let piece = pos.piece_at(m.from()).map_or(0, |p| p.index());
            self.stack[idx].moved = Some((piece, m));
            let check = child.in_check();
            self.push_frame(idx, &child, check, Some(m), capture);
            self.push_eval(1, pos, Some(m));
            let v = if i == 0 {
                -self.negamax(&child, depth - 1, -beta, -alpha, 1, true)
            } else {
                let mut v = -self.negamax(&child, depth - 1, -alpha - 1, -alpha, 1, true);
                if v > alpha && v < beta && !self.aborted {
                    v = -self.negamax(&child, depth - 1, -beta, -alpha, 1, true);
                }
                v
            };
            if self.aborted {
                return best.max(alpha);
            }
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    self.update_pv(0, m);
                    moves[..=i].rotate_right(1);
                    // Above alpha, `v` is exact or a lower bound: either way a proven mate.
                    if self.mate_limit.is_some_and(|n| v >= mate_within(n)) {
                        self.mate_proven = true;
                        break;
                    }
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        if let Some(s) = best.to_tt(0).filter(|_| store) {
            // Cut short by a proven mate, the other moves are unsearched: a lower bound.
            let bound = if best >= beta || self.mate_proven {
                tt::Bound::Lower
            } else {
                tt::Bound::Exact
            };
            let mv = self.pv[0][0];
            self.tt.store(pos.key(), mv, s, Score::DRAW, depth, bound);
        }
        best
    }
}

/// The lowest score that proves a mate in at most `moves` moves (`go mate`).
fn mate_within(moves: u32) -> Score {
    let plies = moves.min(MAX_PLY as u32) as i32 * 2 - 1;
    Score::mate_in(plies)
}

/// Nodes between two calls of `check_limits`.
const POLL_NODES: u64 = 1024;

/// The longest legal prefix of `pv` from `root`.
fn legal_pv(root: &Position, pv: &[Move]) -> Vec<Move> {
    let mut pos = root.clone();
    let mut out = Vec::new();
    for &m in pv {
        if !pos.is_legal(m) {
            break;
        }
        out.push(m);
        pos = pos.play(m);
    }
    out
}
