//! Move text in positions: ICCS parsing with a legality check.

use super::moves::Move;
use super::position::Position;
use std::fmt;

/// Why a move text was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// Not four characters `<file><rank><file><rank>` on the board.
    Syntax(String),
    /// Well-formed but not legal in the position.
    Illegal(String),
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Syntax(s) => write!(f, "malformed move {s}"),
            MoveError::Illegal(s) => write!(f, "illegal move {s}"),
        }
    }
}

impl std::error::Error for MoveError {}

impl Position {
    /// Parses ICCS text (`h2e2`, any case) and checks that the move is legal here.
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let m = Move::parse_iccs(text)?;
        if self.is_legal(m) {
            Ok(m)
        } else {
            Err(MoveError::Illegal(m.to_string()))
        }
    }
}
