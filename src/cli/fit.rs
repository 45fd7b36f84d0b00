//! `chariot tune` and `chariot wdl-fit`: the fitting tools' command lines.

use chariot::tools::fit::tune;
use std::path::PathBuf;

/// Arguments of `chariot tune`.
#[derive(clap::Args, Debug, Clone)]
pub struct TuneArgs {
    /// PGN files of finished games (as `chariot match --pgn` writes them).
    #[arg(required = true)]
    pub pgn: Vec<PathBuf>,
    /// Passes of the optimiser over the samples.
    #[arg(long, default_value_t = 400)]
    pub epochs: usize,
    /// Adam's step size in centipawns.
    #[arg(long, default_value_t = 1.0)]
    pub rate: f64,
    /// Parameters seen in fewer samples than this keep their value.
    #[arg(long, default_value_t = 300)]
    pub min_count: usize,
    /// Pull of each parameter towards its current value (L2 penalty per centipawn squared).
    #[arg(long, default_value_t = 0.0)]
    pub l2: f64,
    /// Weight of the game result in the target (the rest goes to the recorded search score).
    #[arg(long, default_value_t = 0.5)]
    pub result_weight: f64,
}

impl From<TuneArgs> for tune::Config {
    fn from(a: TuneArgs) -> tune::Config {
        tune::Config {
            pgn: a.pgn,
            epochs: a.epochs,
            rate: a.rate,
            min_count: a.min_count,
            l2: a.l2,
            result_weight: a.result_weight,
        }
    }
}

/// Arguments of `chariot wdl-fit`.
#[derive(clap::Args, Debug, Clone)]
pub struct WdlFitArgs {
    /// PGN files written by `chariot match --pgn`.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
}
