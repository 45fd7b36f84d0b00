//! Input features: one per (piece kind, colour relative to the perspective, square as the
//! perspective sees it), 7 · 2 · 90 = 1260 per perspective.
//!
//! Black's view is the board with its ranks flipped (`Square::relative`), so both perspectives
//! see their own pieces at the bottom and their own pieces first: the network is the same for
//! both sides. No feature depends on the king's square, so no move ever needs a refresh.

use crate::board::{Color, Piece, Position, Square};

/// Inputs per perspective.
pub const INPUTS: usize = 7 * 2 * 90;

/// The input index of `piece` on `sq` seen from `perspective`.
#[inline(always)]
pub fn index(perspective: Color, piece: Piece, sq: Square) -> usize {
    let theirs = (piece.color() != perspective) as usize;
    (theirs * 7 + piece.kind().index()) * 90 + sq.relative(perspective).index()
}

/// The active inputs of `pos` from `perspective`, in ascending square order.
pub fn active(pos: &Position, perspective: Color) -> impl Iterator<Item = usize> + '_ {
    Square::all().filter_map(move |sq| pos.piece_at(sq).map(|p| index(perspective, p, sq)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::PieceKind;

    #[test]
    fn indices_are_distinct_and_mirrored() {
        let mut seen = vec![false; INPUTS];
        for c in [Color::Red, Color::Black] {
            for k in PieceKind::ALL {
                for sq in Square::all() {
                    let i = index(Color::Red, Piece::new(c, k), sq);
                    assert!(!seen[i]);
                    seen[i] = true;
                    // Black sees the colour-swapped, rank-flipped board the way Red sees this.
                    assert_eq!(index(Color::Black, Piece::new(!c, k), sq.flip_rank()), i);
                }
            }
        }
        assert!(seen.iter().all(|&s| s));
        // The start position looks the same from both sides.
        let pos = Position::startpos();
        let mut red: Vec<usize> = active(&pos, Color::Red).collect();
        let mut black: Vec<usize> = active(&pos, Color::Black).collect();
        red.sort_unstable();
        black.sort_unstable();
        assert_eq!(red, black);
        assert_eq!(red.len(), 32);
    }
}
