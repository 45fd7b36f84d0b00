//! Chariot: a Xiangqi (Chinese chess) engine.
//!
//! Layers, each using only those below it: `score` and `psq` (plain values and tables) on the
//! ground floor; `board` (the rules: bitboard move generation, FEN, Zobrist keys, repetition
//! verdicts); `eval` and then `search`; `protocol` (UCI and UCCI text) and `tools` (perft,
//! bench, match, tune) on top. `path` (grid A*) stands apart.

pub mod board;
pub mod eval;
pub mod path;
pub mod protocol;
pub mod psq;
pub mod score;
pub mod search;
pub mod tools;
