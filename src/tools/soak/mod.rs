//! `chariot soak`: self-play under a restless GUI. Two engine processes play game after game at
//! a short clock while the driver changes their options at random moments, between moves and in
//! the middle of searches (`Threads` 1↔2, `Hash`, `MultiPV`, `Ponder` with `go ponder` /
//! `ponderhit` / `stop`, `Skill Level`, `UCI_LimitStrength`, `Clear Hash`, `UCI_ShowWDL`,
//! `EvalFile` and `Use NNUE`), in either dialect and either `setoption` syntax.
//!
//! Everything the engine says is checked: every `isready` is answered within a deadline (also
//! in mid-search), every move is legal (the crate's referee, `board::Game`) and so is every
//! `ponder` move, no side oversteps its clock, `info` lines carry `wdl` exactly when
//! `UCI_ShowWDL` was on at `go`, no more `multipv` lines than asked at full strength, `eval`
//! reports the network the options chose (a bad `EvalFile` is refused with an `info string` and
//! the network in use stays; an empty one brings back the built-in network), output is ASCII,
//! and after every game each process is alive, answers `isready` and stays within `Hash` plus
//! a slack of resident memory (`VmRSS`; `VmHWM` against the largest `Hash` it had; on Windows the
//! working set and its peak; elsewhere memory is not checked). A process
//! restarted between games must leave within 500 ms of `quit` (with `bye` in UCCI).
//!
//! The driver's choices come from a seeded generator, one stream per game (`seed`, game
//! number), so a run can be repeated; the engines' moves depend on timing, so games differ.
//! The `eval` check compares the engine's network value with the driver's own evaluation: the
//! engine must be this build. A fault ends its game (counted as abandoned) and both processes
//! are replaced.

//!
//! One file per job: `config` (what a run is asked to do), `deck` (the option changes and the
//! engine options they set), `report` (what a run counted, merged from its games), `engine`
//! (one process as the driver sees it, on the shared `tools::process::Process`), `toggle` (one
//! option change and its checks), `game` (the game loop); the run and its workers are here.

mod config;
mod deck;
mod engine;
mod game;
mod report;
mod toggle;

pub use config::Config;
pub use deck::Toggle;
pub use engine::Fault;
pub use game::AnswerError;
pub use report::Report;

use crate::eval::nnue::{default_network, Network};
use crate::protocol::Dialect;
use crate::tools::matches::engine::split_command;
use crate::tools::openings::{self, Opening, DEFAULT_OPENINGS};
use engine::Proc;
use game::Pair;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// Why a soak could not start.
#[derive(Debug, thiserror::Error)]
pub enum SoakError {
    /// The engine command line is empty or cannot be split.
    #[error("bad engine command: {0}")]
    Command(String),
    /// The engine cannot be started at all.
    #[error("engine cannot be started: {0}")]
    Spawn(Fault),
    /// The other network file cannot be written.
    #[error("cannot write the network file {}: {source}", path.display())]
    Network {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The other network file cannot be read.
    #[error(transparent)]
    Load(#[from] crate::eval::nnue::NetworkError),
}

/// What the driver shares between workers.
struct Shared {
    cfg: Config,
    program: Vec<String>,
    openings: Vec<Opening>,
    /// The built-in network and the other one.
    nets: [Arc<Network>; 2],
    other_path: String,
    /// A file that exists but is not a network (the engine program itself).
    not_a_network: String,
}

/// The built-in network with every output bias shifted: evaluates differently, loads fine.
pub fn shifted_network() -> Network {
    let net = default_network();
    let (qa, qb, scale) = net.scales();
    let (out_weights, out_bias) = net.output_layer();
    let shift = i32::from(qa) * i32::from(qb);
    Network::from_parts(
        net.features(),
        net.hidden(),
        net.buckets(),
        (qa, qb, scale),
        net.ft_weights().to_vec(),
        net.ft_bias().to_vec(),
        out_weights.to_vec(),
        out_bias.iter().map(|b| b + shift).collect(),
    )
    .unwrap_or_else(|_| (*net).clone())
}

/// Runs the soak and returns what it counted; faults are in the report, not errors.
pub fn run(cfg: &Config) -> Result<Report, SoakError> {
    let program = split_command(&cfg.engine).map_err(|e| SoakError::Command(e.to_string()))?;
    if program.is_empty() {
        return Err(SoakError::Command("empty".into()));
    }
    let (other_path, other, written) = match &cfg.eval_file {
        Some(p) => (p.clone(), Network::load(std::path::Path::new(p))?, None),
        None => {
            let (path, net) = write_other()?;
            (path.display().to_string(), net, Some(path))
        }
    };
    let shared = Shared {
        cfg: cfg.clone(),
        not_a_network: program[0].clone(),
        program,
        openings: openings::parse(DEFAULT_OPENINGS).unwrap_or_default(),
        nets: [default_network(), Arc::new(other)],
        other_path,
    };
    // One engine start up front: a command that cannot run stops the soak at once.
    let first = Proc::start(&shared, Dialect::Uci, &mut Report::default());
    let total = match first {
        Ok(p) => {
            drop(p);
            Ok(workers(&shared))
        }
        Err(e) => Err(SoakError::Spawn(e)),
    };
    if let Some(p) = written {
        let _ = std::fs::remove_file(p);
    }
    total
}

/// Writes the shifted network (`shifted_network`) to the temporary directory, one file per
/// run: runs in one process (tests) must not rewrite or delete each other's file while an
/// engine loads it.
fn write_other() -> Result<(PathBuf, Network), SoakError> {
    static RUNS: AtomicU64 = AtomicU64::new(0);
    let net = shifted_network();
    let run = RUNS.fetch_add(1, Ordering::Relaxed);
    let path = std::env::temp_dir().join(format!("chariot-soak-{}-{run}.nnue", std::process::id()));
    match std::fs::write(&path, net.to_bytes()) {
        Ok(()) => Ok((path, net)),
        Err(source) => Err(SoakError::Network { path, source }),
    }
}

/// Plays every game on `Config::concurrency` workers, each with its own pair of processes,
/// and merges their reports.
fn workers(shared: &Shared) -> Report {
    let cfg = &shared.cfg;
    let next = AtomicUsize::new(0);
    let total = Mutex::new(Report::default());
    std::thread::scope(|s| {
        for _ in 0..cfg.concurrency.max(1) {
            s.spawn(|| {
                // Dropped (and so killed) when the worker has no more games.
                let mut procs: Option<Pair> = None;
                loop {
                    let index = next.fetch_add(1, Ordering::SeqCst);
                    if index >= cfg.games {
                        break;
                    }
                    let mut rep = Report::default();
                    game::game(shared, index, &mut procs, &mut rep);
                    if cfg.progress {
                        let t = total.lock().map(|t| t.faults.len()).unwrap_or(0);
                        progress(index, &rep, t);
                    }
                    if let Ok(mut t) = total.lock() {
                        t.merge(&rep);
                    }
                }
            });
        }
    });
    total.into_inner().unwrap_or_else(|e| e.into_inner())
}

/// One line on stderr for game `index`, and its faults; `faults` were found before it.
fn progress(index: usize, rep: &Report, faults: usize) {
    eprintln!(
        "game {}: {} | moves {}, toggles {}, isready {}/{} | faults {}",
        index + 1,
        rep.endings
            .keys()
            .next()
            .map_or("abandoned", |s| s.as_str()),
        rep.plies,
        rep.total_toggles(),
        rep.isready_answered,
        rep.isready_sent,
        faults + rep.faults.len()
    );
    for f in &rep.faults {
        eprintln!("  fault: {f}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Position;
    use crate::eval::nnue::accumulator;

    #[test]
    fn the_shifted_network_evaluates_differently() {
        let other = Arc::new(shifted_network());
        let pos = Position::startpos();
        assert_ne!(
            accumulator::evaluate(&other, &pos),
            accumulator::evaluate(&default_network(), &pos)
        );
        let back = Network::from_bytes(&other.to_bytes()).expect("loads");
        assert_eq!(back, *other);
    }
}
