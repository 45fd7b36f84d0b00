//! The tools: above the engine, used only by the binary's commands. Each pipeline owns its
//! formats; what two pipelines share lies here, one floor below them.
//!
//! - `matches`: the match runner, engine processes, games and clocks, statistics, `judge`;
//! - `nnue`: self-play data (`datagen`), its record format, and the trainer (`train`);
//! - `fit`: fitting the classical evaluation (`tune`) and the WDL model (`wdl`);
//! - shared: `pgn` (written by matches, read by `judge`, `tune`, `wdl-fit` and `datagen --pgn`)
//!   and `openings` (the built-in openings, played by matches and by datagen).

pub mod fit;
pub mod matches;
pub mod nnue;
pub mod openings;
pub mod pgn;
