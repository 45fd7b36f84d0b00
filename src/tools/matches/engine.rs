//! An engine process seen from the match runner: spawning, the handshake (detecting UCI or
//! UCCI), options, `position`/`isready`/`go` in the engine's dialect, and reading its answer
//! with a deadline. The process itself (pipes, reads with deadlines, `quit`) is
//! `tools::process::Process`, which the soak drives too.
//!
//! The invariant that matters: every wait is bounded. A line reader thread per process feeds a
//! channel, and each wait has a deadline; an engine that misses one is reported (`Timeout`) and
//! the caller kills it (`Engine` is killed on drop) and starts a fresh one for the next game.

use crate::board::{Color, Game};
use crate::protocol::output::{UCCI_BAN, UCCI_MATE};
use crate::tools::process::{Line, Process};
use std::time::{Duration, Instant};

pub use crate::protocol::Dialect;
pub use crate::tools::process::{split_command, CommandLineError, EngineError};

/// How to start an engine.
#[derive(Clone, Debug)]
pub struct EngineSpec {
    /// Command line: the program and its arguments (split like a shell would, quotes allowed).
    pub command: String,
    /// Working directory.
    pub dir: Option<String>,
    /// Dialect, or `None` to detect it (UCI tried first, then UCCI in a fresh process).
    pub dialect: Option<Dialect>,
    /// Options to set after the handshake, as (name, value); an empty value sets a button.
    pub options: Vec<(String, String)>,
    /// Display name (else the engine's `id name`, else the command).
    pub name: Option<String>,
}

/// A search request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Go {
    /// Fixed depth.
    Depth(u32),
    /// Fixed nodes.
    Nodes(u64),
    /// Fixed time per move (ms).
    MoveTime(u64),
    /// Real clocks (ms).
    Clock {
        /// Red's clock.
        red: u64,
        /// Black's clock.
        black: u64,
        /// Increment per move of each side (Red, Black).
        incs: [u64; 2],
        /// Moves left to the next time control for the side to move, if the control has them.
        movestogo: Option<u32>,
        /// Side to move.
        side: Color,
    },
}

impl Go {
    /// The `go` line for `dialect`. UCCI has no `movetime`: `go time T movestogo 1` as UCCI
    /// GUIs send it; UCCI clocks carry `increment` or `movestogo` (never both: with both,
    /// `movestogo` is sent) plus the opponent's clock.
    pub fn line(&self, dialect: Dialect) -> String {
        match (*self, dialect) {
            (Go::Depth(d), _) => format!("go depth {d}"),
            (Go::Nodes(n), _) => format!("go nodes {n}"),
            (Go::MoveTime(t), Dialect::Uci) => format!("go movetime {t}"),
            (Go::MoveTime(t), Dialect::Ucci) => format!("go time {t} movestogo 1"),
            (
                Go::Clock {
                    red,
                    black,
                    incs: [winc, binc],
                    movestogo,
                    ..
                },
                Dialect::Uci,
            ) => {
                let mut s = format!("go wtime {red} btime {black} winc {winc} binc {binc}");
                if let Some(m) = movestogo {
                    s.push_str(&format!(" movestogo {m}"));
                }
                s
            }
            (
                Go::Clock {
                    red,
                    black,
                    incs,
                    movestogo,
                    side,
                },
                Dialect::Ucci,
            ) => {
                let (own, opp) = if side == Color::Red {
                    (red, black)
                } else {
                    (black, red)
                };
                let (inc, oppinc) = (incs[side.index()], incs[(!side).index()]);
                match movestogo {
                    Some(m) => {
                        format!("go time {own} movestogo {m} opptime {opp} oppmovestogo {m}")
                    }
                    None => {
                        format!("go time {own} increment {inc} opptime {opp} oppincrement {oppinc}")
                    }
                }
            }
        }
    }
}

/// The answer to `go`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// A move text as sent (not yet checked), and whether the engine resigned with it (UCCI
    /// `bestmove … resign`).
    Move(String, bool),
    /// `nobestmove`, `bestmove (none)` or `bestmove 0000`.
    NoMove,
}

/// What the engine said about its search, from its last `info` lines (for PGN comments).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Thought {
    /// Last reported depth.
    pub depth: Option<u32>,
    /// Last reported score, as PGN comment text (`+0.35`, `-1.20`, `#3`, `#-2`).
    pub score: Option<String>,
}

/// A running engine.
pub struct Engine {
    process: Process,
    readyok: bool,
    /// The dialect in use.
    pub dialect: Dialect,
    /// The engine's name.
    pub name: String,
}

impl Engine {
    /// Starts the engine, completes the handshake (detecting the dialect unless the spec
    /// fixes it), sets the options and waits until it is ready. `ms` bounds each wait.
    pub fn start(spec: &EngineSpec, ms: u64) -> Result<Engine, EngineError> {
        let tries: &[Dialect] = match spec.dialect {
            Some(Dialect::Uci) => &[Dialect::Uci],
            Some(Dialect::Ucci) => &[Dialect::Ucci],
            None => &[Dialect::Uci, Dialect::Ucci],
        };
        for &d in tries {
            // A fresh process per try: ElephantEye exits on `uci`, and the protocol fixes the
            // dialect with the first handshake line.
            let mut e = Engine::spawn(spec)?;
            if e.handshake(d, spec, ms).is_ok() {
                e.configure(spec, ms)?;
                return Ok(e);
            }
        }
        Err(EngineError::Handshake)
    }

    fn spawn(spec: &EngineSpec) -> Result<Engine, EngineError> {
        let process = Process::spawn_command(&spec.command, spec.dir.as_deref())?;
        let program = split_command(&spec.command)
            .ok()
            .and_then(|w| w.into_iter().next())
            .unwrap_or_default();
        Ok(Engine {
            process,
            readyok: false,
            dialect: Dialect::Uci,
            name: spec.name.clone().unwrap_or(program),
        })
    }

    fn handshake(&mut self, d: Dialect, spec: &EngineSpec, ms: u64) -> Result<(), EngineError> {
        let id = self
            .process
            .handshake(d, Instant::now() + Duration::from_millis(ms))?;
        self.dialect = d;
        if spec.name.is_none() {
            if let Some(n) = id {
                self.name = n;
            }
        }
        Ok(())
    }

    /// Options, then one `isready`: an engine that answers `readyok` gets `isready` before
    /// every `go` from then on; one that does not (some UCCI engines) is not waited for.
    fn configure(&mut self, spec: &EngineSpec, ms: u64) -> Result<(), EngineError> {
        self.send_options(&spec.options)?;
        self.send("isready")?;
        let deadline = Instant::now() + Duration::from_millis(ms);
        match self.wait_for(deadline, |l| Line::classify(l) == Line::ReadyOk) {
            Ok(_) => self.readyok = true,
            Err(EngineError::Timeout) if self.dialect == Dialect::Ucci => self.readyok = false,
            Err(e) => return Err(e),
        }
        Ok(())
    }

    fn send_options(&mut self, options: &[(String, String)]) -> Result<(), EngineError> {
        for (name, value) in options {
            let line = match (self.dialect, value.is_empty()) {
                (Dialect::Uci, false) => format!("setoption name {name} value {value}"),
                (Dialect::Uci, true) => format!("setoption name {name}"),
                (Dialect::Ucci, false) => format!("setoption {name} {value}"),
                (Dialect::Ucci, true) => format!("setoption {name}"),
            };
            self.send(&line)?;
        }
        Ok(())
    }

    /// Sets options (name, value; an empty value presses a button) on a running engine and
    /// syncs (`ms` bounds the wait), e.g. between games.
    pub fn set_options(
        &mut self,
        options: &[(String, String)],
        ms: u64,
    ) -> Result<(), EngineError> {
        self.send_options(options)?;
        self.sync(ms)
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) -> Result<(), EngineError> {
        self.process.send(line)
    }

    fn wait_for(
        &mut self,
        deadline: Instant,
        pred: impl FnMut(&str) -> bool,
    ) -> Result<String, EngineError> {
        self.process.wait_for(deadline, pred)
    }

    /// `isready` → `readyok` within `ms`, for engines that answered it at start-up.
    pub fn sync(&mut self, ms: u64) -> Result<(), EngineError> {
        if self.readyok {
            self.send("isready")?;
            let deadline = Instant::now() + Duration::from_millis(ms);
            self.wait_for(deadline, |l| Line::classify(l) == Line::ReadyOk)
                .map_err(|e| match e {
                    EngineError::Timeout => EngineError::NotReady,
                    e => e,
                })?;
        }
        Ok(())
    }

    /// Tells the engine a new game starts (`ucinewgame` / `setoption newgame`) and syncs.
    pub fn new_game(&mut self, ms: u64) -> Result<(), EngineError> {
        match self.dialect {
            Dialect::Uci => self.send("ucinewgame")?,
            Dialect::Ucci => self.send("setoption newgame")?,
        }
        self.sync(ms)
    }

    /// Whether the process is still running.
    pub fn alive(&mut self) -> bool {
        self.process.alive()
    }

    /// Sends the game's position (`position_line`), syncs (`ms` bounds that wait), sends `go`
    /// and waits until `timeout` after `go` for the answer. Returns the answer, what the engine
    /// last said about its search, and the milliseconds from `go` to the answer.
    pub fn think(
        &mut self,
        game: &Game,
        go: Go,
        ms: u64,
        timeout: Duration,
    ) -> Result<(Answer, Thought, u64), EngineError> {
        let pos = position_line(game, self.dialect);
        self.send(&pos)?;
        self.sync(ms)?;
        let go_line = go.line(self.dialect);
        let start = Instant::now();
        self.send(&go_line)?;
        let mut thought = Thought::default();
        let line = self.wait_for(start + timeout, |l| match Line::classify(l) {
            Line::Info => {
                note_info(l, &mut thought);
                false
            }
            line => line == Line::Terminal,
        })?;
        let ms = start.elapsed().as_millis() as u64;
        let words: Vec<&str> = line.split_whitespace().collect();
        let answer = match words.as_slice() {
            ["bestmove", m, rest @ ..] if *m != "(none)" && *m != "0000" => {
                Answer::Move(m.to_string(), rest.contains(&"resign"))
            }
            _ => Answer::NoMove,
        };
        Ok((answer, thought, ms))
    }

    /// Asks the engine to quit, then makes sure it is gone (killed after 300 ms).
    pub fn quit(mut self) {
        // Dropping the process kills it if it is still there.
        self.process.quit(Duration::from_millis(300));
    }
}

/// The `position` command for a game. UCI: the start FEN and every move since, as UCI GUIs
/// send it. UCCI: the FEN right after the last capture and the moves since, the UCCI convention
/// (the repetition history an engine needs starts there, and lines stay short).
pub fn position_line(game: &Game, dialect: Dialect) -> String {
    let positions = game.positions();
    let from = match dialect {
        Dialect::Uci => 0,
        Dialect::Ucci => (1..positions.len())
            .rev()
            .find(|&k| positions[k].halfmove_clock() == 0)
            .unwrap_or(0),
    };
    let mut line = format!("position fen {}", positions[from].fen());
    let moves = &game.moves()[from..];
    if !moves.is_empty() {
        line.push_str(" moves");
        for m in moves {
            line.push(' ');
            line.push_str(&m.to_string());
        }
    }
    line
}

/// Reads depth and score from an `info` line: `score cp N` / `score mate M` in either
/// dialect, and UCCI's bare `score N` with mates as ±(`UCCI_MATE` − plies).
fn note_info(line: &str, t: &mut Thought) {
    let words: Vec<&str> = line.split_whitespace().collect();
    let mut i = 1;
    while i < words.len() {
        match words[i] {
            "depth" => {
                if let Some(d) = words.get(i + 1).and_then(|w| w.parse().ok()) {
                    t.depth = Some(d);
                }
                i += 2;
            }
            "score" => {
                // Fairy-Stockfish speaking UCCI still writes `score mate M` (and `score cp N`).
                let (kind, value) = match (words.get(i + 1), words.get(i + 2)) {
                    (Some(&k @ ("cp" | "mate")), Some(v)) => {
                        i += 3;
                        (k, v.parse::<i64>().ok())
                    }
                    (Some(v), _) => {
                        i += 2;
                        ("ucci", v.parse::<i64>().ok())
                    }
                    _ => {
                        i += 1;
                        ("", None)
                    }
                };
                if let Some(v) = value {
                    t.score = Some(match kind {
                        "mate" => format!("#{v}"),
                        "ucci" if v.abs() > UCCI_BAN as i64 && v.abs() <= UCCI_MATE as i64 => {
                            // Plies to mate → moves, signed from the engine's side.
                            let moves = (UCCI_MATE as i64 - v.abs() + 1) / 2;
                            format!("#{}", if v > 0 { moves } else { -moves })
                        }
                        _ => format!("{:+.2}", v as f64 / 100.0),
                    });
                }
            }
            "pv" | "string" => break,
            _ => i += 1,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_lines() {
        let clock = Go::Clock {
            red: 1000,
            black: 2000,
            incs: [10, 10],
            movestogo: None,
            side: Color::Black,
        };
        assert_eq!(
            clock.line(Dialect::Uci),
            "go wtime 1000 btime 2000 winc 10 binc 10"
        );
        assert_eq!(
            clock.line(Dialect::Ucci),
            "go time 2000 increment 10 opptime 1000 oppincrement 10"
        );
        let mtg = Go::Clock {
            red: 1000,
            black: 2000,
            incs: [10, 10],
            movestogo: Some(7),
            side: Color::Red,
        };
        assert_eq!(
            mtg.line(Dialect::Uci),
            "go wtime 1000 btime 2000 winc 10 binc 10 movestogo 7"
        );
        assert_eq!(
            mtg.line(Dialect::Ucci),
            "go time 1000 movestogo 7 opptime 2000 oppmovestogo 7"
        );
        assert_eq!(
            Go::MoveTime(50).line(Dialect::Ucci),
            "go time 50 movestogo 1"
        );
        assert_eq!(Go::MoveTime(50).line(Dialect::Uci), "go movetime 50");
        assert_eq!(Go::Nodes(9).line(Dialect::Ucci), "go nodes 9");
    }

    #[test]
    fn position_lines() {
        let start = crate::board::START_FEN;
        let g = Game::from_moves(
            start.parse().unwrap(),
            &["h2e2", "h9g7", "e2e6", "g7e6", "h0g2"],
        )
        .unwrap();
        assert_eq!(
            position_line(&g, Dialect::Uci),
            format!("position fen {start} moves h2e2 h9g7 e2e6 g7e6 h0g2")
        );
        let after = g.positions()[4].fen();
        assert!(after.ends_with(" 0 3"), "{after}");
        assert_eq!(
            position_line(&g, Dialect::Ucci),
            format!("position fen {after} moves h0g2")
        );
        let quiet = Game::from_moves(start.parse().unwrap(), &["h2e2"]).unwrap();
        assert_eq!(
            position_line(&quiet, Dialect::Ucci),
            format!("position fen {start} moves h2e2")
        );
    }

    #[test]
    fn info_lines() {
        let mut t = Thought::default();
        note_info(
            "info depth 7 seldepth 9 score cp -35 nodes 5 pv h2e2",
            &mut t,
        );
        assert_eq!(t.depth, Some(7));
        assert_eq!(t.score.as_deref(), Some("-0.35"));
        note_info("info depth 8 score mate -2 pv a0a1", &mut t);
        assert_eq!(t.score.as_deref(), Some("#-2"));
        note_info("info depth 6 score 9997 pv a0a1", &mut t);
        assert_eq!(t.score.as_deref(), Some("#2"));
        note_info("info depth 6 score 12 pv a0a1", &mut t);
        assert_eq!(t.score.as_deref(), Some("+0.12"));
        // Fairy-Stockfish's UCCI: `score mate M` as in UCI.
        note_info(
            "info depth 7 seldepth 4 score mate 2 nodes 39 pv d0e0",
            &mut t,
        );
        assert_eq!(t.score.as_deref(), Some("#2"));
        note_info("info string score cp 99", &mut t);
        assert_eq!(t.score.as_deref(), Some("#2"));
    }
}
