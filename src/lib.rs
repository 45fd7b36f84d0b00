//! Chariot: a Xiangqi (Chinese chess) engine.
//!
//! `board` holds the rules (bitboard move generation, FEN, Zobrist keys); `tools` the
//! command-line tools (perft).

pub mod board;
pub mod tools;
