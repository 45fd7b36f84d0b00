//! `chariot datagen` and `chariot train`: the network pipeline's command lines.

use chariot::eval::nnue::features::Features;
use chariot::tools::nnue::{datagen, train};
use std::path::PathBuf;

/// Arguments of `chariot datagen`.
#[derive(clap::Args, Debug, Clone)]
pub struct DatagenArgs {
    /// The data file to write (created, or appended to with `--append`).
    #[arg(long, short)]
    pub output: PathBuf,
    /// Node budget per move.
    #[arg(long, default_value_t = 5000)]
    pub nodes: u64,
    /// Worker threads (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Stop after this many games.
    #[arg(long)]
    pub games: Option<u64>,
    /// Stop once this many positions are written.
    #[arg(long)]
    pub positions: Option<u64>,
    /// Seed of game 0; game `i` uses a generator seeded from the seed and `i`.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Random legal plies played after the opening line.
    #[arg(long, default_value_t = 4)]
    pub random_plies: usize,
    /// Draw each random ply among the five best moves of a search (at four times --nodes)
    /// that score within this many centipawns of the best (0: uniform among legal moves).
    #[arg(long, default_value_t = 0)]
    pub book_margin: i32,
    /// Openings file (default: the built-in openings).
    #[arg(long)]
    pub openings: Option<PathBuf>,
    /// Keep a start only if its search score at the node budget is within this many
    /// centipawns of level (0: keep every start).
    #[arg(long, default_value_t = 0)]
    pub balance: i32,
    /// Adjudicate a win once |score| exceeds this for six plies in a row (0: never).
    #[arg(long, default_value_t = 2500)]
    pub adjudicate: i32,
    /// Hash table per thread, MiB.
    #[arg(long, default_value_t = 4)]
    pub hash: usize,
    /// Append to the output file instead of replacing it.
    #[arg(long)]
    pub append: bool,
    /// Play with the embedded network instead of the classical evaluation.
    #[arg(long)]
    pub nnue: bool,
    /// Play with this network file (implies `--nnue`).
    #[arg(long)]
    pub eval_file: Option<PathBuf>,
    /// Label the positions of these games (PGN, e.g. from `chariot match`) instead of playing
    /// self-play games: each position searched at `--nodes`, with the game's recorded result.
    #[arg(long, num_args = 1..)]
    pub pgn: Vec<PathBuf>,
    /// Check the words and read the openings, games and network, then exit without writing
    /// anything (exit 0 if the run would start).
    #[arg(long)]
    pub check: bool,
}

impl From<DatagenArgs> for datagen::Config {
    fn from(a: DatagenArgs) -> datagen::Config {
        datagen::Config {
            output: a.output,
            nodes: a.nodes,
            threads: a.threads,
            games: a.games,
            positions: a.positions,
            seed: a.seed,
            random_plies: a.random_plies,
            book_margin: a.book_margin,
            openings: a.openings,
            balance: a.balance,
            adjudicate: a.adjudicate,
            hash: a.hash,
            append: a.append,
            nnue: a.nnue,
            eval_file: a.eval_file,
            pgn: a.pgn,
        }
    }
}

/// Arguments of `chariot train`.
#[derive(clap::Args, Debug, Clone)]
pub struct TrainArgs {
    /// Data files written by `chariot datagen`.
    #[arg(required = true)]
    pub data: Vec<PathBuf>,
    /// The network file to write (the best epoch's).
    #[arg(long, short)]
    pub output: PathBuf,
    /// Input features: `plain` (piece, colour, square: 1260; the default), `king` (the same
    /// per bucket of the side's own general: 7560), `threats` (`king` and the attacks on
    /// enemy pieces: 16380) or `threat-kinds` (`king` and the attacks by kind alone: 7658).
    /// With `--init`, the file's by default; a plain file grows into `king`, a `king` file
    /// into `threats` or `threat-kinds`.
    #[arg(long, value_parser = parse_features)]
    pub features: Option<Features>,
    /// Hidden neurons per perspective, a multiple of 16 [default: 256, or with `--init` the
    /// file's; a larger one widens the file's network, which still evaluates as before].
    #[arg(long)]
    pub hidden: Option<usize>,
    /// Output buckets by piece count, 1 to 16 [default: 1, or with `--init` the file's; a
    /// one-bucket file splits into more, each a copy of it].
    #[arg(long)]
    pub buckets: Option<usize>,
    /// Passes over the training data.
    #[arg(long, default_value_t = 20)]
    pub epochs: usize,
    /// Positions per mini-batch.
    #[arg(long, default_value_t = 16384)]
    pub batch: usize,
    /// Initial learning rate (cosine decay to `--lr-floor` of it).
    #[arg(long, default_value_t = 0.001)]
    pub lr: f32,
    /// Initial learning rate of the threat inputs' rows [default: `--lr`]; they follow the
    /// same schedule. Rows that start at zero (a file grown into `threats`) may want more.
    #[arg(long)]
    pub threat_lr: Option<f32>,
    /// Threat rows reach only their first N lanes (a multiple of 16), the rest kept zero: the
    /// engine's threat updates and threat accumulators are then N lanes long [default: all].
    #[arg(long)]
    pub threat_width: Option<usize>,
    /// Final learning rate as a share of the initial one.
    #[arg(long, default_value_t = 0.05)]
    pub lr_floor: f32,
    /// Weight of the game result in the target (the rest: the search score's win probability).
    #[arg(long, default_value_t = 0.25)]
    pub wdl: f32,
    /// Score scale K of sigmoid(score / K), centipawns.
    #[arg(long, default_value_t = 400.0)]
    pub k: f32,
    /// Held-out share of each file (its last positions).
    #[arg(long, default_value_t = 0.05)]
    pub validation: f64,
    /// Seed of the initial weights and of the shuffles.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Start from this network file's weights instead of random ones (training goes on from
    /// it, grown into `--features`, `--hidden` and `--buckets` when they are given).
    #[arg(long)]
    pub init: Option<PathBuf>,
    /// Write the training state (model, optimiser, epoch) to this file after every epoch.
    #[arg(long)]
    pub checkpoint: Option<PathBuf>,
    /// Go on from a checkpoint written by `--checkpoint` (same data and arguments).
    #[arg(long)]
    pub resume: Option<PathBuf>,
    /// Stop after this many epochs of this run; the learning-rate schedule stays that of
    /// `--epochs`, so `--resume` later ends where one run would have.
    #[arg(long)]
    pub stop_after: Option<usize>,
    /// Worker threads (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Do not add the left-right mirror image of each training position.
    #[arg(long)]
    pub no_mirror: bool,
    /// No progress bar or per-epoch lines on stderr.
    #[arg(long)]
    pub quiet: bool,
}

impl From<TrainArgs> for train::Config {
    fn from(a: TrainArgs) -> train::Config {
        train::Config {
            data: a.data,
            output: a.output,
            features: a.features,
            hidden: a.hidden,
            buckets: a.buckets,
            epochs: a.epochs,
            batch: a.batch,
            lr: a.lr,
            threat_lr: a.threat_lr,
            threat_width: a.threat_width,
            lr_floor: a.lr_floor,
            wdl: a.wdl,
            k: a.k,
            validation: a.validation,
            seed: a.seed,
            init: a.init,
            checkpoint: a.checkpoint,
            resume: a.resume,
            stop_after: a.stop_after,
            threads: a.threads,
            no_mirror: a.no_mirror,
            quiet: a.quiet,
        }
    }
}

/// A feature set by its command-line name.
fn parse_features(s: &str) -> Result<Features, String> {
    Features::ALL
        .into_iter()
        .find(|f| f.name() == s)
        .ok_or_else(|| {
            let names: Vec<&str> = Features::ALL.iter().map(|f| f.name()).collect();
            format!("unknown feature set '{s}' (one of: {})", names.join(", "))
        })
}
