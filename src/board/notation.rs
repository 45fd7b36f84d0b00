//! Move text in positions: ICCS parsing with a legality check.

use super::moves::{Move, MoveError};
use super::position::Position;

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
