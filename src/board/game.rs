//! `Game`: a start position and the legal moves played from it, with every position kept.
//!
//! This is what the protocol loop builds from `position … moves …` and what the search and the
//! match referee read for repetition and the 60-move rule. Building is atomic: a bad move
//! anywhere rejects the whole list.

use super::moves::{Move, MoveError};
use super::position::Position;

/// A game: positions from the start to the current one, and the moves between them.
#[derive(Clone, Debug)]
pub struct Game {
    positions: Vec<Position>,
    moves: Vec<Move>,
}

/// A move list that could not be applied: which ply failed and why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{error} at ply {ply}")]
pub struct GameError {
    /// 1-based ply of the failing move in the list.
    pub ply: usize,
    /// The move problem.
    pub error: MoveError,
}

impl Default for Game {
    fn default() -> Self {
        Game::new(Position::startpos())
    }
}

impl Game {
    /// A game starting (and standing) at `start`.
    pub fn new(start: Position) -> Game {
        Game {
            positions: vec![start],
            moves: Vec::new(),
        }
    }

    /// A game from `start` with the ICCS `moves` played; fails on the first bad move.
    pub fn from_moves<S: AsRef<str>>(start: Position, moves: &[S]) -> Result<Game, GameError> {
        let mut g = Game::new(start);
        for (i, text) in moves.iter().enumerate() {
            let m = g
                .position()
                .parse_move(text.as_ref())
                .map_err(|error| GameError { ply: i + 1, error })?;
            g.play_unchecked(m);
        }
        Ok(g)
    }

    /// Plays `m` if it is legal.
    pub fn play(&mut self, m: Move) -> Result<(), MoveError> {
        if self.position().is_legal(m) {
            self.play_unchecked(m);
            Ok(())
        } else {
            Err(MoveError::Illegal(m.to_string()))
        }
    }

    fn play_unchecked(&mut self, m: Move) {
        let next = self.position().play(m);
        self.positions.push(next);
        self.moves.push(m);
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        self.positions
            .last()
            .expect("a game has at least one position")
    }

    /// The start position.
    pub fn start(&self) -> &Position {
        &self.positions[0]
    }

    /// Every position from the start to the current one (`moves().len() + 1` of them).
    pub fn positions(&self) -> &[Position] {
        &self.positions
    }

    /// The moves played.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }
}
