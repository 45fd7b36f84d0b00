//! Input features, in two sets.
//!
//! - `Features::Plain`: one input per (piece kind, colour relative to the perspective, square
//!   as the perspective sees it), 7 · 2 · 90 = 1260 per perspective. No input depends on the
//!   general's square, so no move ever needs a refresh.
//! - `Features::KingBuckets`: the same 1260 inputs once per bucket of the perspective's own
//!   general, 6 · 1260 = 7560, in the spirit of HalfKA. The general has nine palace squares;
//!   the board is symmetric left to right, so a general on file f is seen mirrored (on file d),
//!   which leaves files d and e times three ranks: six buckets. Every move of a general changes
//!   its bucket (no palace step keeps both its rank and its file class), so it refreshes that
//!   perspective's accumulator.
//!
//! Black's view is the board with its ranks flipped (`Square::relative`), so both perspectives
//! see their own pieces at the bottom and their own pieces first: the network is the same for
//! both sides.

use crate::board::{Color, Piece, PieceKind, Position, Square};

/// Inputs per perspective of the plain set (and per bucket of the king-bucket set).
pub const INPUTS: usize = 7 * 2 * 90;

/// Buckets of the king-bucket set: files d and e (f mirrored onto d) times three ranks.
pub const KING_BUCKETS: usize = 6;

/// Which input features a network reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Features {
    /// (piece kind, relative colour, square): 1260 inputs.
    Plain,
    /// The plain inputs per bucket of the perspective's own general: 7560 inputs.
    KingBuckets,
}

impl Features {
    /// Every feature set, in the order of their ids.
    pub const ALL: [Features; 2] = [Features::Plain, Features::KingBuckets];

    /// Inputs per perspective.
    pub const fn inputs(self) -> usize {
        match self {
            Features::Plain => INPUTS,
            Features::KingBuckets => KING_BUCKETS * INPUTS,
        }
    }

    /// The id written in a network file's header.
    pub const fn id(self) -> u16 {
        match self {
            Features::Plain => 0,
            Features::KingBuckets => 1,
        }
    }

    /// The set of a header's id.
    pub fn from_id(id: u16) -> Option<Features> {
        Features::ALL.into_iter().find(|f| f.id() == id)
    }

    /// The name used on the command line (`plain`, `king`).
    pub const fn name(self) -> &'static str {
        match self {
            Features::Plain => "plain",
            Features::KingBuckets => "king",
        }
    }

    /// Whether a move of the perspective's own general needs a refresh.
    pub const fn king_relative(self) -> bool {
        matches!(self, Features::KingBuckets)
    }

    /// How `perspective` sees the board when its own general stands on `king`.
    #[inline(always)]
    pub fn view(self, perspective: Color, king: Square) -> View {
        match self {
            Features::Plain => View {
                perspective,
                base: 0,
                mirror: false,
            },
            Features::KingBuckets => {
                let k = king.relative(perspective);
                let mirror = k.file() > 4;
                let file = if mirror { 8 - k.file() } else { k.file() };
                // A general stays in its palace (files d–f, ranks 0–2 of its side); clamping
                // keeps a position set up with it elsewhere in range.
                let bucket = (k.rank().min(2) as usize) * 2 + (file == 4) as usize;
                View {
                    perspective,
                    base: bucket * INPUTS,
                    mirror,
                }
            }
        }
    }

    /// The view of `perspective` in `pos`.
    #[inline(always)]
    pub fn view_of(self, pos: &Position, perspective: Color) -> View {
        self.view(perspective, pos.king(perspective))
    }
}

/// One perspective's way of numbering the inputs: its colour, its bucket's first input and
/// whether files are mirrored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct View {
    perspective: Color,
    base: usize,
    mirror: bool,
}

impl View {
    /// The input index of `piece` on `sq`.
    #[inline(always)]
    pub fn index(self, piece: Piece, sq: Square) -> usize {
        let theirs = (piece.color() != self.perspective) as usize;
        let rel = sq.relative(self.perspective).index();
        let rel = if self.mirror {
            rel - 2 * (rel % 9) + 8
        } else {
            rel
        };
        self.base + (theirs * 7 + piece.kind().index()) * 90 + rel
    }

    /// A number for the view's bucket and mirror, below `2 · inputs / INPUTS`.
    #[inline(always)]
    pub fn slot(self) -> usize {
        self.base / INPUTS * 2 + self.mirror as usize
    }

    /// The active inputs of `pos` in this view, in ascending square order.
    pub fn active(self, pos: &Position) -> impl Iterator<Item = usize> + '_ {
        Square::all().filter_map(move |sq| pos.piece_at(sq).map(|p| self.index(p, sq)))
    }
}

/// The plain input index of `piece` on `sq` seen from `perspective`.
#[inline(always)]
pub fn index(perspective: Color, piece: Piece, sq: Square) -> usize {
    Features::Plain
        .view(perspective, Square::from_index_unchecked(0))
        .index(piece, sq)
}

/// The active plain inputs of `pos` from `perspective`, in ascending square order.
pub fn active(pos: &Position, perspective: Color) -> impl Iterator<Item = usize> + '_ {
    Features::Plain.view_of(pos, perspective).active(pos)
}

/// Whether `piece` is a general of `color`.
#[inline(always)]
pub fn is_king_of(piece: Piece, color: Color) -> bool {
    piece.kind() == PieceKind::King && piece.color() == color
}

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn king_buckets_cover_the_palace_with_mirrors() {
        let set = Features::KingBuckets;
        let sq = |s: &str| s.parse::<Square>().unwrap();
        let mut bases = std::collections::HashSet::new();
        for file in ["d", "e", "f"] {
            for rank in 0..3 {
                let red = set.view(Color::Red, sq(&format!("{file}{rank}")));
                // Black's general on the rank-flipped square sees the same.
                let black = set.view(Color::Black, sq(&format!("{file}{}", 9 - rank)));
                assert_eq!((red.base, red.mirror), (black.base, black.mirror));
                assert_eq!(red.mirror, file == "f");
                bases.insert(red.base);
            }
        }
        assert_eq!(bases.len(), KING_BUCKETS);
        assert!(bases.iter().all(|&b| b % INPUTS == 0 && b < set.inputs()));
        // Mirrored: a piece on c3 seen with the general on f0 is the piece on g3 seen with the
        // general on d0.
        let rook = Piece::new(Color::Red, PieceKind::Rook);
        let (f0, d0) = (
            set.view(Color::Red, sq("f0")),
            set.view(Color::Red, sq("d0")),
        );
        assert_eq!(f0.index(rook, sq("c3")), d0.index(rook, sq("g3")));
        assert_eq!(f0.index(rook, sq("e3")), d0.index(rook, sq("e3")));
        // Every index of every view is in range and distinct within the view.
        for k in ["d0", "e1", "f2"] {
            let v = set.view(Color::Black, sq(k).flip_rank());
            let mut seen = std::collections::HashSet::new();
            for c in [Color::Red, Color::Black] {
                for kind in PieceKind::ALL {
                    for s in Square::all() {
                        let i = v.index(Piece::new(c, kind), s);
                        assert!(i < set.inputs());
                        assert!(seen.insert(i));
                    }
                }
            }
        }
        for f in Features::ALL {
            assert_eq!(Features::from_id(f.id()), Some(f));
        }
        assert_eq!(Features::from_id(7), None);
    }
}
