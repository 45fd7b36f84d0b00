//! `Move` and `MoveList`, ICCS move text (`h2e2`) and `MoveError`.

use super::square::Square;
use std::fmt;
use std::num::NonZeroU16;

/// Why a move text was rejected. `Display` names the move text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// Not four characters `<file><rank><file><rank>` on the board.
    #[error("malformed move {0}")]
    Syntax(String),
    /// Well-formed but not legal in the position.
    #[error("illegal move {0}")]
    Illegal(String),
    /// Not a move in WXF or Chinese notation (nor ICCS): the text as given, cut to 16
    /// characters.
    #[error("unreadable move {0}")]
    Unreadable(String),
    /// Well-formed WXF or Chinese notation that names no legal move here.
    #[error("no legal move is {0}")]
    NoSuchMove(String),
    /// Well-formed WXF or Chinese notation that names more than one legal move here.
    #[error("ambiguous move {0}")]
    Ambiguous(String),
}

/// A move: `from | to << 7 | 1 << 15`. Never zero, so `Option<Move>` is two bytes.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move(NonZeroU16);

const _: () = assert!(std::mem::size_of::<Option<Move>>() == 2);

impl Move {
    /// The move from `from` to `to`.
    #[inline(always)]
    pub const fn new(from: Square, to: Square) -> Move {
        match NonZeroU16::new(from.index() as u16 | (to.index() as u16) << 7 | 1 << 15) {
            Some(v) => Move(v),
            None => unreachable!(),
        }
    }

    /// Origin square.
    #[inline(always)]
    pub const fn from(self) -> Square {
        Square::from_index_unchecked((self.0.get() & 0x7F) as usize)
    }

    /// Destination square.
    #[inline(always)]
    pub const fn to(self) -> Square {
        Square::from_index_unchecked(((self.0.get() >> 7) & 0x7F) as usize)
    }

    /// The raw 16-bit value (never zero), for compact storage such as the hash table.
    #[inline(always)]
    pub const fn raw(self) -> u16 {
        self.0.get()
    }

    /// The move for a raw value, if it encodes two valid squares.
    pub const fn from_raw(v: u16) -> Option<Move> {
        if v & (1 << 15) == 0 || (v & 0x7F) >= 90 || ((v >> 7) & 0x7F) >= 90 {
            return None;
        }
        match NonZeroU16::new(v) {
            Some(n) => Some(Move(n)),
            None => None,
        }
    }

    /// A value taken from a `MoveList`, which only ever holds values made by `Move::new`.
    #[inline(always)]
    const fn from_list(v: u16) -> Move {
        match NonZeroU16::new(v | 1 << 15) {
            Some(n) => Move(n),
            None => unreachable!(),
        }
    }

    /// Parses ICCS text (`h2e2`, any case) into a move between two squares. This checks the
    /// syntax only (`MoveError::Syntax`); `Position::parse_move` also checks legality.
    pub fn parse_iccs(s: &str) -> Result<Move, MoveError> {
        let syntax = || MoveError::Syntax(truncate(s));
        if s.len() != 4 || !s.is_ascii() {
            return Err(syntax());
        }
        let from: Square = s[..2].parse().map_err(|_| syntax())?;
        let to: Square = s[2..].parse().map_err(|_| syntax())?;
        if from == to {
            return Err(syntax());
        }
        Ok(Move::new(from, to))
    }
}

/// At most 16 characters of `s`, for error messages (which a GUI may be shown as they are).
pub(crate) fn truncate(s: &str) -> String {
    shown(s, 16)
}

/// At most `n` characters of `s` with every one that is not printable ASCII as `?`: what an
/// error message may repeat of its input, since the engine's output is ASCII only.
pub(crate) fn shown(s: &str, n: usize) -> String {
    s.chars()
        .take(n)
        .map(|c| if c.is_ascii_graphic() { c } else { '?' })
        .collect()
}

impl fmt::Display for Move {
    /// ICCS in lower case, e.g. `h2e2`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from(), self.to())
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self}")
    }
}

/// Capacity of a move list. Xiangqi has fewer than 128 legal moves in any position.
pub const MAX_MOVES: usize = 128;

/// A fixed-capacity list of moves (no allocation).
#[derive(Clone)]
pub struct MoveList {
    moves: [u16; MAX_MOVES],
    len: usize,
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

impl MoveList {
    /// An empty list.
    #[inline(always)]
    pub const fn new() -> MoveList {
        MoveList {
            moves: [0; MAX_MOVES],
            len: 0,
        }
    }

    /// Appends a move.
    #[inline(always)]
    pub fn push(&mut self, m: Move) {
        debug_assert!(self.len < MAX_MOVES);
        if self.len < MAX_MOVES {
            self.moves[self.len] = m.raw();
            self.len += 1;
        }
    }

    /// Number of moves.
    #[inline(always)]
    pub const fn len(&self) -> usize {
        self.len
    }

    /// Whether the list is empty.
    #[inline(always)]
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The `i`-th move.
    #[inline(always)]
    pub fn get(&self, i: usize) -> Move {
        debug_assert!(i < self.len);
        Move::from_list(self.moves[i])
    }

    /// Swaps two entries (for move ordering).
    #[inline(always)]
    pub fn swap(&mut self, i: usize, j: usize) {
        self.moves.swap(i, j);
    }

    /// Whether `m` is in the list.
    pub fn contains(&self, m: Move) -> bool {
        self.moves[..self.len].contains(&m.raw())
    }

    /// The moves in order.
    pub fn iter(&self) -> impl Iterator<Item = Move> + '_ {
        self.moves[..self.len].iter().map(|&v| Move::from_list(v))
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iccs_syntax_errors() {
        assert_eq!(
            Move::parse_iccs("H2E2").map(|m| m.to_string()),
            Ok("h2e2".into())
        );
        for bad in ["h2e", "h2h2", "z9e2", "h2e2e2"] {
            assert_eq!(Move::parse_iccs(bad), Err(MoveError::Syntax(bad.into())));
        }
        assert_eq!(
            Move::parse_iccs("h2\u{fffd}\0"),
            Err(MoveError::Syntax("h2??".into()))
        );
        let long = "x".repeat(40);
        let e = Move::parse_iccs(&long).unwrap_err();
        assert_eq!(e.to_string(), format!("malformed move {}", "x".repeat(16)));
    }
}
