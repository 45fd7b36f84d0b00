//! One refereed game between two engine processes.
//!
//! The referee owns the truth: the game (`board::Game`), the clocks and the result. Before each
//! move it applies `board::rules` (no legal move, repetition, 60-move rule, bare material,
//! length cap); it then asks the side to move's engine, charges the wall time from `go` to the
//! answer to that side's clock, and checks the move for legality. Whatever an engine does
//! wrong (crash, hang, flag fall, illegal or missing move, failed handshake) loses the game for
//! it with the reason recorded; an engine that crashed or hung is dropped and restarted for the
//! next game.

use super::engine::{Answer, Engine, EngineError, EngineSpec, Go, Thought};
use crate::board::rules::Outcome;
use crate::board::{Color, Game, Move};
use crate::tools::openings::Opening;
use crate::tools::pgn::Record;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// How long each move may take.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TimeControl {
    /// Fixed depth per move.
    Depth(u32),
    /// Fixed nodes per move.
    Nodes(u64),
    /// Fixed time per move (ms).
    MoveTime(u64),
    /// Real clocks: `base` ms, `inc` ms added after each move, and `base` added again every
    /// `moves` moves if the control is by periods.
    Clock {
        /// Starting time (ms) and time added each period.
        base: u64,
        /// Increment per move (ms).
        inc: u64,
        /// Moves per period, if any.
        moves: Option<u32>,
    },
}

/// As the match's header line shows it: `depth 4`, `nodes 5000`, `movetime 100 ms`, or the
/// clock as in PGN (`10+0.1`, `40/60`).
impl std::fmt::Display for TimeControl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (self, self.pgn_time_control()) {
            (_, Some(clock)) => f.write_str(&clock),
            (TimeControl::Depth(d), _) => write!(f, "depth {d}"),
            (TimeControl::Nodes(n), _) => write!(f, "nodes {n}"),
            (TimeControl::MoveTime(t), _) => write!(f, "movetime {t} ms"),
            (TimeControl::Clock { .. }, None) => f.write_str("clock"),
        }
    }
}

/// Why the limit per move of a match could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TimeControlError {
    /// A clock spec (`--tc`) that is not `[MOVES/]BASE[+INC]`; carries the spec as given.
    #[error("bad --tc '{0}': expected [MOVES/]BASE[+INC], seconds")]
    Tc(String),
    /// More than one kind of limit given.
    #[error("give one of --depth, --nodes, --movetime, --tc")]
    Conflict,
}

impl TimeControl {
    /// Parses `[MOVES/]BASE[+INC]` with times in seconds (`BASE` may be `MIN:SEC`), e.g.
    /// `10+0.1`, `40/60`, `1:30+1`.
    pub fn parse_tc(tc: &str) -> Result<TimeControl, TimeControlError> {
        let bad = || TimeControlError::Tc(tc.to_string());
        let (moves, rest) = match tc.split_once('/') {
            Some((m, r)) => (
                Some(
                    m.trim()
                        .parse::<u32>()
                        .ok()
                        .filter(|&m| m > 0)
                        .ok_or_else(bad)?,
                ),
                r,
            ),
            None => (None, tc),
        };
        let (b, i) = rest.split_once('+').unwrap_or((rest, "0"));
        let secs = |s: &str| -> Result<f64, TimeControlError> {
            let s = s.trim();
            let v = match s.split_once(':') {
                Some((m, sec)) => {
                    m.parse::<f64>().map_err(|_| bad())? * 60.0
                        + sec.parse::<f64>().map_err(|_| bad())?
                }
                None => s.parse::<f64>().map_err(|_| bad())?,
            };
            if v.is_finite() && (0.0..1e7).contains(&v) {
                Ok(v)
            } else {
                Err(bad())
            }
        };
        let base = (secs(b)? * 1000.0).round() as u64;
        let inc = (secs(i)? * 1000.0).round() as u64;
        if base == 0 {
            return Err(bad());
        }
        Ok(TimeControl::Clock { base, inc, moves })
    }

    /// The PGN `TimeControl` value for clocks (seconds), `None` otherwise.
    pub fn pgn_time_control(&self) -> Option<String> {
        match *self {
            TimeControl::Clock { base, inc, moves } => {
                let secs = |ms: u64| {
                    let s = format!("{:.3}", ms as f64 / 1000.0);
                    s.trim_end_matches('0').trim_end_matches('.').to_string()
                };
                let mut s = match moves {
                    Some(m) => format!("{m}/{}", secs(base)),
                    None => secs(base),
                };
                if inc > 0 || moves.is_none() {
                    s.push_str(&format!("+{}", secs(inc)));
                }
                Some(s)
            }
            _ => None,
        }
    }
}

/// Everything a game needs to know about the match.
#[derive(Clone, Debug)]
pub struct Setup {
    /// The two engines (engine 1, engine 2).
    pub specs: [EngineSpec; 2],
    /// Time or search limit per move of each engine (engine 1, engine 2): equal, or
    /// different for time odds.
    pub controls: [TimeControl; 2],
    /// Openings, cycled through.
    pub openings: Vec<Opening>,
    /// Length cap in plies (opening moves included).
    pub maxplies: usize,
    /// Grace (ms) beyond the clock or movetime before a move forfeits.
    pub margin: u64,
    /// Longest wait (ms) for a move under depth or nodes limits.
    pub timeout: u64,
    /// Longest wait (ms) for a handshake, `isready` or new game.
    pub handshake: u64,
    /// A move-less answer (`nobestmove`, `bestmove (none)`) with legal moves on the board is a
    /// draw claim, accepted once this many plies have passed without a capture (0: never).
    pub claim: u16,
}

impl Setup {
    /// The default length cap in plies.
    pub const MAXPLIES: usize = 400;
    /// The default grace (ms) beyond the clock.
    pub const MARGIN_MS: u64 = 200;
    /// The default longest wait (ms) for a move under depth or nodes limits.
    pub const TIMEOUT_MS: u64 = 60_000;
    /// The default longest wait (ms) for a handshake, `isready` or new game.
    pub const HANDSHAKE_MS: u64 = 3_000;
    /// The default quiet plies before a move-less answer is a draw claim (ElephantEye's rule).
    pub const CLAIM_PLIES: u16 = 100;

    /// A set-up with the default rules and waits.
    pub fn new(
        specs: [EngineSpec; 2],
        controls: [TimeControl; 2],
        openings: Vec<Opening>,
    ) -> Setup {
        Setup {
            specs,
            controls,
            openings,
            maxplies: Setup::MAXPLIES,
            margin: Setup::MARGIN_MS,
            timeout: Setup::TIMEOUT_MS,
            handshake: Setup::HANDSHAKE_MS,
            claim: Setup::CLAIM_PLIES,
        }
    }
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct Finished {
    /// 0-based game index.
    pub index: usize,
    /// Engine 1's score: 1, 0.5 or 0.
    pub score: f64,
    /// The game for the PGN.
    pub record: Record,
}

/// The engines a worker keeps between games, by spec index (engine 1, engine 2).
pub type Engines = [Option<Engine>; 2];

/// Makes sure engine `i` is running and told a new game starts; restarts it if it died.
fn ready(setup: &Setup, engines: &mut Engines, i: usize) -> Result<(), EngineError> {
    if let Some(e) = engines[i].as_mut() {
        if e.alive() && e.new_game(setup.handshake).is_ok() {
            return Ok(());
        }
        engines[i] = None;
    }
    let mut e = Engine::start(&setup.specs[i], setup.handshake)?;
    e.new_game(setup.handshake)?;
    engines[i] = Some(e);
    Ok(())
}

fn colour(c: Color) -> &'static str {
    match c {
        Color::Red => "red",
        Color::Black => "black",
    }
}

fn comment(t: &Thought, ms: u64) -> String {
    let secs = format!("{:.3}s", ms as f64 / 1000.0);
    match (&t.score, t.depth) {
        (Some(s), Some(d)) => format!("{s}/{d} {secs}"),
        (Some(s), None) => format!("{s} {secs}"),
        (None, Some(d)) => format!("/{d} {secs}"),
        (None, None) => secs,
    }
}

/// Plays game `index` (0-based): opening `index / 2` (cycling), engine 1 Red when `index` is
/// even. Returns `None` if `stop` was raised before the game ended (the game is abandoned).
pub fn play(
    setup: &Setup,
    index: usize,
    engines: &mut Engines,
    stop: &AtomicBool,
) -> Option<Finished> {
    let opening = &setup.openings[(index / 2) % setup.openings.len()];
    // Spec index of Red and of Black.
    let order = if index.is_multiple_of(2) {
        [0, 1]
    } else {
        [1, 0]
    };
    let mut game: Game = opening.game();
    let mut comments: Vec<Option<String>> = vec![None; game.moves().len()];
    let (errors, names) = seat(setup, engines, order);
    let mut clocks = Clocks::new(setup, order);
    let (result, why): (Option<Color>, String) = loop {
        if let Some(out) = game.outcome(setup.maxplies) {
            break match out {
                Outcome::Win(c, r) => (Some(c), r.to_string()),
                Outcome::Draw(r) => (None, r.to_string()),
            };
        }
        if stop.load(Ordering::SeqCst) {
            return None;
        }
        let side = game.position().side_to_move();
        let si = side.index();
        let lose = |what: String| (Some(!side), format!("{} {what}", colour(side)));
        let Some(engine) = engines[order[si]].as_mut().filter(|_| errors[si].is_none()) else {
            let e = errors[si].clone().unwrap_or(EngineError::Crash);
            break lose(e.to_string());
        };
        let (go, wait) = clocks.go(setup, side);
        let reply = engine.think(&game, go, setup.handshake, Duration::from_millis(wait));
        let (answer, thought, ms) = match reply {
            Ok(r) => r,
            Err(e) => {
                // A crashed, hung or unresponsive engine is not reused.
                engines[order[si]] = None;
                break lose(failure(e, clocks.controls[si], wait));
            }
        };
        if let Err(e) = clocks.charge(setup, si, ms) {
            break lose(e.to_string());
        }
        let text = match answer {
            Answer::Move(_, true) => break lose("resigned".into()),
            Answer::Move(t, false) => t,
            Answer::NoMove => break no_move(setup, &game, side),
        };
        let m: Move = match game.position().parse_move(&text) {
            Ok(m) => m,
            Err(e) => break lose(format!("played {e}")),
        };
        if game.play(m).is_err() {
            break lose(format!("played illegal move {text}"));
        }
        comments.push(Some(comment(&thought, ms)));
    };
    let e1_side = if order[0] == 0 {
        Color::Red
    } else {
        Color::Black
    };
    let score = match result {
        None => 0.5,
        Some(c) if c == e1_side => 1.0,
        Some(_) => 0.0,
    };
    let result = match result {
        Some(Color::Red) => "1-0",
        Some(Color::Black) => "0-1",
        None => "1/2-1/2",
    };
    let [red, black] = names;
    Some(Finished {
        index,
        score,
        record: Record {
            round: index + 1,
            red,
            black,
            fen: opening.fen.clone(),
            moves: game.moves().to_vec(),
            comments,
            result: result.into(),
            termination: why,
            time_control: clocks.controls.map(|c| c.pgn_time_control()),
        },
    })
}

/// Readies the engines of Red and Black (`order`: their spec indices): what kept each from
/// starting, if anything, and their names.
fn seat(
    setup: &Setup,
    engines: &mut Engines,
    order: [usize; 2],
) -> ([Option<EngineError>; 2], [String; 2]) {
    let mut errors: [Option<EngineError>; 2] = [None, None];
    for side in 0..2 {
        if let Err(e) = ready(setup, engines, order[side]) {
            errors[side] = Some(e);
        }
    }
    let names: [String; 2] = std::array::from_fn(|side| {
        let spec = &setup.specs[order[side]];
        match (&spec.name, &engines[order[side]]) {
            (Some(n), _) => n.clone(),
            (None, Some(e)) => e.name.clone(),
            (None, None) => spec.command.clone(),
        }
    });
    (errors, names)
}

/// Each side's limit, clock and moves made, by colour.
struct Clocks {
    controls: [TimeControl; 2],
    /// Time left (ms) of a side with a clock.
    left: [i64; 2],
    made: [u32; 2],
    /// The increments a clock `go` announces: each side's own (0 for a side without a clock).
    incs: [u64; 2],
}

impl Clocks {
    fn new(setup: &Setup, order: [usize; 2]) -> Clocks {
        let controls = [setup.controls[order[0]], setup.controls[order[1]]];
        let left = controls.map(|c| match c {
            TimeControl::Clock { base, .. } => base as i64,
            _ => 0,
        });
        let incs = controls.map(|c| match c {
            TimeControl::Clock { inc, .. } => inc,
            _ => 0,
        });
        Clocks {
            controls,
            left,
            made: [0; 2],
            incs,
        }
    }

    /// The `go` for `side` and how long to wait for its answer (ms).
    fn go(&self, setup: &Setup, side: Color) -> (Go, u64) {
        let si = side.index();
        match self.controls[si] {
            TimeControl::Depth(d) => (Go::Depth(d), setup.timeout),
            TimeControl::Nodes(n) => (Go::Nodes(n), setup.timeout),
            TimeControl::MoveTime(t) => (Go::MoveTime(t), t + setup.margin),
            TimeControl::Clock { moves, .. } => (
                Go::Clock {
                    red: self.left[0].max(1) as u64,
                    black: self.left[1].max(1) as u64,
                    incs: self.incs,
                    movestogo: moves.map(|m| m - self.made[si] % m),
                    side,
                },
                self.left[si].max(0) as u64 + setup.margin,
            ),
        }
    }

    /// Charges side `si` the `ms` its move took (adding the increment, and the base at a new
    /// time control); `Err` when the move overstepped the time.
    fn charge(&mut self, setup: &Setup, si: usize, ms: u64) -> Result<(), LostOnTime> {
        match self.controls[si] {
            TimeControl::Clock { base, inc, moves } => {
                let left = self.left[si];
                self.left[si] -= ms as i64;
                if self.left[si] < -(setup.margin as i64) {
                    return Err(LostOnTime::Clock { ms, left });
                }
                self.made[si] += 1;
                self.left[si] = self.left[si].max(0) + inc as i64;
                if moves.is_some_and(|m| self.made[si].is_multiple_of(m)) {
                    self.left[si] += base as i64;
                }
            }
            TimeControl::MoveTime(t) if ms > t + setup.margin => {
                return Err(LostOnTime::MoveTime { ms, allowed: t });
            }
            _ => {}
        }
        Ok(())
    }
}

/// A move that overstepped its side's time, in the words of the game's termination.
#[derive(Debug, thiserror::Error)]
enum LostOnTime {
    /// Past the clock (and the margin).
    #[error("lost on time ({ms} ms used, {left} ms left)")]
    Clock {
        /// Milliseconds the move took.
        ms: u64,
        /// Milliseconds that were left on the clock.
        left: i64,
    },
    /// Past the fixed time per move (and the margin).
    #[error("lost on time ({ms} ms used, {allowed} ms allowed)")]
    MoveTime {
        /// Milliseconds the move took.
        ms: u64,
        /// Milliseconds a move may take.
        allowed: u64,
    },
}

/// The words of a loss to an engine that failed to answer within `wait` ms under `control`.
fn failure(e: EngineError, control: TimeControl, wait: u64) -> String {
    match (e, control) {
        (EngineError::Timeout, TimeControl::Clock { .. } | TimeControl::MoveTime(_)) => {
            format!("lost on time (no move within {wait} ms)")
        }
        (EngineError::Timeout, _) => format!("hung (no move in {wait} ms)"),
        (e, _) => e.to_string(),
    }
}

/// The end of a game whose side to move gave no move: a draw claimed after `Setup::claim`
/// plies without a capture, else a loss.
fn no_move(setup: &Setup, game: &Game, side: Color) -> (Option<Color>, String) {
    let plies = game.position().halfmove_clock();
    if setup.claim > 0 && plies >= setup.claim {
        (
            None,
            format!(
                "{} claimed a draw ({plies} plies without capture)",
                colour(side)
            ),
        )
    } else {
        (Some(!side), format!("{} gave no move", colour(side)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls() {
        assert_eq!(
            TimeControl::parse_tc("10+0.1"),
            Ok(TimeControl::Clock {
                base: 10_000,
                inc: 100,
                moves: None
            })
        );
        assert_eq!(
            TimeControl::parse_tc("40/1:30"),
            Ok(TimeControl::Clock {
                base: 90_000,
                inc: 0,
                moves: Some(40)
            })
        );
        assert!(TimeControl::parse_tc("0+1").is_err());
        assert!(TimeControl::parse_tc("x").is_err());
        assert!(TimeControl::parse_tc("0/10").is_err());
        assert!(TimeControl::parse_tc("-5").is_err());
        assert_eq!(
            TimeControl::parse_tc("2+0.02").unwrap().pgn_time_control(),
            Some("2+0.02".into())
        );
        assert_eq!(
            TimeControl::parse_tc("40/60").unwrap().pgn_time_control(),
            Some("40/60".into())
        );
        assert_eq!(TimeControl::Depth(3).pgn_time_control(), None);
    }

    #[test]
    fn bad_clock_specs_are_named() {
        for bad in ["", "1+x", "a:30", "40/", "1e9"] {
            assert_eq!(
                TimeControl::parse_tc(bad).map_err(|e| e.to_string()),
                Err(format!(
                    "bad --tc '{bad}': expected [MOVES/]BASE[+INC], seconds"
                ))
            );
        }
        assert_eq!(
            TimeControlError::Conflict.to_string(),
            "give one of --depth, --nodes, --movetime, --tc"
        );
    }

    #[test]
    fn comments() {
        let t = Thought {
            depth: Some(7),
            score: Some("+0.35".into()),
        };
        assert_eq!(comment(&t, 512), "+0.35/7 0.512s");
        assert_eq!(comment(&Thought::default(), 5), "0.005s");
    }
}
