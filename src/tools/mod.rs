//! Command-line tools built on the library: perft (and later bench, match).

pub mod bench;
pub mod matchrunner;
pub mod perft;
