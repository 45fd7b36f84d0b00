//! Command-line tools built on the library: perft, bench, match, tune, and the PGN reader and
//! writer that match and tune share.

pub mod bench;
pub mod matchrunner;
pub mod perft;
pub mod pgn;
pub mod tune;
