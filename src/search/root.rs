//! The root of the search: iterative deepening over a list of `RootMove`s, in steps: the root
//! moves (`root_moves`), one iteration of MultiPV lines (`iteration`), each line in an
//! aspiration window (`aspiration`) over a PVS of the root moves (`root_search`), the record
//! and report of a completed iteration (`complete`, `report`), the decision to start another
//! (`stop_after`), and holding the answer while the GUI waits (`hold`).
//!
//! The `RootMove` list is the one source of the root's order, scores and lines: after an
//! iteration its first entries are the lines, best first (a stable sort by score), and the
//! next iteration searches the moves in that order.

use super::watch::Watch;
use super::{threads, Info, InfoSink, Limits, Line, SearchResult, Searcher, Signals};
use super::{tt, CURRMOVE_AFTER_MS};
use crate::board::{Game, Move, Position};
use crate::score::{Score, MAX_PLY};
use std::sync::atomic::Ordering;
use std::sync::Arc;

/// One move of the root and what the search knows of it.
#[derive(Clone, Debug)]
pub(super) struct RootMove {
    /// The move.
    pub mv: Move,
    /// Its line's score in the current iteration (`-INFINITE` while it has no line).
    pub score: Score,
    /// Its line's score in the last completed iteration (`-INFINITE` if it had none).
    pub previous: Score,
    /// Its line, legal from the root and starting with `mv` (empty while it has none).
    pub pv: Vec<Move>,
    /// The nodes this thread spent on it in this search, over every iteration.
    pub effort: u64,
}

impl RootMove {
    fn new(mv: Move) -> RootMove {
        RootMove {
            mv,
            score: -Score::INFINITE,
            previous: -Score::INFINITE,
            pv: Vec::new(),
            effort: 0,
        }
    }

    fn line(&self) -> Line {
        Line {
            score: self.score,
            pv: self.pv.clone(),
        }
    }
}

impl Searcher {
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
        let mut root = legal_root_moves(&root_pos, limits);
        let watch = Watch::new(signals, limits, root.len(), &self.params);
        self.setup(game, watch);
        if self.is_main() {
            self.tables.tt.new_search();
        }
        if root.is_empty() {
            return SearchResult::default();
        }
        // Stopped before the first iteration completes, the search plays the hash move.
        self.hash_move_first(&root_pos, &mut root);
        let mut result = SearchResult {
            best: Some(root[0].mv),
            ..Default::default()
        };
        self.pool.start(threads::Job {
            game: game.clone(),
            limits: limits.clone(),
            signals: Arc::clone(signals),
            tt: Arc::clone(&self.tables.tt),
            multipv: self.multipv,
            network: self.network().cloned(),
            params: self.params.clone(),
        });
        self.deepen(&root_pos, &mut root, limits, sink, &mut result);
        self.hold(limits);
        self.finish(&root_pos, result)
    }

    /// Moves the hash move, if it is a root move, to the front (the others keep their order).
    fn hash_move_first(&self, pos: &Position, root: &mut [RootMove]) {
        if let Some(m) = self.tables.tt.probe(pos.key()).and_then(|h| h.mv) {
            if let Some(i) = root.iter().position(|r| r.mv == m) {
                root[..=i].rotate_right(1);
            }
        }
    }

    /// Iterative deepening: one iteration per depth until a limit or a stop decision; `result`
    /// holds the last completed iteration.
    fn deepen(
        &mut self,
        pos: &Position,
        root: &mut [RootMove],
        limits: &Limits,
        sink: &mut dyn InfoSink,
        result: &mut SearchResult,
    ) {
        let max_depth = limits
            .depth
            .unwrap_or(MAX_PLY as u32 - 4)
            .clamp(1, MAX_PLY as u32 - 4);
        let mut instability = 0.0f64;
        for depth in 1..=max_depth {
            if threads::skips(self.thread_id(), depth) && depth < max_depth {
                continue;
            }
            self.root_depth = depth;
            self.seldepth = 0;
            let Some(lines) = self.iteration(pos, root, depth, sink) else {
                // The unfinished iteration is discarded: the last completed one stands.
                break;
            };
            if result.best != Some(root[0].mv) && depth > 1 {
                instability += 1.0;
            }
            instability *= self.params.instability_decay;
            self.complete(&root[..lines], depth, limits, result);
            self.report(sink, result);
            // The share of this thread's nodes the best move took (Stockfish's node effort).
            let effort = root[0].effort * 100 / self.nodes.max(1);
            if self.stop_after(result, limits, instability, effort) {
                break;
            }
        }
    }

    /// One iteration at `depth`: MultiPV line k is the best of the root moves not already in
    /// lines 1…k−1, searched in an aspiration window around line k's score of the last
    /// iteration. Returns how many lines it found (fewer than asked when a mate `go mate` asks
    /// for is proven), or `None` if the search was aborted.
    fn iteration(
        &mut self,
        pos: &Position,
        root: &mut [RootMove],
        depth: u32,
        sink: &mut dyn InfoSink,
    ) -> Option<usize> {
        let n_lines = self.multipv.min(root.len());
        for r in root.iter_mut() {
            r.previous = std::mem::replace(&mut r.score, -Score::INFINITE);
        }
        let centers: Vec<Score> = root[..n_lines]
            .iter()
            .map(|r| match r.previous {
                s if s == -Score::INFINITE => Score::DRAW,
                s => s,
            })
            .collect();
        for (k, &center) in centers.iter().enumerate() {
            let score = self.aspiration(pos, &mut root[k..], k, depth as i32, center, sink);
            if self.aborted {
                return None;
            }
            // `root_search` moved the line's move to the front of `root[k..]`.
            let pv = self.root_pv(pos, root[k].mv);
            root[k].score = score;
            root[k].pv = pv;
            // The lines so far in score order (stable): only `root[..=k]` holds lines.
            root[..=k].sort_by_key(|r| std::cmp::Reverse(r.score));
            if self.watch.mate_proven {
                return Some(k + 1);
            }
        }
        Some(n_lines)
    }

    /// Searches the root moves `moves` (those after the first `skipped`) at `depth` in a window
    /// around `center`, widened on each fail until the score falls inside.
    fn aspiration(
        &mut self,
        pos: &Position,
        moves: &mut [RootMove],
        skipped: usize,
        depth: i32,
        center: Score,
        sink: &mut dyn InfoSink,
    ) -> Score {
        let mut delta = self.params.asp_delta;
        let (mut alpha, mut beta) = if depth >= self.params.asp_depth && !center.is_mate() {
            (center - delta, center + delta)
        } else {
            (-Score::INFINITE, Score::INFINITE)
        };
        loop {
            let v = self.root_search(pos, moves, skipped, depth, alpha, beta, sink);
            // A proven mate in N stands, even as a bound outside the window.
            if self.aborted || self.watch.mate_proven {
                return v;
            }
            if v <= alpha {
                beta = Score::cp((alpha.get() + beta.get()) / 2);
                alpha = (v - delta).max(-Score::INFINITE);
            } else if v >= beta {
                beta = (v + delta).min(Score::INFINITE);
            } else {
                return v;
            }
            delta += delta;
            if delta > self.params.asp_max_delta {
                alpha = -Score::INFINITE;
                beta = Score::INFINITE;
            }
        }
    }

    /// The principal variation of the root's last search if it starts with `mv` (else `mv`
    /// alone), cut to its legal prefix.
    fn root_pv(&self, pos: &Position, mv: Move) -> Vec<Move> {
        let mut pv: Vec<Move> = (0..self.pv_len[0]).filter_map(|i| self.pv[0][i]).collect();
        if pv.first() != Some(&mv) {
            pv = vec![mv];
        }
        legal_pv(pos, &pv)
    }

    /// Records the completed iteration `depth` with its `lines` in `result`, and lets the node
    /// limit apply once `limits.min_depth` is reached.
    fn complete(
        &mut self,
        lines: &[RootMove],
        depth: u32,
        limits: &Limits,
        result: &mut SearchResult,
    ) {
        let best = &lines[0];
        result.best = Some(best.mv);
        result.ponder = best.pv.get(1).copied();
        result.score = best.score;
        result.depth = depth;
        result.seldepth = self.seldepth.max(depth);
        result.lines = lines.iter().map(RootMove::line).collect();
        self.watch.completed = true;
        self.watch.can_abort = depth >= limits.min_depth.unwrap_or(1);
    }

    /// Reports every line of the completed iteration in `result`.
    fn report(&self, sink: &mut dyn InfoSink, result: &mut SearchResult) {
        let elapsed = self.watch.signals.elapsed_ms();
        let nodes = self.total_nodes();
        result.reported_nodes = nodes;
        for (k, l) in result.lines.iter().enumerate() {
            sink.iteration(&Info {
                depth: result.depth,
                multipv: k as u32 + 1,
                seldepth: result.seldepth,
                score: l.score,
                nodes,
                time_ms: elapsed,
                nps: nodes * 1000 / elapsed.max(1),
                hashfull: self.tables.tt.hashfull(),
                pv: l.pv.clone(),
            });
        }
    }

    /// Whether to start no further iteration after the one in `result`: the mate `go mate`
    /// asks for, the node limit (else the next poll comes exactly at it), the time (never while
    /// pondering; an unstable best move gets longer, and with `time_effort` one that took
    /// `effort` per cent of the nodes or more gets shorter), a proven mate searched deep enough
    /// (unless the GUI asked for a depth), a stop.
    fn stop_after(
        &mut self,
        result: &SearchResult,
        limits: &Limits,
        instability: f64,
        effort: u64,
    ) -> bool {
        let score = result.score;
        if limits.mate.is_some_and(|n| score >= mate_within(n)) {
            return true;
        }
        if self.at_node_limit() {
            return true;
        }
        let signals = &self.watch.signals;
        if let Some(b) = self.watch.budget.filter(|_| !signals.pondering()) {
            // Pondering counts: the search is that much deeper.
            let elapsed = signals.elapsed_ms();
            let fell = match self.previous {
                Some(was) if !was.is_decisive() && !score.is_decisive() => was.get() - score.get(),
                _ => 0,
            };
            if b.soft_stop(
                result.depth,
                elapsed,
                instability,
                fell,
                effort,
                &self.params,
            ) || self.watch.out_of_time()
            {
                return true;
            }
        }
        let (mul, add) = (self.params.mate_depth_mul, self.params.mate_depth_add);
        let deep_enough = score
            .plies_to_end()
            .is_some_and(|p| result.depth as i32 > mul * p + add);
        if deep_enough && score.is_mate() && limits.depth.is_none() {
            return true;
        }
        self.halted()
    }

    /// Holds the result while the GUI still waits for `stop` (infinite, or pondering).
    fn hold(&self, limits: &Limits) {
        while (limits.infinite || self.watch.signals.pondering()) && !self.halted() {
            crate::host::pause(std::time::Duration::from_millis(1));
        }
    }

    /// Ends the search: halts the helpers and fills in the totals.
    fn finish(&mut self, pos: &Position, mut result: SearchResult) -> SearchResult {
        self.pool.stop();
        self.publish_nodes();
        if result.lines.is_empty() {
            // Stopped before the first iteration completed: the static evaluation will do.
            result.score = self.evaluate(pos, 0);
        }
        self.previous = Some(result.score);
        result.nodes = self.total_nodes();
        result.time_ms = self.watch.signals.elapsed_ms();
        result.hashfull = self.tables.tt.hashfull();
        result
    }

    /// One root iteration: PVS over `moves` (reordered: a move that raises alpha goes to the
    /// front), the root moves after the first `skipped` (MultiPV lines already found; the
    /// table is written for line 1 only).
    #[allow(clippy::too_many_arguments)]
    fn root_search(
        &mut self,
        pos: &Position,
        moves: &mut [RootMove],
        skipped: usize,
        depth: i32,
        mut alpha: Score,
        beta: Score,
        sink: &mut dyn InfoSink,
    ) -> Score {
        let store = skipped == 0;
        let mut best = -Score::INFINITE;
        self.pv_len[0] = 0;
        for i in 0..moves.len() {
            let m = moves[i].mv;
            if self.is_main() && self.watch.signals.elapsed_ms() >= CURRMOVE_AFTER_MS {
                sink.current_move(depth as u32, m, (skipped + i + 1) as u32);
            }
            let before = self.nodes;
            let v = self.search_root_move(pos, m, i == 0, depth, alpha, beta);
            moves[i].effort += self.nodes - before;
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
                    if self.watch.mate_limit.is_some_and(|n| v >= mate_within(n)) {
                        self.watch.mate_proven = true;
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
            let bound = if best >= beta || self.watch.mate_proven {
                tt::Bound::Lower
            } else {
                tt::Bound::Exact
            };
            let mv = self.pv[0][0];
            self.tables
                .tt
                .store(pos.key(), mv, s, Score::DRAW, depth, bound);
        }
        best
    }

    /// The score of the root move `m` at `depth`: a full window for the `first` move, else a
    /// null window first (PVS).
    fn search_root_move(
        &mut self,
        pos: &Position,
        m: Move,
        first: bool,
        depth: i32,
        alpha: Score,
        beta: Score,
    ) -> Score {
        let idx = self.root;
        let capture = pos.piece_at(m.to()).is_some();
        let child = pos.play(m);
        let piece = pos.piece_at(m.from()).map_or(0, |p| p.index());
        self.stack[idx].moved = Some((piece, m));
        let check = child.in_check();
        self.push_frame(idx, &child, check, Some(m), capture);
        self.push_eval(1, pos, Some(m));
        if first {
            return -self.negamax(&child, depth - 1, -beta, -alpha, 1, true, false);
        }
        let v = -self.negamax(&child, depth - 1, -alpha - 1, -alpha, 1, true, true);
        if v > alpha && v < beta && !self.aborted {
            return -self.negamax(&child, depth - 1, -beta, -alpha, 1, true, false);
        }
        v
    }

    /// Publishes this thread's node count (helpers; the main thread has nowhere to).
    pub(super) fn publish_nodes(&self) {
        if let Some(h) = &self.helper {
            h.published.store(self.nodes, Ordering::Relaxed);
        }
    }
}

/// The legal moves of `pos`, or those of them `limits.root_moves` asks for (all of them if it
/// asks for none of them).
fn legal_root_moves(pos: &Position, limits: &Limits) -> Vec<RootMove> {
    let legal = pos.legal_moves();
    let wanted = |m: &Move| limits.root_moves.contains(m);
    let mut moves: Vec<Move> = legal.iter().filter(wanted).collect();
    if moves.is_empty() {
        moves = legal.iter().collect();
    }
    moves.into_iter().map(RootMove::new).collect()
}

/// The lowest score that proves a mate in at most `moves` moves (`go mate`).
fn mate_within(moves: u32) -> Score {
    let plies = moves.min(MAX_PLY as u32) as i32 * 2 - 1;
    Score::mate_in(plies)
}

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
