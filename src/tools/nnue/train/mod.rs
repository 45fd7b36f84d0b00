//! `chariot train`: trains the evaluation network on the CPU from `chariot datagen` files.
//!
//! The model (`model`) is the engine's architecture in f32. Each position's target blends the
//! win probability of its search score, `sigmoid(score / K)`, with the game's result
//! (`--wdl` is the result's weight); the loss is the squared error of the predicted win
//! probability. Adam (`optimiser`) with a cosine learning-rate schedule works through shuffled
//! mini-batches whose gradients are computed in parallel (rayon); the last `--validation` share
//! of each file is held out (whole games, since files hold games one after the other) and its
//! loss reported after every epoch. Each training position also serves mirrored left to right
//! (the rules are symmetric), which doubles the data for nothing. The quantized network of the epoch with the lowest
//! validation loss is written to `--output`.

pub mod checkpoint;
pub mod data;
pub mod model;
pub mod optimiser;

use crate::eval::nnue::features::Features;
use crate::eval::nnue::network::{MAX_BUCKETS, MAX_HIDDEN};
use crate::eval::nnue::{Network, NetworkError};
use crate::tools::nnue::record::RecordError;
use crate::tools::FileError;
use checkpoint::Checkpoint;
use data::Entry;
use model::{Model, Scratch, CLIP};
use optimiser::{cosine, Adam};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rayon::prelude::*;
use std::path::PathBuf;
use std::time::Instant;

/// What `train` learns from and how (the defaults are `chariot train`'s).
#[derive(Debug, Clone)]
pub struct Config {
    /// Data files written by `chariot datagen`.
    pub data: Vec<PathBuf>,
    /// The network file to write (the best epoch's).
    pub output: PathBuf,
    /// The input features (default: plain, or with `init` the file's; a plain file grows into
    /// king buckets, a king-bucket file into threats, when they are asked for).
    pub features: Option<Features>,
    /// Hidden neurons per perspective, a multiple of 16 (default: 256, or with `init` the
    /// file's; a larger one widens the file's network).
    pub hidden: Option<usize>,
    /// Output buckets by piece count, 1 to 16 (default: 1, or with `init` the file's; a
    /// one-bucket file can be split into more).
    pub buckets: Option<usize>,
    /// Passes over the training data.
    pub epochs: usize,
    /// Positions per mini-batch.
    pub batch: usize,
    /// Initial learning rate (cosine decay to `--lr-floor` of it).
    pub lr: f32,
    /// Initial learning rate of the threat inputs' rows (default: `lr`); the same schedule.
    pub threat_lr: Option<f32>,
    /// Threat rows reach only their first this many lanes (a multiple of 16; default: all),
    /// the rest kept zero, so that the engine's threat accumulators are this short.
    pub threat_width: Option<usize>,
    /// Final learning rate as a share of the initial one.
    pub lr_floor: f32,
    /// Weight of the game result in the target (the rest: the search score's win probability).
    pub wdl: f32,
    /// Score scale K of sigmoid(score / K), centipawns.
    pub k: f32,
    /// Held-out share of each file (its last positions).
    pub validation: f64,
    /// Seed of the initial weights and of the shuffles.
    pub seed: u64,
    /// Start from this network file's weights instead of random ones (training goes on from
    /// it, grown into `features`, `hidden` and `buckets` when they are asked for).
    pub init: Option<PathBuf>,
    /// Write the training state here after every epoch.
    pub checkpoint: Option<PathBuf>,
    /// Go on from this checkpoint (its model, optimiser and epoch; `init` is then ignored).
    pub resume: Option<PathBuf>,
    /// Stop after this many epochs of this run (the schedule stays that of `epochs`; go on
    /// later with `resume`).
    pub stop_after: Option<usize>,
    /// Worker threads (default: all cores).
    pub threads: Option<usize>,
    /// Do not add the left-right mirror image of each training position.
    pub no_mirror: bool,
    /// No progress bar or per-epoch lines on stderr.
    pub quiet: bool,
}

/// One epoch's numbers.
#[derive(Clone, Debug, PartialEq)]
pub struct Epoch {
    /// Mean training loss over the epoch.
    pub train: f64,
    /// Validation loss after the epoch.
    pub validation: f64,
    /// Seconds the epoch took.
    pub seconds: f64,
}

/// What a training run did.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// Training and validation positions.
    pub positions: (usize, usize),
    /// Validation loss of the initial weights.
    pub initial_validation: f64,
    /// Validation loss of the classical evaluation read as the network's output would be.
    pub classical_validation: f64,
    /// Every epoch.
    pub epochs: Vec<Epoch>,
    /// 1-based epoch written to the output (0: none improved on the initial weights, which
    /// were written).
    pub best: usize,
}

/// Mean loss of `model` over `entries` (parallel).
pub fn loss(model: &Model, entries: &[Entry], k: f32, wdl: f32) -> f64 {
    if entries.is_empty() {
        return 0.0;
    }
    let scale = model::SCALE as f32 / k;
    let total: f64 = entries
        .par_chunks(4096)
        .map(|chunk| {
            let mut s = Scratch::new(model.hidden);
            chunk
                .iter()
                .map(|e| {
                    let y = model.forward_entry(e, &mut s);
                    let p = 1.0 / (1.0 + (-y * scale).exp());
                    let d = (p - e.target(k, wdl)) as f64;
                    d * d
                })
                .sum::<f64>()
        })
        .sum();
    total / entries.len() as f64
}

/// Why training could not run.
#[derive(Debug, thiserror::Error)]
pub enum TrainError {
    /// A file that cannot be read or written.
    #[error(transparent)]
    File(#[from] FileError),
    /// A data file with a block that is not a record.
    #[error("{}: block {block}: {source}", path.display())]
    Record {
        /// The file.
        path: PathBuf,
        /// The block's index in the file.
        block: usize,
        /// Why.
        source: RecordError,
    },
    /// A network file (`--init`) that cannot be loaded.
    #[error("{}: {source}", path.display())]
    Network {
        /// The file.
        path: PathBuf,
        /// Why.
        source: NetworkError,
    },
    /// An `--init` network with another output scale than the trainer's.
    #[error("{}: another output scale", path.display())]
    Scale {
        /// The file.
        path: PathBuf,
    },
    /// An `--init` network whose inputs cannot become the ones asked for.
    #[error("{}: {found} features cannot become {wanted}", path.display())]
    Features {
        /// The file.
        path: PathBuf,
        /// Its feature set.
        found: &'static str,
        /// The one asked for.
        wanted: &'static str,
    },
    /// A checkpoint that could not be read.
    #[error("{}: {source}", path.display())]
    Checkpoint {
        /// The file.
        path: PathBuf,
        /// Why.
        source: checkpoint::CheckpointError,
    },
    /// A trained model that does not quantize into a network.
    #[error("quantizing: {0}")]
    Quantize(NetworkError),
    /// No positions to train on.
    #[error("no training positions")]
    NoData,
    /// A hidden size or bucket count out of range.
    #[error("--hidden must be a positive multiple of 16 and --buckets 1 to 16")]
    Shape,
    /// An `--init` network that cannot grow into the hidden size and buckets asked for.
    #[error("{}: H = {} with {} bucket(s) cannot become H = {} with {} (H only grows; only one bucket splits)", path.display(), found.0, found.1, wanted.0, wanted.1)]
    Grow {
        /// The file.
        path: PathBuf,
        /// Its hidden size and buckets.
        found: (usize, usize),
        /// The ones asked for.
        wanted: (usize, usize),
    },
    /// The worker threads could not be started.
    #[error("threads: {0}")]
    Threads(String),
}

/// Where a run starts: a checkpoint's state, or a fresh optimiser over `initial_model`.
fn start(args: &Config) -> Result<Checkpoint, TrainError> {
    let Some(p) = &args.resume else {
        let mut model = initial_model(args)?;
        model.narrow_threats(args.threat_width);
        let adam = Adam::new(model.params.len());
        return Ok(Checkpoint {
            model,
            adam,
            epochs_done: 0,
            best: f64::INFINITY,
            best_epoch: 0,
        });
    };
    let bytes = std::fs::read(p).map_err(|e| FileError::new(p, e))?;
    Checkpoint::from_bytes(&bytes).map_err(|source| TrainError::Checkpoint {
        path: p.clone(),
        source,
    })
}

/// The model training starts from: `--init`'s network (grown into the features asked for) or
/// random weights.
fn initial_model(args: &Config) -> Result<Model, TrainError> {
    let Some(p) = &args.init else {
        let features = args.features.unwrap_or(Features::Plain);
        let (hidden, buckets) = (args.hidden.unwrap_or(256), args.buckets.unwrap_or(1));
        return Ok(Model::new(features, hidden, buckets, args.seed));
    };
    let net = Network::load(p).map_err(|source| TrainError::Network {
        path: p.clone(),
        source,
    })?;
    let model = Model::from_network(&net).ok_or_else(|| TrainError::Scale { path: p.clone() })?;
    let wanted = args.features.unwrap_or(net.features());
    let model = model
        .with_features(wanted)
        .ok_or_else(|| TrainError::Features {
            path: p.clone(),
            found: net.features().name(),
            wanted: wanted.name(),
        })?;
    let found = (model.hidden, model.buckets);
    let wanted = (
        args.hidden.unwrap_or(found.0),
        args.buckets.unwrap_or(found.1),
    );
    model
        .widened(wanted.0, wanted.1, args.seed)
        .ok_or_else(|| TrainError::Grow {
            path: p.clone(),
            found,
            wanted,
        })
}

/// Trains on already loaded data (entries of the initial model's features); `save` receives the model of every new best epoch.
pub fn train(
    args: &Config,
    mut split: data::Split,
    mut save: impl FnMut(&Model) -> Result<(), TrainError>,
) -> Result<Report, TrainError> {
    check_shape(args, &split)?;
    let validation = std::mem::take(&mut split.validation);
    let entries = std::mem::take(&mut split.train);
    let Checkpoint {
        mut model,
        mut adam,
        epochs_done,
        best: resumed_best,
        best_epoch,
    } = start(args)?;
    let (k, wdl) = (args.k, args.wdl);
    let initial = loss(&model, &validation, k, wdl);
    let mut report = Report {
        positions: (entries.len(), validation.len()),
        initial_validation: initial,
        classical_validation: classical_loss(&validation, &split.classical, k, wdl),
        ..Default::default()
    };
    // A resumed run's best so far is already in the output.
    let mut best = if epochs_done > 0 {
        report.best = best_epoch;
        resumed_best
    } else {
        save(&model)?;
        if validation.is_empty() {
            f64::INFINITY
        } else {
            initial
        }
    };
    if !args.quiet {
        eprintln!(
            "train: {} positions, {} held out, {} features, H = {}, {} bucket(s), {} epochs of {} batches; validation loss: initial {initial:.6}, classical evaluation {:.6}",
            entries.len(),
            validation.len(),
            model.features.name(),
            model.hidden,
            model.buckets,
            args.epochs,
            entries.len().div_ceil(args.batch.max(1)),
            report.classical_validation,
        );
    }
    let last = args
        .stop_after
        .map_or(args.epochs, |n| (epochs_done + n).min(args.epochs));
    for epoch in epochs_done..last {
        let started = Instant::now();
        let total = run_epoch(args, epoch, &entries, &mut model, &mut adam);
        let v = loss(&model, &validation, k, wdl);
        let e = Epoch {
            train: total / entries.len() as f64,
            validation: v,
            seconds: started.elapsed().as_secs_f64(),
        };
        let improved = v < best || validation.is_empty();
        if !args.quiet {
            eprintln!(
                "epoch {}/{}: train loss {:.6}, validation loss {:.6}{}, {:.1} s",
                epoch + 1,
                args.epochs,
                e.train,
                e.validation,
                if improved { " (best, saved)" } else { "" },
                e.seconds
            );
        }
        if improved {
            best = v;
            report.best = epoch + 1;
            save(&model)?;
        }
        report.epochs.push(e);
        if let Some(p) = &args.checkpoint {
            let state = Checkpoint {
                model,
                adam,
                epochs_done: epoch + 1,
                best,
                best_epoch: report.best,
            };
            state.save(p).map_err(|e| FileError::new(p, e))?;
            (model, adam) = (state.model, state.adam);
        }
    }
    Ok(report)
}

/// Refuses a run with no data or a shape the format cannot hold.
fn check_shape(args: &Config, split: &data::Split) -> Result<(), TrainError> {
    if split.train.is_empty() {
        return Err(TrainError::NoData);
    }
    let bad_hidden = |h: usize| h == 0 || !h.is_multiple_of(16) || h > MAX_HIDDEN;
    let bad_width = |w: usize| !w.is_multiple_of(16) || w > args.hidden.unwrap_or(MAX_HIDDEN);
    if args.hidden.is_some_and(bad_hidden)
        || args.threat_width.is_some_and(bad_width)
        || args
            .buckets
            .is_some_and(|b| !(1..=MAX_BUCKETS).contains(&b))
    {
        return Err(TrainError::Shape);
    }
    Ok(())
}

/// The loss the classical evaluation (`classical`, one value per held-out entry) would have on
/// the held-out entries: the bar a network must pass.
fn classical_loss(validation: &[data::Entry], classical: &[i32], k: f32, wdl: f32) -> f64 {
    validation
        .iter()
        .zip(classical)
        .map(|(e, &v)| {
            let p = 1.0 / (1.0 + (-(v as f64) / k as f64).exp());
            let d = p - e.target(k, wdl) as f64;
            d * d
        })
        .sum::<f64>()
        / validation.len().max(1) as f64
}

/// One epoch over `entries` in an order of its own, a step of `adam` per batch, with a
/// progress bar. Returns the summed training loss.
fn run_epoch(
    args: &Config,
    epoch: usize,
    entries: &[data::Entry],
    model: &mut Model,
    adam: &mut Adam,
) -> f64 {
    let batch = args.batch.max(1);
    let batches = entries.len().div_ceil(batch);
    // Each epoch's order depends on the seed and the epoch alone, so a resumed run sees what
    // an uninterrupted one would.
    let mut rng = rand::rngs::StdRng::seed_from_u64(args.seed ^ 0x5EED ^ (epoch as u64) << 32);
    let mut order: Vec<u32> = (0..entries.len() as u32).collect();
    order.shuffle(&mut rng);
    let bar = epoch_bar(args, epoch, entries.len());
    let mut total = 0.0f64;
    for (b, chunk) in order.chunks(batch).enumerate() {
        let progress = (epoch * batches + b) as f32 / (args.epochs * batches) as f32;
        let lr = cosine(args.lr, args.lr_floor, progress);
        let threat_lr = cosine(args.threat_lr.unwrap_or(args.lr), args.lr_floor, progress);
        let (grad, sum) = gradient(model, entries, chunk, args.k, args.wdl);
        total += sum;
        let n = chunk.len() as f32;
        let grad: Vec<f32> = grad.into_iter().map(|g| g / n).collect();
        let clipped = model.clipped();
        let threats = model.threat_rows();
        let rates = [
            (threats.start, lr),
            (threats.end, threat_lr),
            (model.params.len(), lr),
        ];
        adam.step_with(&mut model.params, &grad, &rates, clipped, CLIP);
        model.narrow_threats(args.threat_width);
        bar.inc(chunk.len() as u64);
        bar.set_message(format!("loss {:.6}", sum / n as f64));
    }
    bar.finish_and_clear();
    total
}

/// The progress bar of one epoch (hidden when quiet).
fn epoch_bar(args: &Config, epoch: usize, positions: usize) -> indicatif::ProgressBar {
    let bar = if args.quiet {
        indicatif::ProgressBar::hidden()
    } else {
        indicatif::ProgressBar::new(positions as u64)
    };
    if let Ok(style) = indicatif::ProgressStyle::with_template(
        "epoch {prefix} [{bar:30}] {human_pos}/{human_len} positions, {per_sec}, ETA {eta}, {msg}",
    ) {
        bar.set_style(style.progress_chars("=> "));
    }
    bar.set_prefix(format!("{}/{}", epoch + 1, args.epochs));
    bar
}

/// The summed gradient and loss of the entries `chunk` names, shared out over the threads.
fn gradient(
    model: &Model,
    entries: &[data::Entry],
    chunk: &[u32],
    k: f32,
    wdl: f32,
) -> (Vec<f32>, f64) {
    let threads = rayon::current_num_threads().max(1);
    let per = chunk.len().div_ceil(threads);
    chunk
        .par_chunks(per.max(1))
        .map(|part| {
            let mut grad = vec![0.0f32; model.params.len()];
            let mut s = Scratch::new(model.hidden);
            let l: f64 = part
                .iter()
                .map(|&i| {
                    let e = &entries[i as usize];
                    model.backward(e, k, wdl, &mut s, &mut grad) as f64
                })
                .sum();
            (grad, l)
        })
        .reduce_with(|(mut g1, l1), (g2, l2)| {
            for (a, b) in g1.iter_mut().zip(&g2) {
                *a += b;
            }
            (g1, l1 + l2)
        })
        .unwrap_or_default()
}

/// Runs `chariot train`: loads the data, trains, writes the best network.
pub fn run(args: &Config) -> Result<Report, TrainError> {
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| TrainError::Threads(e.to_string()))?;
    pool.install(|| {
        start(args)?;
        let split = data::load(&args.data, args.validation, !args.no_mirror)?;
        let output = args.output.clone();
        train(args, split, |m| {
            let net = m.quantize().map_err(TrainError::Quantize)?;
            std::fs::write(&output, net.to_bytes()).map_err(|e| FileError::new(&output, e).into())
        })
    })
}
