//! `chariot match`: games between two engine commands, refereed by the crate's own rules.
//!
//! Each game starts both engines afresh (so a crashed engine is simply restarted for the next
//! game), plays from an opening (each opening twice, colours swapped), checks every move for
//! legality, runs real clocks for `--tc`, and adjudicates by `board::rules`. Games run on
//! `--concurrency` threads; results go to PGN, a progress line per game on stderr, and a summary
//! (W/D/L, score, Elo ± 95%, SPRT) on stdout.

pub mod engine;
pub mod pgn;
pub mod stats;

use crate::board::rules::Outcome;
use crate::board::{Color, Game, Move, Position, START_FEN};
use engine::{Answer, Dialect, Engine, EngineError, EngineSpec, Go};
use stats::{Decision, Sprt, Tally};
use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The default opening book, one opening per line.
pub const DEFAULT_OPENINGS: &str = include_str!("../../../positions/openings.txt");

/// Arguments of `chariot match`.
#[derive(clap::Args, Debug, Clone)]
pub struct MatchArgs {
    /// First engine's command line (default: this program).
    #[arg(long)]
    pub engine1: Option<String>,
    /// Second engine's command line (default: this program).
    #[arg(long)]
    pub engine2: Option<String>,
    /// Display names.
    #[arg(long)]
    pub name1: Option<String>,
    /// Display names.
    #[arg(long)]
    pub name2: Option<String>,
    /// Working directories.
    #[arg(long)]
    pub dir1: Option<String>,
    /// Working directories.
    #[arg(long)]
    pub dir2: Option<String>,
    /// Dialects: auto (default, UCI tried first), uci or ucci.
    #[arg(long, default_value = "auto")]
    pub dialect1: String,
    /// Dialects: auto (default, UCI tried first), uci or ucci.
    #[arg(long, default_value = "auto")]
    pub dialect2: String,
    /// Options for engine 1 as NAME=VALUE (repeatable).
    #[arg(long)]
    pub option1: Vec<String>,
    /// Options for engine 2 as NAME=VALUE (repeatable).
    #[arg(long)]
    pub option2: Vec<String>,
    /// Number of games (rounded up to pairs when openings are used).
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
    /// Clock: BASE+INC in seconds, e.g. 10+0.1.
    #[arg(long)]
    pub tc: Option<String>,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// Openings file: FENs or ICCS move sequences, one per line (default: the built-in set).
    #[arg(long)]
    pub openings: Option<String>,
    /// Write the games to this PGN file.
    #[arg(long)]
    pub pgn: Option<String>,
    /// SPRT: ELO0,ELO1[,ALPHA,BETA]; stops as soon as it decides.
    #[arg(long)]
    pub sprt: Option<String>,
    /// Longest game in plies before a draw is declared.
    #[arg(long, default_value_t = 400)]
    pub maxplies: usize,
    /// Grace in ms beyond the clock (or beyond --movetime) before a move forfeits on time.
    #[arg(long, default_value_t = 200)]
    pub margin: u64,
    /// Longest wait in ms for a move under --depth or --nodes (a hang beyond it loses).
    #[arg(long, default_value_t = 60_000)]
    pub timeout: u64,
    /// Longest wait in ms for an engine's handshake (per dialect tried).
    #[arg(long, default_value_t = 3_000)]
    pub handshake: u64,
}

#[derive(Clone, Copy, Debug)]
enum Control {
    Depth(u32),
    Nodes(u64),
    MoveTime(u64),
    Clock { base: u64, inc: u64 },
}

struct Setup {
    specs: [EngineSpec; 2],
    control: Control,
    openings: Vec<(String, Vec<Move>)>,
    maxplies: usize,
    margin: u64,
    timeout: u64,
    handshake: u64,
}

/// One finished game from engine 1's point of view.
struct Finished {
    score: f64,
    record: pgn::Record,
}

fn parse_dialect(s: &str) -> Result<Option<Dialect>, String> {
    match s.to_ascii_lowercase().as_str() {
        "auto" => Ok(None),
        "uci" => Ok(Some(Dialect::Uci)),
        "ucci" => Ok(Some(Dialect::Ucci)),
        _ => Err(format!("bad dialect '{s}': auto, uci or ucci")),
    }
}

fn parse_options(v: &[String]) -> Result<Vec<(String, String)>, String> {
    v.iter()
        .map(|o| {
            o.split_once('=')
                .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
                .ok_or_else(|| format!("bad option '{o}': expected NAME=VALUE"))
        })
        .collect()
}

/// Parses an openings text: FEN lines (containing `/`) or ICCS move sequences; `#` comments.
pub fn parse_openings(text: &str) -> Result<Vec<(String, Vec<Move>)>, String> {
    let mut out = Vec::new();
    for (n, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let (fen, moves_text) = if line.contains('/') {
            match line.split_once(" moves ") {
                Some((f, m)) => (f.trim().to_string(), m),
                None => (line.to_string(), ""),
            }
        } else {
            (START_FEN.to_string(), line)
        };
        let start: Position = fen
            .parse()
            .map_err(|e| format!("openings line {}: {e}", n + 1))?;
        let words: Vec<&str> = moves_text.split_whitespace().collect();
        let game =
            Game::from_moves(start, &words).map_err(|e| format!("openings line {}: {e}", n + 1))?;
        out.push((fen, game.moves().to_vec()));
    }
    if out.is_empty() {
        return Err("no openings".into());
    }
    Ok(out)
}

fn setup(args: &MatchArgs) -> Result<Setup, String> {
    let me = std::env::current_exe()
        .map(|p| p.to_string_lossy().into_owned())
        .unwrap_or_else(|_| "chariot".into());
    let spec = |cmd: &Option<String>,
                name: &Option<String>,
                dir: &Option<String>,
                d: &str,
                o: &[String]| {
        Ok::<_, String>(EngineSpec {
            command: cmd.clone().unwrap_or_else(|| me.clone()),
            dir: dir.clone(),
            dialect: parse_dialect(d)?,
            options: parse_options(o)?,
            name: name.clone(),
        })
    };
    let control = match (args.depth, args.nodes, args.movetime, &args.tc) {
        (Some(d), None, None, None) => Control::Depth(d.max(1)),
        (None, Some(n), None, None) => Control::Nodes(n.max(1)),
        (None, None, Some(t), None) => Control::MoveTime(t.max(1)),
        (None, None, None, Some(tc)) => {
            let (b, i) = tc.split_once('+').unwrap_or((tc.as_str(), "0"));
            let secs = |s: &str| {
                s.trim()
                    .parse::<f64>()
                    .ok()
                    .filter(|v| v.is_finite() && *v >= 0.0)
                    .map(|v| (v * 1000.0).round() as u64)
                    .ok_or_else(|| format!("bad --tc '{tc}': expected BASE+INC in seconds"))
            };
            Control::Clock {
                base: secs(b)?.max(1),
                inc: secs(i)?,
            }
        }
        (None, None, None, None) => Control::Depth(4),
        _ => return Err("give one of --depth, --nodes, --movetime, --tc".into()),
    };
    let text = match &args.openings {
        Some(path) => {
            std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?
        }
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
        control,
        openings: parse_openings(&text)?,
        maxplies: args.maxplies.max(1),
        margin: args.margin,
        timeout: args.timeout.max(1),
        handshake: args.handshake.max(1),
    })
}

/// Plays game `index` (0-based): opening `index / 2`, engine 1 Red on even indices.
fn play_game(s: &Setup, index: usize) -> Finished {
    let (fen, opening) = &s.openings[(index / 2) % s.openings.len()];
    let e1_red = index.is_multiple_of(2);
    let start: Position = fen.parse().unwrap_or_default();
    let mut game = Game::new(start);
    for &m in opening {
        let _ = game.play(m);
    }
    let order = if e1_red { [0, 1] } else { [1, 0] }; // spec index of Red, Black
    let default_name = |i: usize| {
        let spec = &s.specs[order[i]];
        spec.name.clone().unwrap_or_else(|| spec.command.clone())
    };
    let mut names = [default_name(0), default_name(1)];
    let mut engines: [Option<Engine>; 2] = [None, None];
    let mut errors: [Option<EngineError>; 2] = [None, None];
    for side in 0..2 {
        match Engine::start(&s.specs[order[side]], s.handshake) {
            Ok(mut e) => {
                let _ = e.new_game();
                names[side] = e.name.clone();
                engines[side] = Some(e);
            }
            Err(err) => errors[side] = Some(err),
        }
    }
    let mut clocks = match s.control {
        Control::Clock { base, .. } => [base as i64, base as i64],
        _ => [0, 0],
    };
    let (result, why): (Option<Color>, String) = 'game: loop {
        if let Some(out) = game.outcome(s.maxplies) {
            break match out {
                Outcome::Win(c, r) => (Some(c), r.to_string()),
                Outcome::Draw(r) => (None, r.to_string()),
            };
        }
        let side = game.position().side_to_move();
        let si = side.index();
        let Some(engine) = engines[si].as_mut() else {
            let e = errors[si].clone().unwrap_or(EngineError::Crash);
            break (Some(!side), format!("{} {e}", colour(side)));
        };
        let (go, timeout) = match s.control {
            Control::Depth(d) => (Go::Depth(d), s.timeout),
            Control::Nodes(n) => (Go::Nodes(n), s.timeout),
            Control::MoveTime(t) => (Go::MoveTime(t), t + s.margin),
            Control::Clock { inc, .. } => (
                Go::Clock {
                    red: clocks[0].max(1) as u64,
                    black: clocks[1].max(1) as u64,
                    inc,
                    side,
                },
                clocks[si].max(0) as u64 + s.margin,
            ),
        };
        let answer = engine.think(fen, game.moves(), go, Duration::from_millis(timeout));
        let (answer, ms) = match answer {
            Ok(a) => a,
            Err(EngineError::Timeout) => {
                let what = if matches!(s.control, Control::Clock { .. } | Control::MoveTime(_)) {
                    "lost on time"
                } else {
                    "hung (no move in time)"
                };
                break 'game (Some(!side), format!("{} {what}", colour(side)));
            }
            Err(e) => break 'game (Some(!side), format!("{} {e}", colour(side))),
        };
        if let Control::Clock { inc, .. } = s.control {
            clocks[si] -= ms as i64;
            if clocks[si] < -(s.margin as i64) {
                break (Some(!side), format!("{} lost on time", colour(side)));
            }
            clocks[si] = clocks[si].max(0) + inc as i64;
        }
        let text = match answer {
            Answer::Move(t) => t,
            Answer::NoMove => break (Some(!side), format!("{} gave no move", colour(side))),
        };
        match game.position().parse_move(&text) {
            Ok(m) => {
                let _ = game.play(m);
            }
            Err(e) => break (Some(!side), format!("{} played {e}", colour(side))),
        }
    };
    for e in engines.into_iter().flatten() {
        e.quit();
    }
    let result_text = match result {
        Some(Color::Red) => "1-0",
        Some(Color::Black) => "0-1",
        None => "1/2-1/2",
    };
    let e1_side = if e1_red { Color::Red } else { Color::Black };
    let score = match result {
        None => 0.5,
        Some(c) if c == e1_side => 1.0,
        Some(_) => 0.0,
    };
    Finished {
        score,
        record: pgn::Record {
            round: index + 1,
            red: names[0].clone(),
            black: names[1].clone(),
            fen: fen.clone(),
            moves: game.moves().to_vec(),
            result: result_text.into(),
            termination: why,
        },
    }
}

fn colour(c: Color) -> &'static str {
    match c {
        Color::Red => "red",
        Color::Black => "black",
    }
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

/// Runs a match; returns the process exit code.
pub fn run(args: &MatchArgs) -> i32 {
    let setup = match setup(args) {
        Ok(s) => Arc::new(s),
        Err(e) => {
            eprintln!("error: {e}");
            return 2;
        }
    };
    let sprt = match args.sprt.as_deref().map(Sprt::parse).transpose() {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            return 2;
        }
    };
    let mut pgn_file = match &args.pgn {
        Some(p) => match std::fs::File::create(p) {
            Ok(f) => Some(f),
            Err(e) => {
                eprintln!("error: cannot write {p}: {e}");
                return 2;
            }
        },
        None => None,
    };
    let total = args.games.max(1);
    let next = Arc::new(AtomicUsize::new(0));
    let stop = Arc::new(AtomicBool::new(false));
    let (tx, rx) = std::sync::mpsc::channel::<Finished>();
    let workers: Vec<_> = (0..args.concurrency.clamp(1, 64))
        .map(|_| {
            let (setup, next, stop, tx) = (
                Arc::clone(&setup),
                Arc::clone(&next),
                Arc::clone(&stop),
                tx.clone(),
            );
            std::thread::spawn(move || loop {
                if stop.load(Ordering::SeqCst) {
                    return;
                }
                let i = next.fetch_add(1, Ordering::SeqCst);
                if i >= total {
                    return;
                }
                if tx.send(play_game(&setup, i)).is_err() {
                    return;
                }
            })
        })
        .collect();
    drop(tx);
    let tally = Mutex::new(Tally::default());
    let today = date();
    let mut names = (String::new(), String::new());
    let mut decision = None;
    for f in rx {
        let mut t = tally.lock().unwrap_or_else(|p| p.into_inner());
        match f.score {
            s if s > 0.75 => t.wins += 1,
            s if s < 0.25 => t.losses += 1,
            _ => t.draws += 1,
        }
        let (e1, e2) = if f.record.round % 2 == 1 {
            (&f.record.red, &f.record.black)
        } else {
            (&f.record.black, &f.record.red)
        };
        names = (e1.clone(), e2.clone());
        if let Some(file) = pgn_file.as_mut() {
            let _ = file.write_all(pgn::write(&f.record, &today).as_bytes());
            let _ = file.flush();
        }
        let (elo, err) = t.elo();
        eprintln!(
            "game {}/{}: {} vs {} {} ({}) | W/D/L {}/{}/{} score {:.3} Elo {:.0} +/- {:.0}",
            t.games(),
            total,
            f.record.red,
            f.record.black,
            f.record.result,
            f.record.termination,
            t.wins,
            t.draws,
            t.losses,
            t.score(),
            elo + 0.0,
            err
        );
        if let Some(sp) = &sprt {
            if let Some(d) = t.decide(sp) {
                decision = Some(d);
                stop.store(true, Ordering::SeqCst);
            }
        }
    }
    for w in workers {
        let _ = w.join();
    }
    let t = *tally.lock().unwrap_or_else(|p| p.into_inner());
    let (elo, err) = t.elo();
    let elo = elo + 0.0; // no "-0.0"
    println!(
        "Score of {} vs {}: {} - {} - {} [{:.3}] {}",
        names.0,
        names.1,
        t.wins,
        t.losses,
        t.draws,
        t.score(),
        t.games()
    );
    println!("W/D/L: {}/{}/{}", t.wins, t.draws, t.losses);
    println!("Elo difference: {elo:.1} +/- {err:.1} (95%)");
    if let Some(sp) = &sprt {
        let (lo, hi) = sp.bounds();
        let verdict = match decision.or_else(|| t.decide(sp)) {
            Some(Decision::H1) => "H1 accepted",
            Some(Decision::H0) => "H0 accepted",
            None => "undecided",
        };
        println!(
            "SPRT: elo0 {} elo1 {} alpha {} beta {}: llr {:.2} (lbound {:.2}, ubound {:.2}) {verdict}",
            sp.elo0,
            sp.elo1,
            sp.alpha,
            sp.beta,
            t.llr(sp),
            lo,
            hi
        );
    }
    0
}
