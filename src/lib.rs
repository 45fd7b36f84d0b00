//! Chariot: a Xiangqi (Chinese chess) engine.
//!
//! Two halves, one direction. The engine library, each layer using only those below it:
//! `score` and `psq` (plain values and tables) on the ground floor; `board` (the rules:
//! bitboard move generation, FEN, Zobrist keys, repetition verdicts, the referee, perft);
//! `eval` (the network and the classical evaluation); `search` (iterative deepening, the hash
//! table, threads, time, skill levels, bench); `protocol` (UCI and UCCI text, the controller);
//! `record` (game records: PGN, XQF, DhtmlXQ) and `review` (a game's moves judged by the
//! search: evals, inaccuracies, mistakes and blunders, accuracy, the annotated record).
//! Above it, behind the default feature `tools`: `tools` (matches, the network's data and
//! trainer, fitting), which only the binary's commands use; the engine half never names them.
//! `path` (grid shortest paths) stands apart. Beneath everything, `host`: the clock, threads
//! of work and polling, the standard library's natively and the page's in a browser, where
//! `web` (built for `wasm32-unknown-unknown` only) is the engine's entry point.

#![warn(missing_docs)]

pub mod board;
pub mod eval;
pub mod host;
pub mod large;
pub mod path;
pub mod protocol;
pub mod psq;
pub mod record;
pub mod review;
pub mod score;
pub mod search;
#[cfg(feature = "tools")]
pub mod tools;
#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
pub mod web;
