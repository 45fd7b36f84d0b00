//! The tree search: principal-variation alpha-beta and quiescence, with the rules of the game
//! (repetition verdicts with perpetual check and chase, 60-move rule, bare material) applied at
//! every non-root node. Rule wins and losses are in the rule band and never stored as hash
//! values: they depend on the path.
//!
//! Invariant: `stack[root + ply]` describes the node at `ply` (key, in-check flag, repetition
//! window, static evaluation) and is filled by the caller before descending.

use super::ordering::{cont_index, is_capture, is_refutation, Context, Picker};
use super::tt::{Bound, Hit};
use super::Searcher;
use crate::board::attacks::KING_STEPS;
use crate::board::chase::{attacks, attacks_of, perpetual_chasers, unwind, verdict, Verdict};
use crate::board::rules::{bare_material, MOVE_LIMIT_PLIES};
use crate::board::{Move, PieceKind, Position};
use crate::eval::classical::evaluate;
use crate::psq::VALUES;
use crate::score::{Score, MAX_PLY};
use std::ops::ControlFlow;

/// One ply of the search stack (game history below the root).
#[derive(Clone, Copy, Default)]
pub struct Frame {
    /// Zobrist key of the position.
    pub key: u64,
    /// Whether the side to move is in check there.
    pub in_check: bool,
    /// Plies back to the last capture or null move (the repetition window).
    pub window: u16,
    /// Static evaluation (not valid in check).
    pub eval: Score,
    /// Move played to reach the next ply, with its piece index (for counter-moves, and to
    /// replay a repeated cycle when judging chases).
    pub moved: Option<(usize, Move)>,
}

/// What the steps of `negamax` know of their node.
#[derive(Clone, Copy)]
struct Node {
    ply: usize,
    /// Its index in `Searcher::stack` (`root + ply`).
    idx: usize,
    /// The depth left (less the internal iterative reduction once made).
    depth: i32,
    /// A PV node (its window is open).
    pv: bool,
    in_check: bool,
    /// The static evaluation is above that of two plies before.
    improving: bool,
    /// The position occurred before in the repetition window, without a verdict yet.
    repeated: bool,
    /// The null move showed a mate against the side to move.
    threat: bool,
    /// An expected cut node: a null-window node whose parent expects a cut-off from it.
    cut: bool,
    /// The static evaluation, refined by the hash score (`refined_eval`).
    eval: Score,
    /// The static evaluation (`-INFINITE` in check).
    static_eval: Score,
}

/// The moves a node searched without a cut-off, to be penalised when a later one cuts.
struct Tried {
    quiets: [Option<Move>; 64],
    n_quiets: usize,
    captures: [Option<Move>; 32],
    n_captures: usize,
}

impl Tried {
    #[inline]
    fn new() -> Tried {
        Tried {
            quiets: [None; 64],
            n_quiets: 0,
            captures: [None; 32],
            n_captures: 0,
        }
    }

    /// Records `m` (the first 64 quiet moves and the first 32 captures are kept).
    #[inline]
    fn push(&mut self, m: Move, capture: bool) {
        if !capture && self.n_quiets < self.quiets.len() {
            self.quiets[self.n_quiets] = Some(m);
            self.n_quiets += 1;
        } else if capture && self.n_captures < self.captures.len() {
            self.captures[self.n_captures] = Some(m);
            self.n_captures += 1;
        }
    }

    fn quiets(&self) -> impl Iterator<Item = &Move> {
        self.quiets[..self.n_quiets].iter().flatten()
    }

    fn captures(&self) -> impl Iterator<Item = &Move> {
        self.captures[..self.n_captures].iter().flatten()
    }
}

/// Whether a quiet move is spared the pruning and reduced less: it closes the net around the
/// enemy general (`hems_king`, only for a side that hunts) or it makes a threat (`threatens`,
/// when `threats` is on). Asked only where the pruning or a reduction would act, at most once
/// per move.
struct Hem<'a> {
    hunting: bool,
    threats: bool,
    pos: &'a Position,
    m: Move,
    known: Option<bool>,
}

impl<'a> Hem<'a> {
    #[inline]
    fn new(hunting: bool, threats: bool, pos: &'a Position, m: Move) -> Hem<'a> {
        Hem {
            hunting,
            threats,
            pos,
            m,
            known: None,
        }
    }

    #[inline]
    fn get(&mut self) -> bool {
        match self.known {
            Some(h) => h,
            None => {
                let h = (self.hunting && hems_king(self.pos, self.m))
                    || (self.threats && threatens(self.pos, self.m));
                self.known = Some(h);
                h
            }
        }
    }
}

/// The static evaluation `static_eval` of `pos` (at `ply`) for the pruning: the hash score
/// where its bound says it is closer to the truth (not for `improving`).
#[inline]
fn refined_eval(hit: Option<Hit>, static_eval: Score, ply: usize, pos: &Position) -> Score {
    let Some(h) = hit else {
        return static_eval;
    };
    let s = Score::from_tt(h.score, ply as i32, pos.halfmove_clock() as i32);
    let closer = match h.bound {
        Bound::Exact => true,
        Bound::Lower => s > static_eval,
        Bound::Upper => s < static_eval,
        Bound::None => false,
    };
    if closer && !s.is_decisive() {
        s
    } else {
        static_eval
    }
}

/// The stored score if its bound settles the window (alpha, beta) at this node.
fn tt_cutoff(h: &Hit, alpha: Score, beta: Score, ply: usize, pos: &Position) -> Option<Score> {
    let s = Score::from_tt(h.score, ply as i32, pos.halfmove_clock() as i32);
    let cut = match h.bound {
        Bound::Exact => true,
        Bound::Lower => s >= beta,
        Bound::Upper => s <= alpha,
        Bound::None => false,
    };
    cut.then_some(s)
}

fn has_pieces(pos: &Position) -> bool {
    let us = pos.side_to_move();
    (pos.pieces(us, PieceKind::Rook)
        | pos.pieces(us, PieceKind::Horse)
        | pos.pieces(us, PieceKind::Cannon))
    .any()
}

/// Whether the side to move has no legal move although not in check (a loss in Xiangqi). Only
/// a side without a rook, horse or cannon can be without one in practice, so only then are its
/// moves counted: the test costs nothing in the middlegame and sees the stalemates that end so
/// many attacks on a bare king.
fn stalemated(pos: &Position) -> bool {
    !has_pieces(pos) && pos.count_legal() == 0
}

/// Whether move `m` from `pos` closes the net around the enemy general: the piece moved
/// attacks a point the general could step to that it did not attack before. Told without
/// playing the move, so that a pruned move is never played.
#[inline]
fn hems_king(pos: &Position, m: Move) -> bool {
    let (from, to) = (m.from(), m.to());
    let Some(piece) = pos.piece_at(from) else {
        return false;
    };
    let zone = KING_STEPS[pos.king(!pos.side_to_move()).index()];
    let after = attacks_of(pos, piece, to, pos.occupied().without(from).with(to)) & zone;
    after.any() && (after & !attacks(pos, from, pos.occupied())).any()
}

/// Whether move `m` from `pos` makes a threat: the piece moved newly attacks an enemy piece
/// worth more than itself, or a rook, horse or cannon that nothing defends (on the board
/// before the move). A quiet reply like this is what a shallow search reduced into
/// quiescence misses, and the network does not see attacks. Told without playing the move.
#[inline]
fn threatens(pos: &Position, m: Move) -> bool {
    let (from, to) = (m.from(), m.to());
    let Some(piece) = pos.piece_at(from) else {
        return false;
    };
    let them = !pos.side_to_move();
    let occ = pos.occupied().without(from).with(to);
    let new =
        attacks_of(pos, piece, to, occ) & pos.color_bb(them) & !attacks(pos, from, pos.occupied());
    let worth = VALUES[piece.kind().index()];
    for sq in new {
        let Some(target) = pos.piece_at(sq) else {
            continue;
        };
        let kind = target.kind();
        if VALUES[kind.index()] > worth
            || (matches!(kind, PieceKind::Rook | PieceKind::Horse | PieceKind::Cannon)
                && !pos.is_attacked(sq, them))
        {
            return true;
        }
    }
    false
}

/// Quiescence: folds move `m`'s score `v` into the node's best score, alpha and best move;
/// whether it cuts off (reaches `beta`).
#[inline]
fn raise(
    v: Score,
    m: Move,
    beta: Score,
    best: &mut Score,
    alpha: &mut Score,
    best_move: &mut Option<Move>,
) -> bool {
    if v > *best {
        *best = v;
        if v > *alpha {
            *alpha = v;
            *best_move = Some(m);
            return *alpha >= beta;
        }
    }
    false
}

impl Searcher {
    /// The static evaluation of `pos`, the node at `ply`: the network's when one is set
    /// (squashed past `eval_knee`, see `Params::squash`).
    #[inline]
    pub(super) fn evaluate(&mut self, pos: &Position, ply: usize) -> Score {
        match &mut self.nnue {
            Some(acc) => Score::cp(self.params.squash(acc.evaluate(ply, pos))),
            None => evaluate(pos),
        }
    }

    /// Records for the network the move `m` (`None`: null move) from `parent` to `ply`.
    #[inline]
    pub(super) fn push_eval(&mut self, ply: usize, parent: &Position, m: Option<Move>) {
        if let Some(acc) = &mut self.nnue {
            acc.push(ply, parent, m);
        }
    }

    /// Pushes the frame of `child`, reached from the node at `idx` by `m` (or a null move).
    #[inline]
    pub(super) fn push_frame(
        &mut self,
        idx: usize,
        child: &Position,
        in_check: bool,
        m: Option<Move>,
        capture: bool,
    ) {
        let window = if capture || m.is_none() {
            0
        } else {
            self.stack[idx].window.saturating_add(1)
        };
        let f = Frame {
            key: child.key(),
            in_check,
            window,
            eval: Score::DRAW,
            moved: None,
        };
        if self.stack.len() <= idx + 1 {
            self.stack.push(f);
        } else {
            self.stack[idx + 1] = f;
        }
    }

    /// The rule verdict for the node at `ply` (position `pos`), if a repetition ends it;
    /// `Err(())` when the position occurred before in the window without a verdict yet (its
    /// hash entry may come from a path without that history, so it must not cut the search
    /// short). A repeat inside the search ends the line; so does a third occurrence through
    /// the game's history. Either way the cycle judged is the one the referee judges: from
    /// the earlier of the last two occurrences, so a repeat inside the search whose position
    /// also stood before it is judged over both loops (a side that checks only in the second
    /// loop has not checked perpetually).
    fn repetition(&self, pos: &Position, ply: usize) -> Result<Option<Score>, ()> {
        let idx = self.root + ply;
        let here = &self.stack[idx];
        let window = (here.window as usize).min(idx);
        let mut nearest = None;
        let mut i = 4;
        while i <= window {
            if self.stack[idx - i].key == here.key {
                if nearest.is_some() {
                    return Ok(Some(self.cycle_verdict(pos, ply, i)));
                }
                nearest = Some(i);
            }
            i += 2;
        }
        match nearest {
            Some(i) if i < ply => Ok(Some(self.cycle_verdict(pos, ply, i))),
            Some(_) => Err(()),
            None => Ok(None),
        }
    }

    /// The verdict of the cycle of the last `len` plies before the node at `ply`, by the
    /// referee's own precedence (`chase::verdict`: perpetual check before perpetual chase),
    /// as a rule win or loss for the side to move. The chase is worked out only when nobody
    /// checked throughout, by replaying the cycle's moves.
    fn cycle_verdict(&self, pos: &Position, ply: usize, len: usize) -> Score {
        let idx = self.root + ply;
        let us = pos.side_to_move();
        // The side to move in check at each of its turns: the opponent checked throughout.
        let they = (0..len).step_by(2).all(|j| self.stack[idx - j].in_check);
        let we = (1..len).step_by(2).all(|j| self.stack[idx - j].in_check);
        let mut checker = [false; 2];
        checker[us.index()] = we;
        checker[(!us).index()] = they;
        let loser = match verdict(checker, || self.chasers(pos, idx, len)) {
            Verdict::Draw => return Score::DRAW,
            Verdict::PerpetualCheck(c) | Verdict::PerpetualChase(c) => c,
        };
        if loser == us {
            Score::ban_loss(ply as i32)
        } else {
            Score::ban_win(ply as i32)
        }
    }

    /// Who chased one same piece with every move of the last `len` plies before the frame at
    /// `idx` (nobody, when a move of the cycle is not known).
    #[cold]
    fn chasers(&self, pos: &Position, idx: usize, len: usize) -> [bool; 2] {
        let moves: Option<Vec<Move>> = self.stack[idx - len..idx]
            .iter()
            .map(|f| f.moved.map(|(_, m)| m))
            .collect();
        moves.map_or([false; 2], |moves| {
            perpetual_chasers(&unwind(pos, &moves), &moves)
        })
    }

    /// Alpha-beta search of a non-root node, in numbered steps: (1) entry (check extension,
    /// drop into quiescence, node count), (2) the rules of the game (`rules`), (3) mate
    /// distance pruning and the hash probe, (4) static evaluation, (5) node pruning
    /// (`prune_node`: reverse futility, null move, razoring), (6) internal iterative reduction,
    /// then the move loop: (7) singular extension (`singular_extension`), (8) move pruning
    /// (`prune_move`: late moves, futility), (9) the reduction (`reduction`) and the PVS
    /// re-searches, (10) the cut-off's history updates (`update_histories`), and after the
    /// loop (11) the table store (`store`). The steps are inlined, so a node is one frame
    /// (`prune_node`, `update_histories` and `store` need `#[inline(always)]`: with
    /// `#[inline]` alone LLVM kept them out of line).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn negamax(
        &mut self,
        pos: &Position,
        mut depth: i32,
        mut alpha: Score,
        mut beta: Score,
        ply: usize,
        null_ok: bool,
        cut: bool,
    ) -> Score {
        // Step 1. Entry.
        let pv = beta - alpha > 1;
        self.pv_len[ply] = ply;
        let idx = self.root + ply;
        let in_check = self.stack[idx].in_check;
        let p = &self.params;
        if in_check && (ply as i32) < p.check_ext_mul * self.root_depth as i32 + p.check_ext_add {
            depth += 1;
        }
        if depth <= 0 {
            return self.qsearch(pos, alpha, beta, ply, self.params.qs_checks);
        }
        if !self.poll() {
            return Score::DRAW;
        }
        self.seldepth = self.seldepth.max(ply as u32);
        // Step 2. The rules of the game.
        let repeated = match self.rules(pos, ply) {
            ControlFlow::Break(v) => return v,
            ControlFlow::Continue(repeated) => repeated,
        };
        // Step 3. Mate distance pruning, then the hash table. A singular-extension search
        // leaves the hash move out: the hash entry is not its own.
        alpha = alpha.max(Score::mated_in(ply as i32));
        beta = beta.min(Score::mate_in(ply as i32 + 1));
        if alpha >= beta {
            return alpha;
        }
        let excluded = self.excluded[ply];
        let key = pos.key();
        let hit = excluded
            .is_none()
            .then(|| self.tables.tt.probe(key))
            .flatten();
        let tt_move = hit.and_then(|h| h.mv);
        if let Some(h) = hit.filter(|h| !pv && !repeated && h.depth >= depth) {
            if let Some(s) = tt_cutoff(&h, alpha, beta, ply, pos) {
                if s >= beta && self.params.hist_tt_cut > 0 {
                    self.reward_tt_move(pos, h.mv, ply, depth);
                }
                return s;
            }
        }
        // Step 4. Static evaluation.
        let mut node = self.node_of(pos, hit, ply, depth, pv, repeated, cut);
        let eval = node.eval;
        // A stalemate loses: seen before the pruning below could stand pat on it.
        if !in_check && stalemated(pos) {
            return Score::mated_in(ply as i32);
        }
        // Step 5. Node pruning.
        if !pv && !in_check && excluded.is_none() {
            match self.prune_node(pos, &node, alpha, beta, null_ok) {
                ControlFlow::Break(v) => return v,
                ControlFlow::Continue(threat) => node.threat = threat,
            }
            if let ControlFlow::Break(v) = self.probcut(pos, &node, hit, beta) {
                return v;
            }
        }
        // Step 6. Internal iterative reduction: a node without a hash move is searched a ply
        // shallower.
        if depth >= self.params.iir_depth && tt_move.is_none() && excluded.is_none() {
            node.depth -= 1;
        }
        // Well ahead, the side to move hunts the general: its quiet moves that close the net
        // are spared the pruning and reduced less (`hems_king`).
        let hunting = eval >= Score::cp(self.params.hem_eval);
        let threats = self.params.threat_spare > 0;
        let ctx = self.ordering_context(ply, tt_move);
        // A legal hash move is searched before the other moves are generated.
        let mut picker = match tt_move.filter(|&m| pos.is_legal(m)) {
            Some(m) => Picker::hash_first(m),
            None => {
                let moves = pos.legal_moves_with(in_check);
                if moves.is_empty() {
                    return Score::mated_in(ply as i32);
                }
                Picker::new(pos, moves, &ctx, &self.tables.heur)
            }
        };
        let (mut best, mut best_move) = (-Score::INFINITE, None);
        let mut tried = Tried::new();
        // Made at the second move: a node cut off by its first move never pays for it.
        let mut check_info = None;
        let mut n = 0;
        let old_alpha = alpha;
        while let Some((m, order)) = picker.next_move(pos, &ctx, &self.tables.heur) {
            if Some(m) == excluded {
                continue;
            }
            // Step 7. Singular extension.
            let mut extension = 0;
            if Some(m) == tt_move {
                match self.singular_extension(pos, m, hit, &node, beta) {
                    ControlFlow::Break(v) => return v,
                    ControlFlow::Continue(e) => extension = e,
                }
            }
            n += 1;
            let capture = is_capture(pos, m);
            let gives_check = if n == 1 {
                pos.gives_check(m)
            } else {
                pos.gives_check_with(m, check_info.get_or_insert_with(|| pos.check_info()))
            };
            let quiet = !capture && !gives_check;
            let mut hem = Hem::new(hunting, threats, pos, m);
            // Step 8. Move pruning, before the move is played.
            let prune = !gives_check
                && self.prune_move(pos, m, order, &node, n, best, alpha, capture, &mut hem);
            if prune {
                continue;
            }
            self.tables.tt.prefetch(pos.key_after(m));
            let child = pos.play(m);
            let piece = pos.piece_at(m.from()).map_or(0, |p| p.index());
            self.stack[idx].moved = Some((piece, m));
            self.push_frame(idx, &child, gives_check, Some(m), capture);
            self.push_eval(ply + 1, pos, Some(m));
            let new_depth = node.depth - 1 + extension;
            // A capture that loses by static exchange orders below zero: with
            // `lmr_bad_captures` it is reduced as a quiet move of no history.
            let r = if n > 1 && quiet {
                self.reduction(&node, n, new_depth, order, &mut hem)
            } else if n > 1
                && capture
                && !gives_check
                && order < 0
                && self.params.lmr_bad_captures > 0
            {
                self.reduction(&node, n, new_depth, 0, &mut hem)
            } else {
                0
            };
            let v = self.search_child(&child, &node, n, new_depth, r, alpha, beta);
            if self.aborted {
                return Score::DRAW;
            }
            if v > best {
                best = v;
                if v > alpha {
                    best_move = Some(m);
                    alpha = v;
                    self.update_pv(ply, m);
                    if alpha >= beta {
                        // Step 10. The cut-off's history updates.
                        self.update_histories(pos, m, &node, &tried, &ctx.cont);
                        break;
                    }
                }
            }
            tried.push(m, capture);
        }
        if excluded.is_some() {
            // Every move but the excluded one was searched (or none: the hash move is the
            // only one); nothing is stored.
            return if n == 0 { alpha } else { best };
        }
        // Step 11. The table store.
        self.store(key, &node, best, best_move.or(tt_move), old_alpha, beta);
        best
    }

    /// Step 4, the node's record: its static evaluation (none in check, from the hash entry
    /// when there is one), refined by the hash score for the pruning, and what the steps
    /// after know of it.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn node_of(
        &mut self,
        pos: &Position,
        hit: Option<Hit>,
        ply: usize,
        depth: i32,
        pv: bool,
        repeated: bool,
        cut: bool,
    ) -> Node {
        let idx = self.root + ply;
        let in_check = self.stack[idx].in_check;
        let static_eval = match hit {
            _ if in_check => -Score::INFINITE,
            Some(h) => h.eval,
            None => self.evaluate(pos, ply),
        };
        self.stack[idx].eval = static_eval;
        let eval = if in_check || repeated {
            static_eval
        } else {
            refined_eval(hit, static_eval, ply, pos)
        };
        Node {
            ply,
            idx,
            depth,
            pv,
            in_check,
            improving: !in_check && ply >= 2 && static_eval > self.stack[idx - 2].eval,
            repeated,
            threat: false,
            cut,
            eval,
            static_eval,
        }
    }

    /// Step 9, the search of the `n`th move's `child`, `new_depth` plies deep: the first
    /// with the node's window; a later one with a null window, first `r` plies shallower
    /// (the late move reduction) and verified at full depth, then with the full window when
    /// it lands inside it. From the node's side.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn search_child(
        &mut self,
        child: &Position,
        node: &Node,
        n: usize,
        new_depth: i32,
        r: i32,
        alpha: Score,
        beta: Score,
    ) -> Score {
        let (next, cut) = (node.ply + 1, node.cut);
        if n == 1 {
            return -self.negamax(
                child,
                new_depth,
                -beta,
                -alpha,
                next,
                true,
                !node.pv && !cut,
            );
        }
        let (lo, hi) = (-alpha - 1, -alpha);
        // A reduced move's child is expected to cut; unreduced, it takes turns.
        let mut v = -self.negamax(child, new_depth - r, lo, hi, next, true, r > 0 || !cut);
        if v > alpha && r > 0 {
            v = -self.negamax(child, new_depth, lo, hi, next, true, !cut);
        }
        if v > alpha && v < beta {
            v = -self.negamax(child, new_depth, -beta, hi, next, true, false);
        }
        v
    }

    /// Step 2: the rules in the referee's order (`board::rules`): a repetition verdict first
    /// (a perpetual check completed on the 120th ply still loses), then the 60-move rule, bare
    /// material, and the end of the stack. Breaks with the verdict, or continues with whether
    /// the position occurred before in the window without a verdict yet.
    #[inline]
    fn rules(&mut self, pos: &Position, ply: usize) -> ControlFlow<Score, bool> {
        let repeated = match self.repetition(pos, ply) {
            Ok(Some(v)) => return ControlFlow::Break(v),
            Ok(None) => false,
            Err(()) => true,
        };
        if pos.halfmove_clock() >= MOVE_LIMIT_PLIES {
            return ControlFlow::Break(if pos.count_legal() > 0 {
                Score::DRAW
            } else {
                Score::mated_in(ply as i32)
            });
        }
        if bare_material(pos) {
            return ControlFlow::Break(Score::DRAW);
        }
        if ply >= MAX_PLY as usize - 2 {
            return ControlFlow::Break(self.evaluate(pos, ply));
        }
        ControlFlow::Continue(repeated)
    }

    /// Step 5, node pruning at a non-PV node not in check: reverse futility (far above beta
    /// with little depth left), the null move (guarded against zugzwang-prone endings: no
    /// rook, horse or cannon), razoring (hopeless at shallow depth, verified by quiescence).
    /// Breaks with the node's score, or continues with whether the null move showed a mate
    /// against the side to move (its quiet moves are then not pruned and are reduced less).
    #[inline(always)]
    fn prune_node(
        &mut self,
        pos: &Position,
        node: &Node,
        alpha: Score,
        beta: Score,
        null_ok: bool,
    ) -> ControlFlow<Score, bool> {
        let (depth, eval, ply, idx) = (node.depth, node.eval, node.ply, node.idx);
        let p = &self.params;
        let rfp_bonus = if node.improving { p.rfp_improving } else { 0 };
        if depth <= p.rfp_depth
            && !beta.is_decisive()
            && eval - p.rfp_margin * depth + rfp_bonus >= beta
        {
            return ControlFlow::Break(eval);
        }
        let mut threat = false;
        if null_ok && depth >= p.nmp_depth && eval >= beta && has_pieces(pos) && !beta.is_decisive()
        {
            let r = p.nmp_base
                + depth / p.nmp_depth_div
                + ((eval - beta) / p.nmp_eval_div).min(p.nmp_eval_max);
            let child = pos.play_null();
            self.push_frame(idx, &child, false, None, false);
            self.push_eval(ply + 1, pos, None);
            self.stack[idx].moved = None;
            let v = -self.negamax(
                &child,
                depth - 1 - r,
                -beta,
                -beta + 1,
                ply + 1,
                false,
                !node.cut,
            );
            if self.aborted {
                return ControlFlow::Break(Score::DRAW);
            }
            if v >= beta {
                return ControlFlow::Break(if v.is_decisive() { beta } else { v });
            }
            threat = v <= Score::mated_in(MAX_PLY);
        }
        if depth <= self.params.razor_depth && eval + self.params.razor_margin * depth < alpha {
            let v = self.qsearch(pos, alpha, alpha + 1, ply, self.params.qs_checks);
            if v <= alpha {
                return ControlFlow::Break(v);
            }
        }
        ControlFlow::Continue(threat)
    }

    /// Step 5, ProbCut at a non-PV node not in check (`probcut_depth`, 0: off): a capture
    /// whose static exchange clears `beta + margin` over the static evaluation, and whose
    /// quiescence and then a search `probcut_reduction` plies shallower reach that bound, is
    /// taken to cut the node at full depth too. Skipped where a hash entry nearly as deep
    /// scores below the bound. Breaks with the node's score, brought back by the margin.
    #[inline]
    fn probcut(
        &mut self,
        pos: &Position,
        node: &Node,
        hit: Option<Hit>,
        beta: Score,
    ) -> ControlFlow<Score> {
        let p = &self.params;
        if p.probcut_depth == 0 || node.depth < p.probcut_depth || beta.is_decisive() {
            return ControlFlow::Continue(());
        }
        let margin = p.probcut_margin
            - if node.improving {
                p.probcut_improving
            } else {
                0
            };
        let bound = beta + margin;
        let depth = node.depth - p.probcut_reduction;
        let (ply, idx) = (node.ply, node.idx);
        if let Some(h) = hit {
            let s = Score::from_tt(h.score, ply as i32, pos.halfmove_clock() as i32);
            if h.bound != Bound::None && h.depth >= node.depth - 3 && s < bound {
                return ControlFlow::Continue(());
            }
        }
        let threshold = bound - node.static_eval;
        let moves = pos.legal_captures_with(false);
        let mut picker = Picker::captures(pos, moves, hit.and_then(|h| h.mv));
        while let Some((m, _)) = picker.pick() {
            if !pos.see_ge(m, threshold) {
                continue;
            }
            self.tables.tt.prefetch(pos.key_after(m));
            let child = pos.play(m);
            let piece = pos.piece_at(m.from()).map_or(0, |p| p.index());
            self.stack[idx].moved = Some((piece, m));
            self.push_frame(idx, &child, child.in_check(), Some(m), true);
            self.push_eval(ply + 1, pos, Some(m));
            let checks = self.params.qs_checks;
            let mut v = -self.qsearch(&child, -bound, -bound + 1, ply + 1, checks);
            if v >= bound && depth > 0 && !self.aborted {
                v = -self.negamax(&child, depth, -bound, -bound + 1, ply + 1, true, !node.cut);
            }
            if self.aborted {
                return ControlFlow::Break(Score::DRAW);
            }
            if v >= bound {
                if let Some(s) = v.to_tt(ply as i32) {
                    let eval = node.static_eval;
                    self.tables
                        .tt
                        .store(pos.key(), Some(m), s, eval, depth + 1, Bound::Lower);
                }
                if !v.is_decisive() {
                    return ControlFlow::Break(v - margin);
                }
            }
        }
        ControlFlow::Continue(())
    }

    /// The move-ordering context of the node at `ply`: the hash move, the killers, the
    /// counter-move to the move before and the continuation tables of the two moves before.
    #[inline]
    fn ordering_context(&self, ply: usize, tt_move: Option<Move>) -> Context {
        let idx = self.root + ply;
        let counter = ply
            .checked_sub(1)
            .and_then(|_| self.stack[idx - 1].moved)
            .and_then(|(p, m)| self.tables.heur.counter[p][m.to().index()]);
        Context {
            tt_move,
            killers: self.tables.heur.killers[ply],
            counter,
            cont: self.cont_bases(ply),
            in_check: self.stack[idx].in_check,
            threat_order: self.params.threat_order,
        }
    }

    /// The continuation tables that follow the two moves before the node at `ply`.
    #[inline]
    fn cont_bases(&self, ply: usize) -> [Option<usize>; 2] {
        let idx = self.root + ply;
        let cont_at = |k: usize| {
            (ply >= k)
                .then(|| self.stack[idx - k].moved)
                .flatten()
                .map(|(p, m)| cont_index(p, m.to().index()))
        };
        [cont_at(1), cont_at(2)]
    }

    /// Step 3, after a hash cut-off at a fail high (`hist_tt_cut`): the hash move `mv`, when
    /// quiet, gets the history and continuation bonus of a cut-off `depth` plies deep.
    #[cold]
    fn reward_tt_move(&mut self, pos: &Position, mv: Option<Move>, ply: usize, depth: i32) {
        let Some(m) = mv.filter(|&m| !is_capture(pos, m)) else {
            return;
        };
        if pos.piece_at(m.from()).map(|p| p.color()) != Some(pos.side_to_move()) {
            return;
        }
        let bonus = self.params.history_bonus(depth);
        let cont = self.cont_bases(ply);
        let heur = &mut self.tables.heur;
        heur.update_history(pos, m, bonus);
        heur.update_cont(&cont, pos, m, bonus);
    }

    /// Step 7, singular extension of the hash move `m`: it is extended when every other move
    /// falls well short of its score in a shallower search; when even without it the node
    /// fails high, the node is cut (multi-cut: where the test's bound is at least beta, or with
    /// `se_multicut` where its score is); when not, it is searched `se_negative` plies
    /// shallower where its hash score is at least beta, or `se_negative_cut` at an expected cut
    /// node. Breaks with the node's score (or an abort's), or continues with the extension.
    #[inline]
    fn singular_extension(
        &mut self,
        pos: &Position,
        m: Move,
        hit: Option<Hit>,
        node: &Node,
        beta: Score,
    ) -> ControlFlow<Score, i32> {
        let (depth, ply) = (node.depth, node.ply);
        let p = &self.params;
        if depth < p.se_depth || ply as i32 >= p.se_ply_mul * self.root_depth as i32 {
            return ControlFlow::Continue(0);
        }
        let se_tt_depth = depth - p.se_tt_depth;
        let Some(h) = hit
            .filter(|h| h.depth >= se_tt_depth && matches!(h.bound, Bound::Lower | Bound::Exact))
        else {
            return ControlFlow::Continue(0);
        };
        let s = Score::from_tt(h.score, ply as i32, pos.halfmove_clock() as i32);
        if s.is_decisive() || node.repeated {
            return ControlFlow::Continue(0);
        }
        let singular_beta = s - p.se_margin * depth;
        let se_depth = (depth - 1) / p.se_depth_div;
        self.excluded[ply] = Some(m);
        let window = (singular_beta - 1, singular_beta);
        let v = self.negamax(pos, se_depth, window.0, window.1, ply, false, node.cut);
        self.excluded[ply] = None;
        if self.aborted {
            ControlFlow::Break(Score::DRAW)
        } else if v < singular_beta {
            ControlFlow::Continue(self.params.se_extension)
        } else if singular_beta >= beta {
            ControlFlow::Break(singular_beta)
        } else if self.params.se_multicut > 0 && v >= beta && !v.is_decisive() {
            ControlFlow::Break(v)
        } else if s >= beta {
            ControlFlow::Continue(-self.params.se_negative)
        } else if node.cut {
            ControlFlow::Continue(-self.params.se_negative_cut)
        } else {
            ControlFlow::Continue(0)
        }
    }

    /// Step 8, move pruning of the `n`th move `m`, one that does not give check, with
    /// ordering score `order`. A capture that loses too much by static exchange is skipped.
    /// A quiet move is skipped by late move pruning, futility pruning, history pruning, or
    /// when it loses too much by static exchange, except for a move that closes the net
    /// around the enemy general when well ahead. Whether to skip the move.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn prune_move(
        &self,
        pos: &Position,
        m: Move,
        order: i32,
        node: &Node,
        n: usize,
        best: Score,
        alpha: Score,
        capture: bool,
        hem: &mut Hem,
    ) -> bool {
        if node.pv || node.in_check || node.threat || best <= -Score::MATE + MAX_PLY {
            return false;
        }
        let (p, depth) = (&self.params, node.depth);
        let see = depth <= p.see_depth;
        if capture {
            return see && !pos.see_ge(m, -p.see_capture * depth);
        }
        let lmp = p.lmp_base + depth * depth * if node.improving { p.lmp_improving } else { 1 };
        let futility = p.fut_base + p.fut_margin * depth;
        let late = depth <= p.lmp_depth && n as i32 > lmp;
        let futile = depth <= p.fut_depth && node.eval + futility <= alpha && n > 1;
        let unlikely = depth <= p.hist_prune_depth && order < -p.hist_prune_margin * depth;
        (late || futile || unlikely || (see && !pos.see_ge(m, -p.see_quiet * depth * depth)))
            && !hem.get()
    }

    /// Step 9, the late move reduction of the `n`th move, a quiet one with ordering score
    /// `order`, searched `new_depth` plies deep at full depth.
    #[inline]
    fn reduction(&self, node: &Node, n: usize, new_depth: i32, order: i32, hem: &mut Hem) -> i32 {
        let (p, depth) = (&self.params, node.depth);
        if depth < p.lmr_depth || n <= p.lmr_moves as usize || node.in_check {
            return 0;
        }
        let mut r = self.lmr.get(depth, n);
        if node.pv {
            r -= p.lmr_pv;
        }
        if is_refutation(order) {
            r -= p.lmr_refutation;
        }
        if !node.improving {
            r += p.lmr_not_improving;
        }
        if node.threat {
            r -= p.lmr_threat;
        }
        if node.cut {
            r += p.lmr_cut;
        }
        if hem.get() {
            r -= p.hem_lmr;
        }
        let h = p.lmr_history_max;
        r -= (order / p.lmr_history_div).clamp(-h, h);
        r.clamp(0, new_depth - 1)
    }

    /// Step 10, the histories after move `m` cut the node off: a bonus to it, a malus to the
    /// moves of its kind tried before it; a quiet cut-off move is also a killer and the
    /// counter-move to the move before, and its continuations get the bonus.
    #[inline(always)]
    fn update_histories(
        &mut self,
        pos: &Position,
        m: Move,
        node: &Node,
        tried: &Tried,
        cont: &[Option<usize>; 2],
    ) {
        let p = &self.params;
        let bonus = p.history_bonus(node.depth);
        let heur = &mut self.tables.heur;
        let capture = is_capture(pos, m);
        if capture {
            heur.update_capture(pos, m, bonus);
        }
        for &c in tried.captures() {
            heur.update_capture(pos, c, -bonus);
        }
        if capture {
            return;
        }
        heur.add_killer(node.ply, m);
        heur.update_history(pos, m, bonus);
        heur.update_cont(cont, pos, m, bonus);
        let malus = bonus * p.hist_malus_pct / 100;
        for &q in tried.quiets() {
            heur.update_history(pos, q, -malus);
            heur.update_cont(cont, pos, q, -malus);
        }
        let before = node
            .ply
            .checked_sub(1)
            .and_then(|_| self.stack[node.idx - 1].moved);
        if let Some((piece, prev)) = before {
            heur.counter[piece][prev.to().index()] = Some(m);
        }
    }

    /// Step 11, the table store of the node's result `best` and move `mv`, its bound told
    /// by the window the node was searched with: a rule-band result (path-dependent) keeps
    /// only the move.
    #[inline(always)]
    fn store(
        &mut self,
        key: u64,
        node: &Node,
        best: Score,
        mv: Option<Move>,
        old_alpha: Score,
        beta: Score,
    ) {
        let bound = if best >= beta {
            Bound::Lower
        } else if best > old_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let (score, bound) = match best.to_tt(node.ply as i32) {
            Some(s) => (s, bound),
            None => (0, Bound::None),
        };
        let tt = &self.tables.tt;
        tt.store(key, mv, score, node.static_eval, node.depth, bound);
    }

    pub(super) fn update_pv(&mut self, ply: usize, m: Move) {
        self.pv[ply][ply] = Some(m);
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        for i in ply + 1..child_len {
            self.pv[ply][i] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = child_len;
    }

    /// Quiescence: captures (all evasions when in check), and while `checks` is above zero the
    /// quiet moves that give check too; each quiet check spends one of `checks` for the rest of
    /// its line, so mates by a run of checks past the horizon are seen. A side without a legal
    /// move loses here too, stalemated or mated.
    pub(super) fn qsearch(
        &mut self,
        pos: &Position,
        mut alpha: Score,
        beta: Score,
        ply: usize,
        checks: i32,
    ) -> Score {
        self.pv_len[ply] = ply;
        if !self.poll() {
            return Score::DRAW;
        }
        self.seldepth = self.seldepth.max(ply as u32);
        let idx = self.root + ply;
        let in_check = self.stack[idx].in_check;
        if ply >= MAX_PLY as usize - 2 {
            return if in_check {
                Score::DRAW
            } else {
                self.evaluate(pos, ply)
            };
        }
        let key = pos.key();
        let hit = self.tables.tt.probe(key);
        if let Some(h) = hit {
            if beta - alpha == 1 {
                if let Some(s) = tt_cutoff(&h, alpha, beta, ply, pos) {
                    return s;
                }
            }
        }
        let mut best;
        let stand;
        let moves = if in_check {
            let moves = pos.legal_moves_with(true);
            if moves.is_empty() {
                return Score::mated_in(ply as i32);
            }
            best = -Score::INFINITE;
            stand = -Score::INFINITE;
            moves
        } else {
            if stalemated(pos) {
                return Score::mated_in(ply as i32);
            }
            stand = match hit {
                Some(h) => h.eval,
                None => self.evaluate(pos, ply),
            };
            if stand >= beta {
                return stand;
            }
            alpha = alpha.max(stand);
            best = stand;
            pos.legal_captures_with(false)
        };
        let tt_move = hit
            .and_then(|h| h.mv)
            .filter(|_| self.params.qs_tt_move > 0);
        let mut picker = Picker::captures(pos, moves, tt_move);
        let mut best_move = None;
        while let Some((m, order)) = picker.pick() {
            if !in_check {
                // The order of a capture is its `capture_score`: below 0 it likely loses.
                if order < 0 {
                    continue;
                }
                let victim = pos.piece_at(m.to()).map_or(0, |p| VALUES[p.kind().index()]);
                if stand + victim + self.params.qs_delta < alpha {
                    continue;
                }
            }
            self.tables.tt.prefetch(pos.key_after(m));
            let child = pos.play(m);
            // An evasion keeps the checks of its line; a capture ends them.
            let left = if in_check { checks } else { 0 };
            let v = self.qs_child(pos, &child, m, alpha, beta, ply, left);
            if self.aborted {
                return Score::DRAW;
            }
            if raise(v, m, beta, &mut best, &mut alpha, &mut best_move) {
                break;
            }
        }
        if checks > 0 && !in_check && alpha < beta {
            for m in pos.legal_quiet_checks_with(false).iter() {
                self.tables.tt.prefetch(pos.key_after(m));
                let child = pos.play(m);
                let v = self.qs_child(pos, &child, m, alpha, beta, ply, checks - 1);
                if self.aborted {
                    return Score::DRAW;
                }
                if raise(v, m, beta, &mut best, &mut alpha, &mut best_move) {
                    break;
                }
            }
        }
        if best_move.is_some() || hit.is_none() {
            let bound = if best >= beta {
                Bound::Lower
            } else {
                Bound::Upper
            };
            if let Some(s) = best.to_tt(ply as i32) {
                self.tables
                    .tt
                    .store(key, best_move, s, stand.max(-Score::INFINITE + 1), 0, bound);
            }
        }
        best
    }

    /// The quiescence score of `child`, reached from `pos` (the node at `ply`) by `m`, from
    /// `pos`'s side's view.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn qs_child(
        &mut self,
        pos: &Position,
        child: &Position,
        m: Move,
        alpha: Score,
        beta: Score,
        ply: usize,
        checks: i32,
    ) -> Score {
        let idx = self.root + ply;
        self.push_frame(idx, child, child.in_check(), Some(m), is_capture(pos, m));
        self.push_eval(ply + 1, pos, Some(m));
        -self.qsearch(child, -beta, -alpha, ply + 1, checks)
    }
}

#[cfg(test)]
mod tests {
    use super::{hems_king, threatens};
    use crate::board::attacks::KING_STEPS;
    use crate::board::chase::attacks;
    use crate::board::{random_walk_positions, Move, PieceKind, Position};
    use crate::psq::VALUES;

    /// `hems_king` after the move `uci` from `fen`.
    fn hems(fen: &str, uci: &str) -> bool {
        let pos = Position::from_fen(fen).unwrap();
        hems_king(&pos, Move::parse_iccs(uci).unwrap())
    }

    /// The definition on the position after the move, which `hems_king` tells without
    /// playing it.
    fn hems_played(pos: &Position, m: Move) -> bool {
        let child = pos.play(m);
        let zone = KING_STEPS[child.king(child.side_to_move()).index()];
        let after = attacks(&child, m.to(), child.occupied()) & zone;
        after.any() && (after & !attacks(pos, m.from(), pos.occupied())).any()
    }

    #[test]
    fn hems_king_agrees_with_the_played_move() {
        let (mut moves, mut hemming) = (0, 0);
        for pos in random_walk_positions(7, 40, 150) {
            for m in pos.legal_moves().iter() {
                assert_eq!(hems_king(&pos, m), hems_played(&pos, m), "{m:?} in {pos:?}");
                moves += 1;
                hemming += hems_king(&pos, m) as usize;
            }
        }
        // The walk met both answers often.
        assert!(
            moves > 100_000 && hemming > 1_000,
            "{moves} moves, {hemming} hem"
        );
    }

    /// `threatens` after the move `uci` from `fen`.
    fn threat(fen: &str, uci: &str) -> bool {
        let pos = Position::from_fen(fen).unwrap();
        threatens(&pos, Move::parse_iccs(uci).unwrap())
    }

    #[test]
    fn threatens_agrees_with_the_played_move() {
        let (mut moves, mut threats) = (0, 0);
        for pos in random_walk_positions(11, 30, 150) {
            let them = !pos.side_to_move();
            for m in pos.legal_moves().iter() {
                // The definition on the position after the move.
                let child = pos.play(m);
                let new = attacks(&child, m.to(), child.occupied())
                    & child.color_bb(them)
                    & !attacks(&pos, m.from(), pos.occupied());
                let worth = VALUES[pos.piece_at(m.from()).unwrap().kind().index()];
                let played = new
                    .filter(|&sq| {
                        let kind = child.piece_at(sq).unwrap().kind();
                        VALUES[kind.index()] > worth
                            || (matches!(
                                kind,
                                PieceKind::Rook | PieceKind::Horse | PieceKind::Cannon
                            ) && !pos.is_attacked(sq, them))
                    })
                    .count()
                    > 0;
                assert_eq!(threatens(&pos, m), played, "{m:?} in {pos:?}");
                moves += 1;
                threats += played as usize;
            }
        }
        assert!(
            moves > 50_000 && threats > 1_000,
            "{moves} moves, {threats} threats"
        );
    }

    #[test]
    fn a_move_that_attacks_a_bigger_or_a_lone_piece_threatens() {
        // The horse to b3 attacks the rook on d4, worth more than a horse.
        assert!(threat("4k4/9/9/9/9/3r5/9/9/N8/5K3 w - - 0 1", "a1b3"));
        // The rook to a4 attacks the horse on e4: worth less, but nothing defends it…
        let lone = "4k4/9/9/9/9/4n4/9/9/9/R4K3 w - - 0 1";
        assert!(threat(lone, "a0a4"));
        // …unless the rook on e8 does.
        assert!(!threat("4k4/4r4/9/9/9/4n4/9/9/9/R4K3 w - - 0 1", "a0a4"));
        // Along the fourth rank it attacked the horse already: nothing new.
        assert!(!threat("4k4/9/9/9/9/R3n4/9/9/9/5K3 w - - 0 1", "a4b4"));
    }

    #[test]
    fn a_move_onto_a_point_next_to_the_general_hems_it() {
        let fen = "4k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1";
        // The rook on the eighth rank attacks e8, where the general could step.
        assert!(hems(fen, "a0a8"));
        // On the fourth rank it attacks nothing of the palace.
        assert!(!hems(fen, "a0a4"));
        // Along the eighth rank it attacks e8 as it did before: nothing new.
        assert!(!hems("4k4/R8/9/9/9/9/9/9/9/3K5 w - - 0 1", "a8b8"));
        // A horse on c7 attacks d9 and e8 (its legs are free); on c3 nothing near.
        let fen = "4k4/9/9/9/1N7/9/9/9/9/3K5 w - - 0 1";
        assert!(hems(fen, "b5c7"));
        assert!(!hems(fen, "b5c3"));
    }
}
