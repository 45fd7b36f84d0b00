//! Checks told from a summary made once per position.
//!
//! `Position::gives_check` answers for one move with an attack test on the enemy general. The
//! search asks it of nearly every move of a node, and quiescence of every quiet move, so
//! `CheckInfo` works out once what those tests share: the points from which each kind of piece
//! would attack the general, and the few moves whose leaving or landing may change a line or a
//! horse's leg of another piece. Those few moves get the full test; every other move is told by
//! one bit.

use super::attacks;
use super::bitboard::{bit, test, Bitboard};
use super::moves::Move;
use super::piece::PieceKind;
use super::position::Position;
use super::square::Square;

/// The checks the side to move can give, summed up for one position (`Position::check_info`).
#[derive(Clone, Copy, Debug)]
pub struct CheckInfo {
    /// By piece kind: the points from which a piece of that kind attacks the enemy general
    /// over the current occupancy (none for the general, advisors and elephants).
    direct: [Bitboard; 7],
    /// The points whose leaving may uncover a check: the one piece between one of our rooks
    /// (or our general) and the enemy general, either of the two between one of our cannons
    /// and it, and the occupied leg of a horse of ours that would attack it.
    uncover: Bitboard,
    /// The empty points between one of our cannons and the enemy general with nothing between
    /// them: a piece landing there is the cannon's screen.
    screen: Bitboard,
    /// The enemy general's rank and file: a rook or cannon moving along one of them changes
    /// its own line to the general, and gets the full test.
    rank: Bitboard,
    file: Bitboard,
}

impl CheckInfo {
    /// The points where a piece of `kind` leaving `from` may give check: its direct points
    /// and the screen points, or everywhere when the move may uncover a check or slides along
    /// a line of the general. A superset of the checking destinations, for generating them.
    #[inline]
    pub fn candidates(&self, from: Square, kind: PieceKind) -> Bitboard {
        if self.uncover.has(from) {
            return Bitboard::ALL;
        }
        let mut c = self.direct[kind.index()] | self.screen;
        if is_slider(kind) {
            if self.rank.has(from) {
                c |= self.rank;
            }
            if self.file.has(from) {
                c |= self.file;
            }
        }
        c
    }

    /// Whether a move of `kind` from `from` to `to` needs the full test.
    #[inline(always)]
    fn needs_full_test(&self, from: Square, to: Square, kind: PieceKind) -> bool {
        self.uncover.has(from)
            || self.screen.has(to)
            || (is_slider(kind)
                && ((self.rank.has(from) && self.rank.has(to))
                    || (self.file.has(from) && self.file.has(to))))
    }
}

#[inline(always)]
fn is_slider(kind: PieceKind) -> bool {
    matches!(kind, PieceKind::Rook | PieceKind::Cannon)
}

impl Position {
    /// The summary of the checks the side to move can give here (`gives_check_with`).
    pub fn check_info(&self) -> CheckInfo {
        let us = self.side_to_move();
        let k = self.king(!us);
        let occ = self.occupied();
        let (rank, file) = (attacks::RANK_LINE[k.index()], attacks::FILE_LINE[k.index()]);
        let rook = attacks::rook(k, occ);
        // A cannon checks from past the first blocker each way, up to the second one.
        let mut cannon = Bitboard::EMPTY;
        for b in rook & occ {
            cannon |= if rank.has(b) {
                attacks::rank_slides(b, occ).0
            } else {
                attacks::file_slides(b, occ).0
            };
        }
        let mut direct = [Bitboard::EMPTY; 7];
        direct[PieceKind::Pawn.index()] = attacks::PAWN_ATTACKERS[us.index()][k.index()];
        direct[PieceKind::Horse.index()] = attacks::horse_attackers(k, occ);
        direct[PieceKind::Rook.index()] = rook;
        direct[PieceKind::Cannon.index()] = cannon & !rook & !Bitboard::from_square(k);
        let (mut uncover, mut screen) = (Bitboard::EMPTY, Bitboard::EMPTY);
        let cannons = self.pieces(us, PieceKind::Cannon) & (rank | file);
        let rooks =
            (self.pieces(us, PieceKind::Rook) | self.pieces(us, PieceKind::King)) & (rank | file);
        for s in rooks | cannons {
            let between = attacks::between(k, s);
            let blockers = between & occ;
            match (cannons.has(s), blockers.count()) {
                (false, 1) | (true, 2) => uncover |= blockers,
                (true, 0) => screen |= between,
                _ => {}
            }
        }
        let horses = self.pieces(us, PieceKind::Horse);
        if (attacks::HORSE_RANGE[k.index()] & horses).any() {
            for d in 0..4 {
                let i = k.index() * 4 + d;
                let leg = attacks::HORSE_ATTACK_LEGS[i];
                if leg != attacks::NONE
                    && test(occ.bits(), leg as u32)
                    && (attacks::HORSE_ATTACKERS[i] & horses).any()
                {
                    uncover |= Bitboard::from_bits(bit(leg as u32));
                }
            }
        }
        CheckInfo {
            direct,
            uncover,
            screen,
            rank,
            file,
        }
    }

    /// Whether the legal move `m` checks the opponent, told from this position's `info`
    /// (`check_info`): equals `gives_check(m)`, which it calls only for the moves that may
    /// change a line or a leg.
    #[inline]
    pub fn gives_check_with(&self, m: Move, info: &CheckInfo) -> bool {
        let (from, to) = (m.from(), m.to());
        let Some(piece) = self.piece_at(from) else {
            return false;
        };
        let kind = piece.kind();
        if info.needs_full_test(from, to, kind) {
            return self.gives_check(m);
        }
        info.direct[kind.index()].has(to)
    }
}

#[cfg(test)]
mod tests {
    use crate::board::chase::attacks;
    use crate::board::random_walk_positions;

    /// Every legal move of many positions of random games: the summary tells the same checks
    /// as playing the move, and the candidates hold every checking destination.
    #[test]
    fn check_info_agrees_with_the_played_move() {
        let (mut moves, mut checks, mut uncovered) = (0, 0, 0);
        for pos in random_walk_positions(5, 200, 150) {
            let info = pos.check_info();
            for m in pos.legal_moves().iter() {
                let child = pos.play(m);
                let played = child.in_check();
                assert_eq!(pos.gives_check_with(m, &info), played, "{m:?} in {pos:?}");
                let kind = pos.piece_at(m.from()).unwrap().kind();
                if played {
                    assert!(
                        info.candidates(m.from(), kind).has(m.to()),
                        "{m:?} in {pos:?}"
                    );
                    checks += 1;
                    // A check by another piece than the one moved.
                    let general = child.king(child.side_to_move());
                    uncovered += !attacks(&child, m.to(), child.occupied()).has(general) as usize;
                }
                moves += 1;
            }
        }
        // The walks met checks, and checks uncovered by the move, often.
        assert!(
            moves > 500_000 && checks > 10_000 && uncovered > 300,
            "{moves} moves, {checks} checks, {uncovered} uncovered"
        );
    }
}
