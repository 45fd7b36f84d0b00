//! Command-line tools built on the library: perft, bench, match, tune, datagen and train (the network).

pub mod bench;
pub mod datagen;
pub mod matchrunner;
pub mod perft;
pub mod train;
pub mod tune;
