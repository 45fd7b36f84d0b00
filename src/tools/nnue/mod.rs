//! The network pipeline: self-play data (`datagen`), the data record format both ends share
//! (`record`), and the CPU trainer (`train`) that writes the network files `eval::nnue` reads.

pub mod datagen;
pub mod record;
pub mod train;
