//! Piece kinds and coloured pieces, with their FEN letters.

use super::square::Color;
use std::num::NonZeroU8;

/// The seven kinds of Xiangqi piece.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum PieceKind {
    /// General 帅/将 (`K`).
    King = 0,
    /// Advisor 仕/士 (`A`).
    Advisor = 1,
    /// Elephant 相/象 (`B`; `E` accepted).
    Elephant = 2,
    /// Horse 马 (`N`; `H` accepted).
    Horse = 3,
    /// Chariot / rook 车 (`R`).
    Rook = 4,
    /// Cannon 炮 (`C`).
    Cannon = 5,
    /// Soldier / pawn 兵/卒 (`P`).
    Pawn = 6,
}

impl PieceKind {
    /// All kinds in index order.
    pub const ALL: [PieceKind; 7] = [
        PieceKind::King,
        PieceKind::Advisor,
        PieceKind::Elephant,
        PieceKind::Horse,
        PieceKind::Rook,
        PieceKind::Cannon,
        PieceKind::Pawn,
    ];

    /// 0 … 6.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Upper-case FEN letter (Red's).
    pub const fn letter(self) -> char {
        ['K', 'A', 'B', 'N', 'R', 'C', 'P'][self as usize]
    }

    /// Most pieces of this kind one side may have.
    pub const fn max_count(self) -> u32 {
        [1, 2, 2, 2, 2, 2, 5][self as usize]
    }

    /// The kind for an upper-case letter (`E` and `H` accepted as WXF aliases).
    pub const fn from_letter(c: char) -> Option<PieceKind> {
        Some(match c {
            'K' => PieceKind::King,
            'A' => PieceKind::Advisor,
            'B' | 'E' => PieceKind::Elephant,
            'N' | 'H' => PieceKind::Horse,
            'R' => PieceKind::Rook,
            'C' => PieceKind::Cannon,
            'P' => PieceKind::Pawn,
            _ => return None,
        })
    }
}

/// A coloured piece, stored as `1 + color * 7 + kind` so that `Option<Piece>` is one byte.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Piece(NonZeroU8);

impl Piece {
    /// The piece of `color` and `kind`.
    #[inline(always)]
    pub const fn new(color: Color, kind: PieceKind) -> Piece {
        match NonZeroU8::new(1 + color as u8 * 7 + kind as u8) {
            Some(v) => Piece(v),
            None => unreachable!(),
        }
    }

    /// 0 … 13: Red's kinds then Black's.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0.get() as usize - 1
    }

    /// The piece's colour.
    #[inline(always)]
    pub const fn color(self) -> Color {
        if self.index() < 7 {
            Color::Red
        } else {
            Color::Black
        }
    }

    /// The piece's kind.
    #[inline(always)]
    pub const fn kind(self) -> PieceKind {
        // A table of sixteen, so that the lookup needs neither a division nor a bounds check.
        const KINDS: [PieceKind; 16] = {
            let mut t = [PieceKind::King; 16];
            let mut i = 0;
            while i < 14 {
                t[i] = PieceKind::ALL[i % 7];
                i += 1;
            }
            t
        };
        KINDS[self.index() & 15]
    }

    /// FEN letter: upper case for Red, lower case for Black.
    pub const fn fen_char(self) -> char {
        let c = self.kind().letter();
        match self.color() {
            Color::Red => c,
            Color::Black => c.to_ascii_lowercase(),
        }
    }

    /// The piece for a FEN letter (`E`/`H` aliases accepted), if any.
    pub const fn from_fen_char(c: char) -> Option<Piece> {
        let color = if c.is_ascii_uppercase() {
            Color::Red
        } else {
            Color::Black
        };
        match PieceKind::from_letter(c.to_ascii_uppercase()) {
            Some(kind) => Some(Piece::new(color, kind)),
            None => None,
        }
    }
}

impl std::fmt::Debug for Piece {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.fen_char())
    }
}
