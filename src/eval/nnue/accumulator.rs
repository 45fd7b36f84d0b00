//! Accumulators: per perspective, the feature transformer's output (`H` i16 lanes), kept for
//! every ply of the search and updated by the feature deltas of one move.
//!
//! The stack is lazy: `push` only records the move that led to a ply; `evaluate` finds, for
//! each perspective, the nearest ply below whose accumulator is computed and applies the
//! recorded deltas upwards, so positions that are pruned before their evaluation cost nothing.
//! A move takes its piece off `from`, puts it on `to` and takes a captured piece off `to`; a
//! null move copies.
//!
//! With king-bucket features a move of a perspective's own general changes every input of that
//! perspective. Then that perspective is refreshed at the evaluated ply instead, from a cache
//! of one accumulator per bucket and mirror (Stockfish's "Finny tables"): the cached entry
//! remembers the board it was computed for, so a refresh adds and removes only the pieces that
//! differ since the general last stood in that bucket. Nothing here allocates after `new`.
//!
//! Threat inputs (`Features::Threats`) have accumulators of their own, one per ply and
//! perspective, zero-based (the biases are in the piece accumulators). A ply's threats are
//! listed when it is evaluated: from the list of the nearest evaluated ply below and the points
//! the moves in between changed (`Threats::after`), or afresh when that ply is far below. The
//! two lists are merged, and the threats that differ are added and removed; a ply where none
//! differ shares the accumulators below it. A general's move does not touch them. The output
//! layer reads piece and threat accumulators summed.
//!
//! Invariant: for every ply `p` and perspective `c` with `computed[p][c]`, that accumulator
//! equals a full refresh of the position at `p` on the current path, and every ply above the
//! root has its move recorded.

use super::features::{is_king_of, Features, KindCounts, Threat, Threats, View, MAX_THREATS};
use super::network::Network;
use super::simd;
use crate::board::{Bitboard, Color, Move, Piece, PieceKind, Position};
use std::sync::Arc;

/// The most plies between two evaluated positions over which a threat list is carried
/// (`Threats::after`); over more, the pieces to look at again are most of the board.
const MAX_THREAT_GAP: usize = 4;

#[derive(Clone, Copy)]
enum Delta {
    /// A null move (or the root): the accumulators are the parent's.
    Copy,
    /// `piece` moved `from` → `to`, taking `captured`.
    Move {
        piece: Piece,
        m: Move,
        captured: Option<Piece>,
    },
}

/// Pieces of each colour and kind: what a cached accumulator was computed for.
type Board = [[Bitboard; 7]; 2];

fn board_of(pos: &Position) -> Board {
    let mut b = [[Bitboard::EMPTY; 7]; 2];
    for c in [Color::Red, Color::Black] {
        for k in PieceKind::ALL {
            b[c.index()][k.index()] = pos.pieces(c, k);
        }
    }
    b
}

/// One cached accumulator per perspective, bucket and mirror, with the board it holds.
struct Cache {
    /// `[perspective][slot][hidden]`.
    acc: Vec<i16>,
    boards: Vec<Board>,
    slots: usize,
}

/// The accumulators of every ply of the search's current path.
pub struct AccumulatorStack {
    net: Arc<Network>,
    features: Features,
    hidden: usize,
    /// `[ply][perspective][hidden]`.
    data: Vec<i16>,
    deltas: Vec<Delta>,
    /// `[ply][perspective]`.
    computed: Vec<[bool; 2]>,
    cache: Cache,
    /// Threat sets only: `[ply][perspective][threat_width]`, and each ply's threats.
    threats: Vec<i16>,
    /// The lanes the threat rows reach (`Network::threat_width`).
    threat_width: usize,
    /// `Threats` only: each ply's threats, listed.
    threat_lists: Vec<Threats>,
    /// `ThreatKinds` only: each ply's threats counted by kind (its list is not kept).
    kind_counts: Vec<KindCounts>,
    threats_computed: Vec<bool>,
    /// The ply whose threat accumulators a ply's are (itself, or one below when no threat
    /// changed in between).
    threat_slot: Vec<usize>,
    /// Piece and threat accumulators summed, `[perspective][hidden]`.
    sum: Vec<i16>,
    /// The threats one update adds and removes (room kept from update to update).
    added: Vec<Threat>,
    removed: Vec<Threat>,
}

impl AccumulatorStack {
    /// A stack of `plies` plies for `net`.
    pub fn new(net: Arc<Network>, plies: usize) -> AccumulatorStack {
        let hidden = net.hidden();
        let features = net.features();
        let threat_width = net.threat_width();
        let plies = plies.max(1);
        // Slots: bucket base / INPUTS times two mirrors; one slot for the plain set.
        let slots = if features.king_relative() {
            2 * features.inputs() / super::features::INPUTS
        } else {
            0
        };
        let mut cache = Cache {
            acc: vec![0; 2 * slots * hidden],
            boards: vec![[[Bitboard::EMPTY; 7]; 2]; 2 * slots],
            slots,
        };
        // Every slot starts as the empty board: the biases alone.
        for slot in cache.acc.chunks_exact_mut(hidden.max(1)) {
            slot.copy_from_slice(net.ft_bias());
        }
        AccumulatorStack {
            net,
            features,
            hidden,
            data: vec![0; plies * 2 * hidden],
            deltas: vec![Delta::Copy; plies],
            computed: vec![[false; 2]; plies],
            cache,
            threats: vec![0; plies * 2 * threat_width],
            threat_width,
            threat_lists: if features == Features::Threats {
                vec![Threats::default(); plies]
            } else {
                Vec::new()
            },
            kind_counts: if features == Features::ThreatKinds {
                vec![KindCounts::default(); plies]
            } else {
                Vec::new()
            },
            threats_computed: vec![false; plies],
            threat_slot: (0..plies).collect(),
            sum: vec![0; 2 * hidden],
            added: Vec::with_capacity(2 * MAX_THREATS),
            removed: Vec::with_capacity(2 * MAX_THREATS),
        }
    }

    /// The network in use.
    pub fn network(&self) -> &Arc<Network> {
        &self.net
    }

    /// Plies the stack holds.
    pub fn plies(&self) -> usize {
        self.computed.len()
    }

    /// Computes the accumulators of `pos` at `ply` from scratch.
    pub fn refresh(&mut self, ply: usize, pos: &Position) {
        let h = self.hidden;
        for (p, color) in [Color::Red, Color::Black].into_iter().enumerate() {
            let view = self.features.view_of(pos, color);
            let start = (ply * 2 + p) * h;
            let acc = &mut self.data[start..start + h];
            acc.copy_from_slice(self.net.ft_bias());
            for sq in pos.occupied() {
                if let Some(piece) = pos.piece_at(sq) {
                    let row = self.net.row(view.index(piece, sq));
                    for (a, &w) in acc.iter_mut().zip(row) {
                        *a = a.wrapping_add(w);
                    }
                }
            }
            self.computed[ply][p] = true;
        }
        if self.features.has_threats() {
            // The threats as `materialize_threats` finds them: by kind, or listed.
            self.added.clear();
            self.removed.clear();
            if self.features == Features::ThreatKinds {
                self.kind_counts[ply] = KindCounts::of(pos);
                let none = KindCounts::default();
                self.kind_counts[ply].diff(&none, &mut self.added, &mut self.removed);
            } else {
                self.threat_lists[ply].compute(pos);
                self.added
                    .extend_from_slice(self.threat_lists[ply].as_slice());
            }
            let w = self.threat_width;
            for (p, color) in [Color::Red, Color::Black].into_iter().enumerate() {
                let view = self.features.view_of(pos, color);
                let start = (ply * 2 + p) * w;
                let acc = &mut self.threats[start..start + w];
                acc.fill(0);
                for &t in &self.added {
                    let row = self.net.threat_row(view.threat_index(t));
                    for (a, &w) in acc.iter_mut().zip(row) {
                        *a = a.wrapping_add(w);
                    }
                }
            }
            self.threats_computed[ply] = true;
            self.threat_slot[ply] = ply;
        }
    }

    /// Records that the position at `ply` is `parent` (at `ply - 1`) after `m` (`None`: a null
    /// move). `ply` must be at least 1 and below `plies()`.
    #[inline]
    pub fn push(&mut self, ply: usize, parent: &Position, m: Option<Move>) {
        self.deltas[ply] = match m.and_then(|m| parent.piece_at(m.from()).map(|p| (p, m))) {
            Some((piece, m)) => Delta::Move {
                piece,
                m,
                captured: parent.piece_at(m.to()),
            },
            None => Delta::Copy,
        };
        self.computed[ply] = [false; 2];
        self.threats_computed[ply] = false;
    }

    /// Brings the threat accumulators at `ply`, the position `pos`, up to date from the nearest
    /// computed ply below: the threats that differ between the two are added and removed.
    fn materialize_threats(&mut self, ply: usize, pos: &Position) {
        if self.threats_computed[ply] {
            return;
        }
        let mut base = ply - 1;
        // Ply 0 is refreshed at the root, so this stops.
        while !self.threats_computed[base] {
            base -= 1;
        }
        let (adds, subs) = (&mut self.added, &mut self.removed);
        adds.clear();
        subs.clear();
        if self.features == Features::ThreatKinds {
            // Counted afresh by kind and diffed by count: cheaper than carrying a list over
            // the moves, and the counts need no order.
            let counts = KindCounts::of(pos);
            counts.diff(&self.kind_counts[base], adds, subs);
            self.kind_counts[ply] = counts;
            return self.apply_threats(ply, base, pos);
        }
        let (lists_below, lists_above) = self.threat_lists.split_at_mut(ply);
        let list = &mut lists_above[0];
        // From the threats of the ply below and the points the moves in between changed, when
        // they are few; else counted afresh.
        let mut changed = Bitboard::EMPTY;
        for d in &self.deltas[base + 1..=ply] {
            if let Delta::Move { m, .. } = d {
                changed = changed.with(m.from()).with(m.to());
            }
        }
        if ply - base <= MAX_THREAT_GAP {
            list.after(&lists_below[base], pos, changed);
        } else {
            list.compute(pos);
        }
        list.diff(&lists_below[base], |t| adds.push(t), |t| subs.push(t));
        self.apply_threats(ply, base, pos);
    }

    /// Makes the threat accumulators of `ply` those of `base` with the rows of `self.added`
    /// added and those of `self.removed` taken off (or shares `base`'s when both are empty).
    fn apply_threats(&mut self, ply: usize, base: usize, pos: &Position) {
        let (adds, subs) = (&self.added[..], &self.removed[..]);
        let (na, ns) = (adds.len(), subs.len());
        // Unchanged threats share the accumulators of the ply below: nothing is copied.
        let from = self.threat_slot[base];
        if na + ns == 0 {
            self.threat_slot[ply] = from;
            self.threats_computed[ply] = true;
            return;
        }
        self.threat_slot[ply] = ply;
        let h = self.threat_width;
        let (below, above) = self.threats.split_at_mut(ply * 2 * h);
        for (p, color) in [Color::Red, Color::Black].into_iter().enumerate() {
            let view = self.features.view_of(pos, color);
            let src = &below[(from * 2 + p) * h..(from * 2 + p + 1) * h];
            let acc = &mut above[p * h..(p + 1) * h];
            // Eight rows at a time each way: one pass over the accumulator per group, the first
            // from the source.
            const GROUP: usize = 8;
            let (mut i, mut j) = (0, 0);
            while i < na || j < ns {
                let mut add: [&[i16]; GROUP] = [&[]; GROUP];
                let mut sub: [&[i16]; GROUP] = [&[]; GROUP];
                let (ka, ks) = (GROUP.min(na - i), GROUP.min(ns - j));
                for k in 0..ka {
                    add[k] = self.net.threat_row(view.threat_index(adds[i + k]));
                }
                for k in 0..ks {
                    sub[k] = self.net.threat_row(view.threat_index(subs[j + k]));
                }
                if i + j == 0 {
                    simd::apply(acc, src, &add[..ka], &sub[..ks]);
                } else {
                    simd::apply_in_place(acc, &add[..ka], &sub[..ks]);
                }
                (i, j) = (i + ka, j + ks);
            }
        }
        self.threats_computed[ply] = true;
    }

    /// Brings perspective `p` (`color`) at `ply`, the position `pos`, up to date: from the
    /// nearest computed ply below, or from the cache when the perspective's general moved in
    /// between.
    fn materialize(&mut self, ply: usize, pos: &Position, p: usize, color: Color) {
        let mut base = ply;
        let mut king_moved = false;
        while !self.computed[base][p] {
            if self.features.king_relative() {
                if let Delta::Move { piece, .. } = self.deltas[base] {
                    king_moved |= is_king_of(piece, color);
                }
            }
            // Ply 0 is refreshed at the root, so this stops.
            base -= 1;
        }
        if king_moved {
            self.refresh_from_cache(ply, pos, p, color);
            return;
        }
        let h = self.hidden;
        // Above the last refresh the view does not change: the general has not moved.
        let view = self.features.view_of(pos, color);
        for j in base + 1..=ply {
            let (below, above) = self.data.split_at_mut(j * 2 * h);
            let src = &below[(j - 1) * 2 * h + p * h..(j - 1) * 2 * h + (p + 1) * h];
            let dst = &mut above[p * h..(p + 1) * h];
            match self.deltas[j] {
                Delta::Copy => dst.copy_from_slice(src),
                Delta::Move { piece, m, captured } => {
                    let add = self.net.row(view.index(piece, m.to()));
                    let sub = self.net.row(view.index(piece, m.from()));
                    match captured {
                        Some(c) => {
                            let cap = self.net.row(view.index(c, m.to()));
                            simd::apply(dst, src, &[add], &[sub, cap]);
                        }
                        None => simd::apply(dst, src, &[add], &[sub]),
                    }
                }
            }
            self.computed[j][p] = true;
        }
    }

    /// Perspective `p`'s accumulator of `pos` at `ply` from its cache slot: the slot's board
    /// brought to `pos` piece by piece, then copied.
    fn refresh_from_cache(&mut self, ply: usize, pos: &Position, p: usize, color: Color) {
        let h = self.hidden;
        let view: View = self.features.view_of(pos, color);
        let slot = p * self.cache.slots + view.slot();
        let now = board_of(pos);
        let acc = &mut self.cache.acc[slot * h..(slot + 1) * h];
        let had = &mut self.cache.boards[slot];
        // The rows that differ, eight each way at a time: one pass over the accumulator per
        // group (a general's step usually leaves a handful).
        const GROUP: usize = 8;
        let (mut add, mut sub): ([&[i16]; GROUP], [&[i16]; GROUP]) = ([&[]; GROUP], [&[]; GROUP]);
        let (mut na, mut ns) = (0, 0);
        for c in [Color::Red, Color::Black] {
            for k in PieceKind::ALL {
                let (was, is) = (had[c.index()][k.index()], now[c.index()][k.index()]);
                let piece = Piece::new(c, k);
                for sq in is & !was {
                    if na == GROUP {
                        simd::apply_in_place(acc, &add, &sub[..ns]);
                        (na, ns) = (0, 0);
                    }
                    add[na] = self.net.row(view.index(piece, sq));
                    na += 1;
                }
                for sq in was & !is {
                    if ns == GROUP {
                        simd::apply_in_place(acc, &add[..na], &sub);
                        (na, ns) = (0, 0);
                    }
                    sub[ns] = self.net.row(view.index(piece, sq));
                    ns += 1;
                }
            }
        }
        if na + ns > 0 {
            simd::apply_in_place(acc, &add[..na], &sub[..ns]);
        }
        *had = now;
        let start = (ply * 2 + p) * h;
        self.data[start..start + h].copy_from_slice(acc);
        self.computed[ply][p] = true;
    }

    /// Brings both perspectives at `ply` up to date, threat accumulators included.
    #[inline(always)]
    fn prepare(&mut self, ply: usize, pos: &Position) {
        self.materialize(ply, pos, 0, Color::Red);
        self.materialize(ply, pos, 1, Color::Black);
        if self.features.has_threats() {
            self.materialize_threats(ply, pos);
        }
    }

    /// Where the threat accumulators of `ply` are in `threats`.
    #[inline(always)]
    fn threat_range(&self, ply: usize) -> std::ops::Range<usize> {
        let (slot, h) = (self.threat_slot[ply], self.threat_width);
        slot * 2 * h..(slot + 1) * 2 * h
    }

    /// The accumulators (Red's view, Black's view) of `pos`, the position at `ply`: with
    /// threat inputs, the piece and threat accumulators summed.
    pub fn accumulators(&mut self, ply: usize, pos: &Position) -> (&[i16], &[i16]) {
        self.prepare(ply, pos);
        let h = self.hidden;
        let at = ply * 2 * h..(ply + 1) * 2 * h;
        if !self.features.has_threats() {
            return self.data[at].split_at(h);
        }
        let (threats, w) = (self.threat_range(ply), self.threat_width);
        self.sum.copy_from_slice(&self.data[at]);
        for (p, threat) in self.threats[threats].chunks_exact(w.max(1)).enumerate() {
            simd::apply_in_place(&mut self.sum[p * h..p * h + w], &[threat], &[]);
        }
        self.sum.split_at(h)
    }

    /// The network's evaluation of `pos`, the position at `ply`, in centipawns from the side
    /// to move's view.
    #[inline]
    pub fn evaluate(&mut self, ply: usize, pos: &Position) -> i32 {
        if self.features.has_threats() {
            return self.evaluate_with_threats(ply, pos);
        }
        self.materialize(ply, pos, 0, Color::Red);
        self.materialize(ply, pos, 1, Color::Black);
        let h = self.hidden;
        let (red, black) = self.data[ply * 2 * h..(ply + 1) * 2 * h].split_at(h);
        let (us, them) = match pos.side_to_move() {
            Color::Red => (red, black),
            Color::Black => (black, red),
        };
        self.net.output(us, them, pos.occupied().count() as usize)
    }

    /// `evaluate` with threat inputs, kept apart so that the other sets' path stays short.
    #[inline(never)]
    fn evaluate_with_threats(&mut self, ply: usize, pos: &Position) -> i32 {
        self.prepare(ply, pos);
        let h = self.hidden;
        let at = ply * 2 * h..(ply + 1) * 2 * h;
        let (red, black) = self.data[at].split_at(h);
        let (red_t, black_t) = self.threats[self.threat_range(ply)].split_at(self.threat_width);
        let (us, them) = match pos.side_to_move() {
            Color::Red => ([red, red_t], [black, black_t]),
            Color::Black => ([black, black_t], [red, red_t]),
        };
        self.net
            .output_of_sums(us, them, pos.occupied().count() as usize)
    }
}

/// The network's evaluation of `pos` computed from scratch (the `eval` command, tests).
pub fn evaluate(net: &Arc<Network>, pos: &Position) -> i32 {
    let mut stack = AccumulatorStack::new(Arc::clone(net), 1);
    stack.refresh(0, pos);
    stack.evaluate(0, pos)
}
