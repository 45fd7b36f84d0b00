//! Command-line tools built on the library: perft, bench, match, tune, judge.

pub mod bench;
pub mod judge;
pub mod matchrunner;
pub mod perft;
pub mod tune;
