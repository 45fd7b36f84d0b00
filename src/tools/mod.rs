//! Command-line tools built on the library: perft, bench, match, tune, datagen (network training data).

pub mod bench;
pub mod datagen;
pub mod matchrunner;
pub mod perft;
pub mod tune;
