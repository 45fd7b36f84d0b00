//! Command-line tools built on the library: perft, bench, match, tune, judge, datagen and train
//! (the network), and the PGN reader and writer that match, tune and judge share.

pub mod bench;
pub mod datagen;
pub mod judge;
pub mod matchrunner;
pub mod perft;
pub mod pgn;
pub mod train;
pub mod tune;
pub mod wdl;
