//! The rules of the board: squares, bitboards, pieces, attack tables, positions, legal move
//! generation, Zobrist keys, FEN and move text, and the game-ending rules (repetition with
//! perpetual check and chase, the 60-move rule).

pub mod attacks;
pub mod bitboard;
pub mod chase;
pub mod fen;
pub mod game;
pub mod movegen;
pub mod moves;
pub mod notation;
pub mod perft;
pub mod piece;
pub mod position;
pub mod rules;
pub mod square;
pub mod zobrist;

pub use bitboard::Bitboard;
pub use fen::FenError;
pub use game::{Game, GameError};
pub use moves::{Move, MoveError, MoveList};
pub use piece::{Piece, PieceKind};
pub use position::{Position, START_FEN};
pub use square::{Color, Square, SquareError};
