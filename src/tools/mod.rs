//! Command-line tools built on the library: perft, bench, match, tune.

pub mod bench;
pub mod matchrunner;
pub mod perft;
pub mod tune;
