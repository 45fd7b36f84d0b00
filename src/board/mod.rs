//! The rules of the board: squares, bitboards, pieces, attack tables, positions, legal move
//! generation, Zobrist keys, FEN and move text, and the game-ending rules (repetition with
//! perpetual check and chase, the 60-move rule).

pub mod attacks;
pub mod bitboard;
pub mod chase;
pub mod check;
pub mod fen;
pub mod game;
pub mod movegen;
pub mod moves;
pub mod notation;
pub mod perft;
pub mod piece;
pub mod position;
pub mod rules;
pub mod see;
pub mod square;
pub mod zobrist;

pub use bitboard::Bitboard;
pub use check::CheckInfo;
pub use fen::FenError;
pub use game::{Game, GameError};
pub use moves::{Move, MoveError, MoveList};
pub use notation::{Notation, NotationError};
pub use piece::{Piece, PieceKind};
pub use position::{Position, START_FEN};
pub use square::{Color, Square, SquareError};

/// Test support: the positions of `games` seeded random games from the start position, each
/// taken before each of the game's first `plies` moves (a game ends early at a position
/// without a legal move, which is not taken).
#[cfg(test)]
pub(crate) fn random_walk_positions(seed: u64, games: usize, plies: usize) -> Vec<Position> {
    use rand::{Rng, SeedableRng};
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let mut out = Vec::new();
    for _ in 0..games {
        let mut pos = Position::startpos();
        for _ in 0..plies {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            let next = pos.play(legal.get(rng.random_range(0..legal.len())));
            out.push(std::mem::replace(&mut pos, next));
        }
    }
    out
}
