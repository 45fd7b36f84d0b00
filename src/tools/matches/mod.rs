//! `chariot match`: games between two engine commands, refereed by the crate's own rules.
//!
//! Each worker thread (`--concurrency`) keeps its own pair of engine processes across games and
//! restarts one that crashed, hung or stopped answering. Game `i` plays opening `i / 2` with
//! engine 1 Red when `i` is even, so the assignment does not depend on timing. Finished games
//! go to the PGN file (with their game number as `Round`), a progress line per game on stderr,
//! and at the end a summary on stdout: W/D/L, score, Elo ± 95%, LOS, the ways games ended and,
//! with `--sprt`, the test's LLR and decision (the match stops as soon as it decides).
//!
//! Exit code: 0 after a match, 2 for bad arguments or an engine command that cannot be started.

pub mod engine;
pub mod game;
pub mod judge;
pub mod mates;
pub mod stats;
pub mod summary;

pub use crate::tools::openings::{Opening, OpeningsError, DEFAULT_OPENINGS};
pub use game::{Setup, TimeControl, TimeControlError};
pub use stats::{Sprt, SprtError};

use crate::tools::{pgn, FileError};
pub use engine::EngineSpec;
use engine::{Dialect, Engine, EngineError};
use game::{Engines, Finished};
use stats::{fmt_elo, Tally};
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};
pub use summary::{Summary, TallyError};

/// A match to play: the set-up every game shares, and how many games, how they are run and
/// where they are written.
#[derive(Debug, Clone)]
pub struct Config {
    /// The engines, limits, openings and rules of every game.
    pub setup: Setup,
    /// Number of games; each opening is played twice in a row, colours swapped.
    pub games: usize,
    /// The first game's index: the match plays games `first .. first + games` of a longer
    /// one, with their openings and colours (a slice played apart, e.g. on a cluster).
    pub first: usize,
    /// Games played at once, each with its own pair of engine processes.
    pub concurrency: usize,
    /// The PGN file to write the games to.
    pub pgn: Option<PathBuf>,
    /// The PGN `Event` tag.
    pub event: String,
    /// The sequential test that may end the match early.
    pub sprt: Option<Sprt>,
}

/// Why a match could not be set up or run; `Display` is the message before exit code 2.
#[derive(Debug, thiserror::Error)]
pub enum MatchError {
    /// A `--dialect1`/`--dialect2` value other than auto, uci or ucci.
    #[error("bad dialect '{0}': auto, uci or ucci")]
    Dialect(String),
    /// An `--option1`/`--option2` value with an empty name.
    #[error("bad option '{0}': expected NAME=VALUE or NAME")]
    Option(String),
    /// The limit per move (`--depth`, `--nodes`, `--movetime`, `--tc`).
    #[error(transparent)]
    TimeControl(#[from] TimeControlError),
    /// The `--sprt` spec.
    #[error(transparent)]
    Sprt(#[from] SprtError),
    /// The openings.
    #[error(transparent)]
    Openings(#[from] OpeningsError),
    /// A file (openings, PGN) that cannot be read or written.
    #[error(transparent)]
    File(#[from] FileError),
    /// An engine command that cannot be started.
    #[error("engine {engine}: {why}")]
    Spawn {
        /// 1 or 2.
        engine: usize,
        /// Why, as the process launcher said.
        why: String,
    },
}

/// An engine's dialect from `auto` (`None`: UCI tried first, then UCCI), `uci` or `ucci`.
pub fn parse_dialect(s: &str) -> Result<Option<Dialect>, MatchError> {
    match s.to_ascii_lowercase().as_str() {
        "auto" => Ok(None),
        "uci" => Ok(Some(Dialect::Uci)),
        "ucci" => Ok(Some(Dialect::Ucci)),
        _ => Err(MatchError::Dialect(s.to_string())),
    }
}

/// Engine options from `NAME=VALUE` words (`NAME` alone for a button).
pub fn parse_options(v: &[String]) -> Result<Vec<(String, String)>, MatchError> {
    v.iter()
        .map(|o| {
            let (k, v) = o.split_once('=').unwrap_or((o.as_str(), ""));
            if k.trim().is_empty() {
                Err(MatchError::Option(o.clone()))
            } else {
                Ok((k.trim().to_string(), v.trim().to_string()))
            }
        })
        .collect()
}

fn date() -> String {
    // Days since the epoch to a civil date (proleptic Gregorian).
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let z = (secs / 86_400) as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}.{m:02}.{d:02}")
}

/// Starts both engines once before the match: a command that cannot be started is an error
/// (exit 2); an engine that fails its handshake only loses its games. Returns the engines for
/// the first worker and the names to show.
fn probe(setup: &Setup) -> Result<(Engines, [String; 2]), MatchError> {
    let mut engines: Engines = [None, None];
    let mut names: [String; 2] = Default::default();
    for (i, spec) in setup.specs.iter().enumerate() {
        names[i] = spec.name.clone().unwrap_or_else(|| spec.command.clone());
        match Engine::start(spec, setup.handshake) {
            Ok(e) => {
                eprintln!(
                    "engine {}: {} ({}, {}) at {}",
                    i + 1,
                    e.name,
                    e.dialect,
                    spec.command,
                    setup.controls[i]
                );
                names[i] = e.name.clone();
                engines[i] = Some(e);
            }
            Err(EngineError::Spawn(why)) => {
                return Err(MatchError::Spawn { engine: i + 1, why });
            }
            Err(e) => eprintln!(
                "engine {}: {e} ({}); it loses its games",
                i + 1,
                spec.command
            ),
        }
    }
    if names[0] == names[1] {
        names[0].push_str(" (1)");
        names[1].push_str(" (2)");
    }
    Ok((engines, names))
}

/// Checks a match without playing it: the set-up was already parsed into `setup`; this starts
/// both engines once and quits them. Returns the engines' names.
pub fn check(setup: &Setup) -> Result<[String; 2], MatchError> {
    let (engines, names) = probe(setup)?;
    for e in engines.into_iter().flatten() {
        e.quit();
    }
    Ok(names)
}

/// Plays a match: progress on stderr; returns the summary's closing lines.
pub fn run(config: Config) -> Result<String, MatchError> {
    let Config {
        mut setup,
        games,
        first: first_game,
        concurrency,
        pgn,
        event,
        sprt,
    } = config;
    let mut pgn_file = match &pgn {
        Some(p) => Some(std::fs::File::create(p).map_err(|e| FileError::new(p, e))?),
        None => None,
    };
    let (first, names) = probe(&setup)?;
    // The names shown in the summary are the names in every game record too.
    for (spec, name) in setup.specs.iter_mut().zip(&names) {
        spec.name = Some(name.clone());
    }
    let setup = Arc::new(setup);
    let total = games.max(1);
    let workers = concurrency.clamp(1, 64).min(total);
    let stop = Arc::new(AtomicBool::new(false));
    let (tx, rx) = mpsc::channel::<Finished>();
    let games = first_game..first_game + total;
    let handles = spawn_workers(&setup, workers, games, first, &stop, &tx);
    drop(tx);
    let mut summary = Summary::default();
    let today = date();
    let mut decision = None;
    let terminal = std::io::stderr().is_terminal();
    for f in rx {
        let r = &f.record;
        summary.add(f.score, summary::ending(&r.termination, &r.red, &r.black));
        if let Some(file) = pgn_file.as_mut() {
            let text = pgn::write(r, &event, &today);
            let _ = file.write_all(text.as_bytes()).and_then(|_| file.flush());
        }
        let mut line = progress_line(&f, &summary.tally, total);
        if let Some(sp) = &sprt {
            let (lo, hi) = sp.bounds();
            let llr = summary.tally.llr(sp);
            line.push_str(&format!(" LLR {llr:.2} ({lo:.2}, {hi:.2})"));
            if decision.is_none() {
                decision = summary.decide(sp);
                if decision.is_some() {
                    stop.store(true, Ordering::SeqCst);
                }
            }
        }
        if terminal {
            // Keep the screen readable: clear the rest of the line.
            eprintln!("{line}\x1b[K");
        } else {
            eprintln!("{line}");
        }
    }
    for h in handles {
        let _ = h.join();
    }
    Ok(summary.lines(&names, sprt.as_ref().map(|sp| (sp, decision))))
}

/// Starts `workers` threads that play the games `games` (the first worker with the engines the
/// probe started), each game sent on `tx`, until the games run out or `stop` is set.
fn spawn_workers(
    setup: &Arc<Setup>,
    workers: usize,
    games: std::ops::Range<usize>,
    first: Engines,
    stop: &Arc<AtomicBool>,
    tx: &mpsc::Sender<Finished>,
) -> Vec<std::thread::JoinHandle<()>> {
    let next = Arc::new(AtomicUsize::new(games.start));
    let mut first = Some(first);
    (0..workers)
        .map(|_| {
            let (setup, next, stop, tx) = (
                Arc::clone(setup),
                Arc::clone(&next),
                Arc::clone(stop),
                tx.clone(),
            );
            let mut engines: Engines = first.take().unwrap_or_default();
            let end = games.end;
            std::thread::spawn(move || {
                while !stop.load(Ordering::SeqCst) {
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    if i >= end {
                        break;
                    }
                    let Some(f) = game::play(&setup, i, &mut engines, &stop) else {
                        break;
                    };
                    if tx.send(f).is_err() {
                        break;
                    }
                }
                for e in engines.into_iter().flatten() {
                    e.quit();
                }
            })
        })
        .collect()
}

/// A finished game's line on stderr: the game, the result, and the tally of `total` so far.
fn progress_line(f: &Finished, tally: &Tally, total: usize) -> String {
    let r = &f.record;
    let (elo, err) = tally.elo();
    format!(
        "game {} ({} of {}): {} vs {} {} ({}) | W/D/L {}/{}/{} score {:.3} Elo {} +/- {}",
        f.index + 1,
        tally.games(),
        total,
        r.red,
        r.black,
        r.result,
        r.termination,
        tally.wins,
        tally.draws,
        tally.losses,
        tally.score(),
        fmt_elo(elo),
        fmt_elo(err)
    )
}
