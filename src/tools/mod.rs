//! Command-line tools built on the library: perft, bench, match, tune, judge, and the PGN reader
//! and writer that match, tune and judge share.

pub mod bench;
pub mod judge;
pub mod matchrunner;
pub mod perft;
pub mod pgn;
pub mod tune;
pub mod wdl;
