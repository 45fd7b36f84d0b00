//! Colours and squares of the 9×10 board.
//!
//! A square's index is `rank * 9 + file`: a0 (Red's left corner) is 0, i9 is 89. Files a–i run
//! left to right as Red sees the board, ranks 0–9 from Red's back rank.

use std::fmt;

/// The side: Red moves first (FEN `w`), Black second (FEN `b`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Color {
    /// Red, the side at ranks 0–4, moving first.
    Red = 0,
    /// Black, the side at ranks 5–9.
    Black = 1,
}

impl Color {
    /// Both colours, Red first.
    pub const ALL: [Color; 2] = [Color::Red, Color::Black];

    /// 0 for Red, 1 for Black.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The other side.
    #[inline(always)]
    pub const fn flip(self) -> Color {
        match self {
            Color::Red => Color::Black,
            Color::Black => Color::Red,
        }
    }
}

impl std::ops::Not for Color {
    type Output = Color;
    #[inline(always)]
    fn not(self) -> Color {
        self.flip()
    }
}

/// A point on the 9×10 board. Invariant: the index is below 90.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Square(u8);

impl Square {
    /// Number of squares.
    pub const COUNT: usize = 90;

    /// The square on `file` (0 = a … 8 = i) and `rank` (0 … 9), if both are on the board.
    #[inline(always)]
    pub const fn new(file: u8, rank: u8) -> Option<Square> {
        if file < 9 && rank < 10 {
            Some(Square(rank * 9 + file))
        } else {
            None
        }
    }

    /// The square with this index, if it is below 90.
    #[inline(always)]
    pub const fn from_index(i: usize) -> Option<Square> {
        if i < 90 {
            Some(Square(i as u8))
        } else {
            None
        }
    }

    /// Builds a square from an index known to be below 90 (checked in debug builds).
    #[inline(always)]
    pub(crate) const fn from_index_unchecked(i: usize) -> Square {
        debug_assert!(i < 90);
        Square(i as u8)
    }

    /// `rank * 9 + file`.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// File 0 (a) … 8 (i).
    #[inline(always)]
    pub const fn file(self) -> u8 {
        self.0 % 9
    }

    /// Rank 0 … 9.
    #[inline(always)]
    pub const fn rank(self) -> u8 {
        self.0 / 9
    }

    /// The square shifted by (`df` files, `dr` ranks), if it stays on the board.
    pub const fn offset(self, df: i8, dr: i8) -> Option<Square> {
        let f = self.file() as i8 + df;
        let r = self.rank() as i8 + dr;
        if f < 0 || f > 8 || r < 0 || r > 9 {
            None
        } else {
            Some(Square(r as u8 * 9 + f as u8))
        }
    }

    /// Chebyshev distance (king steps on an empty board without the palace).
    #[inline(always)]
    pub const fn distance(self, other: Square) -> u8 {
        let df = self.file().abs_diff(other.file());
        let dr = self.rank().abs_diff(other.rank());
        if df > dr {
            df
        } else {
            dr
        }
    }

    /// The same point seen from the other side (rank r → 9 − r).
    pub const fn flip_rank(self) -> Square {
        Square((9 - self.rank()) * 9 + self.file())
    }

    /// The square as `color` sees it: itself for Red, rank-flipped for Black (rank 0 is then
    /// `color`'s back rank). Its own inverse.
    #[inline(always)]
    pub const fn relative(self, color: Color) -> Square {
        match color {
            Color::Red => self,
            Color::Black => self.flip_rank(),
        }
    }

    /// Whether the square is on `color`'s half of the board (Red: ranks 0–4).
    #[inline(always)]
    pub const fn on_own_side(self, color: Color) -> bool {
        match color {
            Color::Red => self.rank() <= 4,
            Color::Black => self.rank() >= 5,
        }
    }

    /// Whether the square is inside `color`'s palace (files d–f, Red ranks 0–2, Black 7–9).
    pub const fn in_palace(self, color: Color) -> bool {
        let f = self.file();
        let r = self.rank();
        f >= 3
            && f <= 5
            && match color {
                Color::Red => r <= 2,
                Color::Black => r >= 7,
            }
    }

    /// All 90 squares in index order.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..90u8).map(Square)
    }
}

impl fmt::Display for Square {
    /// ICCS text: file letter and rank digit, e.g. `e0`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank())
    }
}

/// Square text that is not a file letter `a`–`i` and a rank digit `0`–`9`. `Display` names
/// the bad token.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("bad square '{token}'")]
pub struct SquareError {
    /// The text that was given.
    pub token: String,
}

impl std::str::FromStr for Square {
    type Err = SquareError;
    fn from_str(s: &str) -> Result<Square, SquareError> {
        let bad = || SquareError {
            token: s.to_string(),
        };
        let b = s.as_bytes();
        if b.len() != 2 {
            return Err(bad());
        }
        let f = b[0].to_ascii_lowercase().wrapping_sub(b'a');
        let r = b[1].wrapping_sub(b'0');
        Square::new(f, r).ok_or_else(bad)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_text() {
        assert_eq!(
            "E0".parse::<Square>().map(|s| s.to_string()),
            Ok("e0".into())
        );
        for bad in ["j0", "a", "e10", "", "éa"] {
            let e = bad.parse::<Square>().unwrap_err();
            assert_eq!(e.to_string(), format!("bad square '{bad}'"));
        }
    }
}
