//! Chariot: a Xiangqi (Chinese chess) engine.
//!
//! `board` holds the rules (bitboard move generation, FEN, Zobrist keys); `eval` and `search`
//! the game search; `tools` the command-line tools (perft).

pub mod board;
pub mod eval;
pub mod path;
pub mod protocol;
pub mod search;
pub mod tools;
