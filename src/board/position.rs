//! `Position`: bitboards by colour and kind, a mailbox and the Zobrist key.
//!
//! Copy-make: `play` returns the child and leaves the parent untouched, so there is nothing to
//! undo. Invariant: the bitboards, mailbox, king squares, key and the
//! material-and-placement score always agree.

use super::attacks;
use super::bitboard::Bitboard;
use super::moves::Move;
use super::piece::{Piece, PieceKind};
use super::square::{Color, Square};
use super::zobrist::KEYS;
use crate::psq::PSQ;

/// A Xiangqi position: placement, side to move, counters and key.
#[derive(Clone, PartialEq, Eq)]
pub struct Position {
    colors: [Bitboard; 2],
    kinds: [Bitboard; 7],
    board: [Option<Piece>; 90],
    kings: [Square; 2],
    side: Color,
    key: u64,
    psq: i32,
    halfmove: u16,
    fullmove: u16,
}

/// FEN of the start position.
pub const START_FEN: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

impl Default for Position {
    fn default() -> Self {
        Position::startpos()
    }
}

impl Position {
    /// The start position.
    pub fn startpos() -> Position {
        START_FEN.parse().expect("start FEN is valid")
    }

    /// An empty board (no kings: only for building positions; not a legal position).
    pub(crate) fn empty() -> Position {
        Position {
            colors: [Bitboard::EMPTY; 2],
            kinds: [Bitboard::EMPTY; 7],
            board: [None; 90],
            kings: [
                Square::from_index_unchecked(4),
                Square::from_index_unchecked(85),
            ],
            side: Color::Red,
            key: 0,
            psq: 0,
            halfmove: 0,
            fullmove: 1,
        }
    }

    /// Puts `piece` on the empty square `sq` (board building).
    pub(crate) fn put(&mut self, sq: Square, piece: Piece) {
        debug_assert!(self.board[sq.index()].is_none());
        self.add(sq, piece);
    }

    /// Sets side to move and counters (board building); recomputes the key.
    pub(crate) fn set_state(&mut self, side: Color, halfmove: u16, fullmove: u16) {
        self.side = side;
        self.halfmove = halfmove;
        self.fullmove = fullmove;
        self.key = self.compute_key();
    }

    #[inline(always)]
    fn add(&mut self, sq: Square, piece: Piece) {
        let b = Bitboard::from_square(sq);
        self.colors[piece.color().index()] |= b;
        self.kinds[piece.kind().index()] |= b;
        self.board[sq.index()] = Some(piece);
        self.key ^= KEYS.pieces[piece.index()][sq.index()];
        self.psq += PSQ[piece.index()][sq.index()];
        if piece.kind() == PieceKind::King {
            self.kings[piece.color().index()] = sq;
        }
    }

    /// Side to move.
    #[inline(always)]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// Zobrist key (placement and side to move).
    #[inline(always)]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// Material and piece-square score of Red minus Black (`psq::PSQ`, kept incrementally).
    #[inline(always)]
    pub fn psq(&self) -> i32 {
        self.psq
    }

    /// Plies since the last capture (the 60-move counter).
    #[inline(always)]
    pub fn halfmove_clock(&self) -> u16 {
        self.halfmove
    }

    /// Move number, starting at 1 and incremented after Black moves.
    #[inline(always)]
    pub fn fullmove_number(&self) -> u16 {
        self.fullmove
    }

    /// The piece on `sq`, if any.
    #[inline(always)]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board[sq.index()]
    }

    /// All occupied squares.
    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.colors[0] | self.colors[1]
    }

    /// The squares of `color`'s pieces.
    #[inline(always)]
    pub fn color_bb(&self, color: Color) -> Bitboard {
        self.colors[color.index()]
    }

    /// The squares of pieces of `kind`, both colours.
    #[inline(always)]
    pub fn kind_bb(&self, kind: PieceKind) -> Bitboard {
        self.kinds[kind.index()]
    }

    /// The squares of `color`'s pieces of `kind`.
    #[inline(always)]
    pub fn pieces(&self, color: Color, kind: PieceKind) -> Bitboard {
        self.colors[color.index()] & self.kinds[kind.index()]
    }

    /// The square of `color`'s king.
    #[inline(always)]
    pub fn king(&self, color: Color) -> Square {
        self.kings[color.index()]
    }

    /// (rook destinations including first blockers, cannon capture squares) from `sq` on the
    /// current occupancy, whatever stands on `sq` (`attacks::rook_and_cannon`).
    #[inline(always)]
    pub fn slides(&self, sq: Square) -> (Bitboard, Bitboard) {
        attacks::rook_and_cannon(sq, self.occupied())
    }

    /// The key computed from scratch (tests compare it with the incremental key).
    pub fn compute_key(&self) -> u64 {
        let mut k = 0;
        for sq in self.occupied() {
            if let Some(p) = self.board[sq.index()] {
                k ^= KEYS.pieces[p.index()][sq.index()];
            }
        }
        if self.side == Color::Black {
            k ^= KEYS.black_to_move;
        }
        k
    }

    /// The key the position would have after `m` (for prefetching), without playing it.
    #[inline]
    pub fn key_after(&self, m: Move) -> u64 {
        let (from, to) = (m.from(), m.to());
        let mut k = self.key ^ KEYS.black_to_move;
        if let Some(p) = self.board[from.index()] {
            k ^= KEYS.pieces[p.index()][from.index()] ^ KEYS.pieces[p.index()][to.index()];
        }
        if let Some(c) = self.board[to.index()] {
            k ^= KEYS.pieces[c.index()][to.index()];
        }
        k
    }

    /// The position after `m`, which must be legal here (or at least pseudo-legal: a piece of
    /// the side to move on `from`, no own piece on `to`).
    #[inline]
    pub fn play(&self, m: Move) -> Position {
        let mut p = self.clone();
        p.make(m);
        p
    }

    /// Plays `m` in place. Returns the captured piece, if any.
    #[inline]
    pub fn make(&mut self, m: Move) -> Option<Piece> {
        let (from, to) = (m.from(), m.to());
        let piece = self.board[from.index()].expect("move from an occupied square");
        let captured = self.board[to.index()];
        let fb = Bitboard::from_square(from);
        let tb = Bitboard::from_square(to);
        let keys = &KEYS;
        if let Some(c) = captured {
            self.colors[c.color().index()] ^= tb;
            self.kinds[c.kind().index()] ^= tb;
            self.key ^= keys.pieces[c.index()][to.index()];
            self.psq -= PSQ[c.index()][to.index()];
            self.halfmove = 0;
        } else {
            self.halfmove = self.halfmove.saturating_add(1);
        }
        self.colors[piece.color().index()] ^= fb | tb;
        self.kinds[piece.kind().index()] ^= fb | tb;
        self.board[from.index()] = None;
        self.board[to.index()] = Some(piece);
        self.key ^= keys.pieces[piece.index()][from.index()]
            ^ keys.pieces[piece.index()][to.index()]
            ^ keys.black_to_move;
        self.psq += PSQ[piece.index()][to.index()] - PSQ[piece.index()][from.index()];
        if piece.kind() == PieceKind::King {
            self.kings[piece.color().index()] = to;
        }
        if self.side == Color::Black {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.side = !self.side;
        captured
    }

    /// The position with the side to move passed (null move, for search). Not legal in check.
    pub fn play_null(&self) -> Position {
        let mut p = self.clone();
        p.side = !p.side;
        p.key ^= KEYS.black_to_move;
        p.halfmove = p.halfmove.saturating_add(1);
        p
    }

    /// Whether the side to move's king is attacked (including by the facing enemy king).
    #[inline]
    pub fn in_check(&self) -> bool {
        let us = self.side;
        self.king_attacked(
            self.kings[us.index()],
            !us,
            self.occupied(),
            self.colors[(!us).index()],
        )
    }

    /// Whether `color`'s king would be attacked by `color`'s opponent (the side not to move is
    /// in check only in an illegal position).
    pub fn king_in_check(&self, color: Color) -> bool {
        self.king_attacked(
            self.kings[color.index()],
            !color,
            self.occupied(),
            self.colors[(!color).index()],
        )
    }

    /// Whether square `k` (holding, or about to hold, the king of `!by`) is attacked by the
    /// pieces of `by` that lie in `mask`, with occupancy `occ`. The enemy king attacks along
    /// lines like a rook (flying general). Advisors and elephants can never reach the other
    /// side's palace, so they are not tested.
    #[inline]
    pub(crate) fn king_attacked(
        &self,
        k: Square,
        by: Color,
        occ: Bitboard,
        mask: Bitboard,
    ) -> bool {
        let them = self.colors[by.index()] & mask;
        let pawns = them & self.kinds[PieceKind::Pawn.index()];
        if (attacks::PAWN_ATTACKERS[by.index()][k.index()] & pawns).any() {
            return true;
        }
        let horses = them & self.kinds[PieceKind::Horse.index()];
        if (attacks::HORSE_RANGE[k.index()] & horses).any()
            && (attacks::horse_attackers(k, occ) & horses).any()
        {
            return true;
        }
        let rooks =
            them & (self.kinds[PieceKind::Rook.index()] | self.kinds[PieceKind::King.index()]);
        let cannons = them & self.kinds[PieceKind::Cannon.index()];
        // Only the lines through `k` that hold a slider are looked up.
        let on_rank = attacks::RANK_LINE[k.index()] & (rooks | cannons);
        if on_rank.any() {
            let (rook, cannon) = attacks::rank_slides(k, occ);
            if (rook & rooks).any() || (cannon & cannons).any() {
                return true;
            }
        }
        let on_file = attacks::FILE_LINE[k.index()] & (rooks | cannons);
        if on_file.any() {
            let (rook, cannon) = attacks::file_slides(k, occ);
            if (rook & rooks).any() || (cannon & cannons).any() {
                return true;
            }
        }
        false
    }

    /// Whether `m` (pseudo-legal for the side to move) leaves the mover's king safe.
    #[inline]
    pub(crate) fn leaves_king_safe(&self, m: Move) -> bool {
        let us = self.side;
        let (from, to) = (m.from(), m.to());
        let occ = (self.occupied().without(from)).with(to);
        let mask = !Bitboard::from_square(to);
        let k = if from == self.kings[us.index()] {
            to
        } else {
            self.kings[us.index()]
        };
        !self.king_attacked(k, !us, occ, mask)
    }

    /// Whether the legal move `m` checks the opponent, decided without playing it: the moved
    /// piece from its new square, or any other piece of ours through the new occupancy (a line
    /// opened, a horse leg freed, a cannon screen set or taken away). Equals
    /// `self.play(m).in_check()` for every legal `m`.
    #[inline]
    pub fn gives_check(&self, m: Move) -> bool {
        let us = self.side;
        let (from, to) = (m.from(), m.to());
        let Some(piece) = self.board[from.index()] else {
            return false;
        };
        let k = self.kings[(!us).index()];
        // A check needs the move to touch the general's rank or file (a rook, cannon or pawn
        // arriving, a line opened, a screen set or taken), one of its diagonal neighbours (a
        // horse leg freed) or a horse's reach of it: most moves touch none.
        let lines = attacks::RANK_LINE[k.index()] | attacks::FILE_LINE[k.index()];
        if !(lines.has(from)
            || lines.has(to)
            || attacks::DIAGONAL_NEIGHBOURS[k.index()].has(from)
            || (piece.kind() == PieceKind::Horse && attacks::HORSE_RANGE[k.index()].has(to)))
        {
            return false;
        }
        let occ = self.occupied().without(from).with(to);
        let direct = match piece.kind() {
            PieceKind::Pawn => attacks::PAWN_ATTACKERS[us.index()][k.index()].has(to),
            PieceKind::Horse => attacks::horse_attackers(k, occ).has(to),
            PieceKind::Rook => attacks::rook(to, occ).has(k),
            PieceKind::Cannon => attacks::cannon(to, occ).has(k),
            // A king facing the other one is an illegal move, not a check.
            PieceKind::King | PieceKind::Advisor | PieceKind::Elephant => false,
        };
        direct || self.king_attacked(k, us, occ, !Bitboard::from_square(from))
    }
}

impl std::hash::Hash for Position {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.key.hash(state);
    }
}

impl Position {
    /// Whether `sq` is attacked by a piece of `by` on the current board (any square: kings and
    /// advisors by their steps, elephants over an empty eye). Used for move ordering and
    /// evaluation, not for legality (see `king_attacked`).
    pub fn is_attacked(&self, sq: Square, by: Color) -> bool {
        let occ = self.occupied();
        let i = sq.index();
        let pieces = |k: PieceKind| self.pieces(by, k);
        if (attacks::PAWN_ATTACKERS[by.index()][i] & pieces(PieceKind::Pawn)).any()
            || (attacks::KING_STEPS[i] & pieces(PieceKind::King)).any()
            || (attacks::ADVISOR_STEPS[i] & pieces(PieceKind::Advisor)).any()
        {
            return true;
        }
        if (attacks::horse_attackers(sq, occ) & pieces(PieceKind::Horse)).any()
            || (attacks::elephant(sq, occ) & pieces(PieceKind::Elephant)).any()
        {
            return true;
        }
        let (rook, cannon) = self.slides(sq);
        (rook & pieces(PieceKind::Rook)).any() || (cannon & pieces(PieceKind::Cannon)).any()
    }
}
