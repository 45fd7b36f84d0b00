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
pub mod stats;

pub use crate::tools::openings::{Opening, OpeningsError, DEFAULT_OPENINGS};
pub use game::{Setup, TimeControl, TimeControlError};
pub use stats::SprtError;

use crate::tools::pgn;
use engine::{Dialect, Engine, EngineError, EngineSpec};
use game::{Engines, Finished};
use stats::{fmt_elo, Decision, Sprt, Tally};
use std::collections::BTreeMap;
use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc, Mutex};

/// Arguments of `chariot match`.
#[derive(clap::Args, Debug, Clone)]
pub struct MatchArgs {
    /// First engine's command line, quotes allowed (default: this program).
    #[arg(long)]
    pub engine1: Option<String>,
    /// Second engine's command line, quotes allowed (default: this program).
    #[arg(long)]
    pub engine2: Option<String>,
    /// First engine's display name (default: its `id name`).
    #[arg(long)]
    pub name1: Option<String>,
    /// Second engine's display name (default: its `id name`).
    #[arg(long)]
    pub name2: Option<String>,
    /// First engine's working directory.
    #[arg(long)]
    pub dir1: Option<String>,
    /// Second engine's working directory.
    #[arg(long)]
    pub dir2: Option<String>,
    /// First engine's dialect: auto (UCI tried first, then UCCI), uci or ucci.
    #[arg(long, default_value = "auto")]
    pub dialect1: String,
    /// Second engine's dialect: auto (UCI tried first, then UCCI), uci or ucci.
    #[arg(long, default_value = "auto")]
    pub dialect2: String,
    /// An option for engine 1 as NAME=VALUE, or NAME for a button (repeatable).
    #[arg(long)]
    pub option1: Vec<String>,
    /// An option for engine 2 as NAME=VALUE, or NAME for a button (repeatable).
    #[arg(long)]
    pub option2: Vec<String>,
    /// Number of games; each opening is played twice in a row, colours swapped.
    #[arg(long, default_value_t = 2)]
    pub games: usize,
    /// Fixed depth per move.
    #[arg(long)]
    pub depth: Option<u32>,
    /// Fixed nodes per move.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Fixed time per move in milliseconds.
    #[arg(long)]
    pub movetime: Option<u64>,
    /// Clocks: [MOVES/]BASE[+INC] in seconds, e.g. 10+0.1 or 40/60 (default limit: --depth 4).
    #[arg(long)]
    pub tc: Option<String>,
    /// Games played at once, each with its own pair of engine processes.
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// Openings file: FENs (optionally with `moves …`) or ICCS move sequences, one per line
    /// (default: the built-in set of about 100).
    #[arg(long)]
    pub openings: Option<String>,
    /// Write the games to this PGN file.
    #[arg(long)]
    pub pgn: Option<String>,
    /// PGN Event tag.
    #[arg(long, default_value = "chariot match")]
    pub event: String,
    /// SPRT: ELO0,ELO1[,ALPHA,BETA] (alpha, beta default 0.05); stops as soon as it decides.
    #[arg(long)]
    pub sprt: Option<String>,
    /// Longest game in plies, opening included, before a draw is declared.
    #[arg(long, default_value_t = 400)]
    pub maxplies: usize,
    /// Grace in ms beyond the clock (or --movetime) before a move forfeits on time.
    #[arg(long, visible_alias = "timemargin", default_value_t = 200)]
    pub margin: u64,
    /// Longest wait in ms for a move under --depth or --nodes (a hang beyond it loses).
    #[arg(long, default_value_t = 60_000)]
    pub timeout: u64,
    /// Longest wait in ms for a handshake, `isready` or new game (per dialect tried).
    #[arg(long, default_value_t = 3_000)]
    pub handshake: u64,
    /// An engine answering without a move while it has legal moves claims a draw: accepted
    /// after this many plies without a capture (ElephantEye's rule is 100), else a loss;
    /// 0 makes every such answer a loss.
    #[arg(long, default_value_t = 100)]
    pub claim: u16,
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
    /// The openings file cannot be read.
    #[error("cannot read {path}: {source}")]
    Read {
        /// The file as given.
        path: String,
        /// Why.
        source: std::io::Error,
    },
    /// The PGN file cannot be created.
    #[error("cannot write {path}: {source}")]
    Write {
        /// The file as given.
        path: String,
        /// Why.
        source: std::io::Error,
    },
    /// An engine command that cannot be started.
    #[error("engine {engine}: {why}")]
    Spawn {
        /// 1 or 2.
        engine: usize,
        /// Why, as the process launcher said.
        why: String,
    },
}

fn parse_dialect(s: &str) -> Result<Option<Dialect>, MatchError> {
    match s.to_ascii_lowercase().as_str() {
        "auto" => Ok(None),
        "uci" => Ok(Some(Dialect::Uci)),
        "ucci" => Ok(Some(Dialect::Ucci)),
        _ => Err(MatchError::Dialect(s.to_string())),
    }
}

fn parse_options(v: &[String]) -> Result<Vec<(String, String)>, MatchError> {
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

fn control(args: &MatchArgs) -> Result<TimeControl, TimeControlError> {
    match (args.depth, args.nodes, args.movetime, &args.tc) {
        (Some(d), None, None, None) => Ok(TimeControl::Depth(d.max(1))),
        (None, Some(n), None, None) => Ok(TimeControl::Nodes(n.max(1))),
        (None, None, Some(t), None) => Ok(TimeControl::MoveTime(t.max(1))),
        (None, None, None, Some(tc)) => TimeControl::parse_tc(tc),
        (None, None, None, None) => Ok(TimeControl::Depth(4)),
        _ => Err(TimeControlError::Conflict),
    }
}

/// Builds the match set-up from the arguments (engines default to this program).
pub fn setup(args: &MatchArgs) -> Result<Setup, MatchError> {
    let me = std::env::current_exe()
        .map(|p| p.to_string_lossy().into_owned())
        .map(|p| {
            if p.contains(char::is_whitespace) {
                format!("'{p}'")
            } else {
                p
            }
        })
        .unwrap_or_else(|_| "chariot".into());
    let spec = |cmd: &Option<String>,
                name: &Option<String>,
                dir: &Option<String>,
                d: &str,
                o: &[String]| {
        Ok::<_, MatchError>(EngineSpec {
            command: cmd.clone().unwrap_or_else(|| me.clone()),
            dir: dir.clone(),
            dialect: parse_dialect(d)?,
            options: parse_options(o)?,
            name: name.clone(),
        })
    };
    let text = match &args.openings {
        Some(path) => std::fs::read_to_string(path).map_err(|source| MatchError::Read {
            path: path.clone(),
            source,
        })?,
        None => DEFAULT_OPENINGS.to_string(),
    };
    Ok(Setup {
        specs: [
            spec(
                &args.engine1,
                &args.name1,
                &args.dir1,
                &args.dialect1,
                &args.option1,
            )?,
            spec(
                &args.engine2,
                &args.name2,
                &args.dir2,
                &args.dialect2,
                &args.option2,
            )?,
        ],
        control: control(args)?,
        openings: crate::tools::openings::parse(&text)?,
        maxplies: args.maxplies.max(1),
        margin: args.margin,
        timeout: args.timeout.max(1),
        handshake: args.handshake.max(1),
        claim: args.claim,
    })
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
                    "engine {}: {} ({}, {})",
                    i + 1,
                    e.name,
                    e.dialect,
                    spec.command
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

/// A game's ending for the summary: the reason without its details, with the engine's name
/// instead of its colour (`ElephantEye resigned`, `checkmate`).
fn ending(r: &pgn::Record) -> String {
    let why = r.termination.split(" (").next().unwrap_or("");
    if let Some(rest) = why.strip_prefix("red ") {
        format!("{} {rest}", r.red)
    } else if let Some(rest) = why.strip_prefix("black ") {
        format!("{} {rest}", r.black)
    } else {
        why.to_string()
    }
}

/// Runs a match; returns the process exit code.
pub fn run(args: &MatchArgs) -> i32 {
    match run_inner(args) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("error: {e}");
            2
        }
    }
}

fn run_inner(args: &MatchArgs) -> Result<(), MatchError> {
    let mut setup = setup(args)?;
    let sprt = args.sprt.as_deref().map(Sprt::parse).transpose()?;
    let mut pgn_file = match &args.pgn {
        Some(p) => Some(
            std::fs::File::create(p).map_err(|source| MatchError::Write {
                path: p.clone(),
                source,
            })?,
        ),
        None => None,
    };
    let (first, names) = probe(&setup)?;
    // The names shown in the summary are the names in every game record too.
    for (spec, name) in setup.specs.iter_mut().zip(&names) {
        spec.name = Some(name.clone());
    }
    let setup = Arc::new(setup);
    let total = args.games.max(1);
    let workers = args.concurrency.clamp(1, 64).min(total);
    let next = Arc::new(AtomicUsize::new(0));
    let stop = Arc::new(AtomicBool::new(false));
    let (tx, rx) = mpsc::channel::<Finished>();
    let first = Mutex::new(Some(first));
    let handles: Vec<_> = (0..workers)
        .map(|w| {
            let (setup, next, stop, tx) = (
                Arc::clone(&setup),
                Arc::clone(&next),
                Arc::clone(&stop),
                tx.clone(),
            );
            let mut engines: Engines = if w == 0 {
                first
                    .lock()
                    .ok()
                    .and_then(|mut f| f.take())
                    .unwrap_or_default()
            } else {
                [None, None]
            };
            std::thread::spawn(move || {
                loop {
                    if stop.load(Ordering::SeqCst) {
                        break;
                    }
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    if i >= total {
                        break;
                    }
                    match game::play(&setup, i, &mut engines, &stop) {
                        Some(f) => {
                            if tx.send(f).is_err() {
                                break;
                            }
                        }
                        None => break,
                    }
                }
                for e in engines.into_iter().flatten() {
                    e.quit();
                }
            })
        })
        .collect();
    drop(tx);
    let mut tally = Tally::default();
    let mut endings: BTreeMap<String, u32> = BTreeMap::new();
    let today = date();
    let mut decision = None;
    let terminal = std::io::stderr().is_terminal();
    for f in rx {
        match f.score {
            s if s > 0.75 => tally.wins += 1,
            s if s < 0.25 => tally.losses += 1,
            _ => tally.draws += 1,
        }
        *endings.entry(ending(&f.record)).or_default() += 1;
        if let Some(file) = pgn_file.as_mut() {
            let text = pgn::write(&f.record, &args.event, &today);
            let _ = file.write_all(text.as_bytes()).and_then(|_| file.flush());
        }
        let (elo, err) = tally.elo();
        let mut line = format!(
            "game {} ({} of {}): {} vs {} {} ({}) | W/D/L {}/{}/{} score {:.3} Elo {} +/- {}",
            f.index + 1,
            tally.games(),
            total,
            f.record.red,
            f.record.black,
            f.record.result,
            f.record.termination,
            tally.wins,
            tally.draws,
            tally.losses,
            tally.score(),
            fmt_elo(elo),
            fmt_elo(err)
        );
        if let Some(sp) = &sprt {
            let (lo, hi) = sp.bounds();
            line.push_str(&format!(" LLR {:.2} ({:.2}, {:.2})", tally.llr(sp), lo, hi));
            if decision.is_none() {
                if let Some(d) = tally.decide(sp) {
                    decision = Some(d);
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
    let (elo, err) = tally.elo();
    println!(
        "Score of {} vs {}: {} - {} - {} [{:.3}] {}",
        names[0],
        names[1],
        tally.wins,
        tally.losses,
        tally.draws,
        tally.score(),
        tally.games()
    );
    println!("W/D/L: {}/{}/{}", tally.wins, tally.draws, tally.losses);
    println!(
        "Elo difference: {} +/- {} (95%), LOS: {:.1}%, draw ratio: {:.1}%",
        fmt_elo(elo),
        fmt_elo(err),
        tally.los() * 100.0,
        tally.draw_ratio() * 100.0
    );
    let endings: Vec<String> = endings.iter().map(|(k, v)| format!("{k}: {v}")).collect();
    println!("Endings: {}", endings.join(", "));
    if let Some(sp) = &sprt {
        let (lo, hi) = sp.bounds();
        let verdict = match decision {
            Some(Decision::H1) => "H1 accepted",
            Some(Decision::H0) => "H0 accepted",
            None => "undecided",
        };
        println!(
            "SPRT: elo0 {} elo1 {} alpha {} beta {}: llr {:.2}, lbound {:.2}, ubound {:.2} - {verdict}",
            sp.elo0,
            sp.elo1,
            sp.alpha,
            sp.beta,
            tally.llr(sp),
            lo,
            hi
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn endings_name_the_engine() {
        let mut r = pgn::Record {
            round: 1,
            red: "A".into(),
            black: "B".into(),
            fen: crate::board::START_FEN.into(),
            moves: Vec::new(),
            comments: Vec::new(),
            result: "1-0".into(),
            termination: "black lost on time (5 ms used, 1 ms left)".into(),
            time_control: None,
        };
        assert_eq!(ending(&r), "B lost on time");
        r.termination = "red claimed a draw (100 plies without capture)".into();
        assert_eq!(ending(&r), "A claimed a draw");
        r.termination = "checkmate".into();
        assert_eq!(ending(&r), "checkmate");
    }

    #[test]
    fn limits_and_options() {
        use clap::Parser;
        #[derive(clap::Parser)]
        struct Cli {
            #[command(flatten)]
            m: MatchArgs,
        }
        let parse = |a: &[&str]| {
            let mut v = vec!["match"];
            v.extend_from_slice(a);
            Cli::try_parse_from(v).map(|c| c.m)
        };
        let a = parse(&["--tc", "40/60+1", "--timemargin", "50"]).unwrap();
        assert_eq!(
            control(&a),
            Ok(TimeControl::Clock {
                base: 60_000,
                inc: 1000,
                moves: Some(40)
            })
        );
        assert_eq!(a.margin, 50);
        assert_eq!(control(&parse(&[]).unwrap()), Ok(TimeControl::Depth(4)));
        assert!(control(&parse(&["--depth", "2", "--nodes", "5"]).unwrap()).is_err());
        assert_eq!(
            parse_options(&["Hash=64".into(), "Clear Hash".into()]).unwrap(),
            vec![
                ("Hash".to_string(), "64".to_string()),
                ("Clear Hash".to_string(), String::new())
            ]
        );
        assert!(parse_options(&["=1".into()]).is_err());
        assert!(parse_dialect("UCCI").is_ok() && parse_dialect("xboard").is_err());
    }
}
