//! Accumulators: per perspective, the feature transformer's output (`H` i16 lanes), kept for
//! every ply of the search and updated by the feature deltas of one move.
//!
//! The stack is lazy: `push` only records the move that led to a ply; `evaluate` finds the
//! nearest ply below whose accumulators are computed and applies the recorded deltas upwards,
//! so positions that are pruned before their evaluation cost nothing. A move takes its piece
//! off `from`, puts it on `to` and takes a captured piece off `to`; a null move copies. No
//! feature depends on the king's square, so no move needs a refresh. Nothing here allocates
//! after `new`.
//!
//! Invariant: for every ply `p` with `computed[p]`, `acc(p)` equals a full refresh of the
//! position at `p` on the current path, and every ply above the root has its move recorded.

use super::features::index;
use super::network::Network;
use super::simd;
use crate::board::{Color, Move, Piece, Position};
use std::sync::Arc;

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

/// The accumulators of every ply of the search's current path.
pub struct AccumulatorStack {
    net: Arc<Network>,
    hidden: usize,
    /// `[ply][perspective][hidden]`.
    data: Vec<i16>,
    deltas: Vec<Delta>,
    computed: Vec<bool>,
}

impl AccumulatorStack {
    /// A stack of `plies` plies for `net`.
    pub fn new(net: Arc<Network>, plies: usize) -> AccumulatorStack {
        let hidden = net.hidden();
        let plies = plies.max(1);
        AccumulatorStack {
            net,
            hidden,
            data: vec![0; plies * 2 * hidden],
            deltas: vec![Delta::Copy; plies],
            computed: vec![false; plies],
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
            let start = (ply * 2 + p) * h;
            let acc = &mut self.data[start..start + h];
            acc.copy_from_slice(self.net.ft_bias());
            for sq in pos.occupied() {
                if let Some(piece) = pos.piece_at(sq) {
                    let row = self.net.row(index(color, piece, sq));
                    for (a, &w) in acc.iter_mut().zip(row) {
                        *a = a.wrapping_add(w);
                    }
                }
            }
        }
        self.computed[ply] = true;
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
        self.computed[ply] = false;
    }

    /// Brings `ply` up to date from the nearest computed ply below it.
    fn materialize(&mut self, ply: usize) {
        let mut base = ply;
        while !self.computed[base] {
            // Ply 0 is refreshed at the root, so this stops.
            base -= 1;
        }
        let h = self.hidden;
        for j in base + 1..=ply {
            let (below, above) = self.data.split_at_mut(j * 2 * h);
            let parent = &below[(j - 1) * 2 * h..];
            let child = &mut above[..2 * h];
            for (p, color) in [Color::Red, Color::Black].into_iter().enumerate() {
                let src = &parent[p * h..(p + 1) * h];
                let dst = &mut child[p * h..(p + 1) * h];
                match self.deltas[j] {
                    Delta::Copy => dst.copy_from_slice(src),
                    Delta::Move { piece, m, captured } => {
                        let add = self.net.row(index(color, piece, m.to()));
                        let sub = self.net.row(index(color, piece, m.from()));
                        match captured {
                            Some(c) => {
                                let cap = self.net.row(index(color, c, m.to()));
                                simd::apply(dst, src, &[add], &[sub, cap]);
                            }
                            None => simd::apply(dst, src, &[add], &[sub]),
                        }
                    }
                }
            }
            self.computed[j] = true;
        }
    }

    /// The accumulators (Red's view, Black's view) of the position at `ply`.
    pub fn accumulators(&mut self, ply: usize) -> (&[i16], &[i16]) {
        self.materialize(ply);
        let h = self.hidden;
        let at = &self.data[ply * 2 * h..(ply + 1) * 2 * h];
        at.split_at(h)
    }

    /// The network's evaluation of `pos`, the position at `ply`, in centipawns from the side
    /// to move's view.
    #[inline]
    pub fn evaluate(&mut self, ply: usize, pos: &Position) -> i32 {
        self.materialize(ply);
        let h = self.hidden;
        let at = &self.data[ply * 2 * h..(ply + 1) * 2 * h];
        let (red, black) = at.split_at(h);
        let (us, them) = match pos.side_to_move() {
            Color::Red => (red, black),
            Color::Black => (black, red),
        };
        self.net.output(us, them, pos.occupied().count() as usize)
    }
}

/// The network's evaluation of `pos` computed from scratch (the `eval` command, tests).
pub fn evaluate(net: &Arc<Network>, pos: &Position) -> i32 {
    let mut stack = AccumulatorStack::new(Arc::clone(net), 1);
    stack.refresh(0, pos);
    stack.evaluate(0, pos)
}
