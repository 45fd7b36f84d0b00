//! An engine process seen from the match runner: spawning, the handshake (detecting UCI or
//! UCCI), options, `position`/`go` in the engine's dialect, and reading its answer with a time
//! limit. A crashed or hung engine is reported, killed and replaced by the caller.

use crate::board::{Color, Move};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// Which protocol an engine speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// UCI.
    Uci,
    /// UCCI.
    Ucci,
}

/// How to start an engine.
#[derive(Clone, Debug)]
pub struct EngineSpec {
    /// Command line (split on white space; the first word is the program).
    pub command: String,
    /// Working directory.
    pub dir: Option<String>,
    /// Dialect, or `None` to detect it (UCI tried first).
    pub dialect: Option<Dialect>,
    /// Options to set after the handshake, as (name, value).
    pub options: Vec<(String, String)>,
    /// Display name (else the engine's `id name`).
    pub name: Option<String>,
}

/// What can go wrong with an engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineError {
    /// The process could not be started.
    Spawn(String),
    /// No `uciok`/`ucciok`.
    Handshake,
    /// The process exited or closed its output.
    Crash,
    /// No answer in time.
    Timeout,
}

impl std::fmt::Display for EngineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EngineError::Spawn(e) => write!(f, "could not start: {e}"),
            EngineError::Handshake => write!(f, "no handshake (wrong dialect?)"),
            EngineError::Crash => write!(f, "crashed"),
            EngineError::Timeout => write!(f, "timed out"),
        }
    }
}

/// A search request.
#[derive(Clone, Copy, Debug)]
pub enum Go {
    /// Fixed depth.
    Depth(u32),
    /// Fixed nodes.
    Nodes(u64),
    /// Fixed time per move (ms).
    MoveTime(u64),
    /// Clocks (ms): Red's and Black's time, increment, side to move.
    Clock {
        /// Red's clock.
        red: u64,
        /// Black's clock.
        black: u64,
        /// Increment per move.
        inc: u64,
        /// Side to move.
        side: Color,
    },
}

/// The answer to `go`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// A move text as sent (not yet checked).
    Move(String),
    /// `nobestmove` or `bestmove (none)`.
    NoMove,
}

/// A running engine.
pub struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// The dialect in use.
    pub dialect: Dialect,
    /// The engine's name.
    pub name: String,
}

impl Engine {
    /// Starts the engine and completes the handshake. When detecting, UCI is tried first and
    /// the process is restarted before trying UCCI (some UCCI engines exit on `uci`).
    pub fn start(spec: &EngineSpec, handshake_ms: u64) -> Result<Engine, EngineError> {
        let tries: &[Dialect] = match spec.dialect {
            Some(Dialect::Uci) => &[Dialect::Uci],
            Some(Dialect::Ucci) => &[Dialect::Ucci],
            None => &[Dialect::Uci, Dialect::Ucci],
        };
        let mut last = EngineError::Handshake;
        for &d in tries {
            let mut e = Engine::spawn(spec)?;
            match e.handshake(d, spec, handshake_ms) {
                Ok(()) => {
                    if e.dialect == Dialect::Ucci {
                        e.send("setoption usemillisec true")?;
                    }
                    for (name, value) in &spec.options {
                        let line = match e.dialect {
                            Dialect::Uci => format!("setoption name {name} value {value}"),
                            Dialect::Ucci => format!("setoption {name} {value}"),
                        };
                        e.send(line.trim_end())?;
                    }
                    e.sync(handshake_ms)?;
                    return Ok(e);
                }
                Err(err) => last = err,
            }
        }
        Err(match last {
            EngineError::Spawn(s) => EngineError::Spawn(s),
            _ => EngineError::Handshake,
        })
    }

    fn spawn(spec: &EngineSpec) -> Result<Engine, EngineError> {
        let mut words = spec.command.split_whitespace();
        let program = words
            .next()
            .ok_or_else(|| EngineError::Spawn("empty command".into()))?;
        let mut cmd = Command::new(program);
        cmd.args(words)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        if let Some(d) = &spec.dir {
            cmd.current_dir(d);
        }
        let mut child = cmd.spawn().map_err(|e| EngineError::Spawn(e.to_string()))?;
        let stdin = child.stdin.take().ok_or(EngineError::Crash)?;
        let stdout = child.stdout.take().ok_or(EngineError::Crash)?;
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let mut r = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match r.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => return,
                    Ok(_) => {
                        let line = String::from_utf8_lossy(&buf).trim().to_string();
                        if tx.send(line).is_err() {
                            return;
                        }
                    }
                }
            }
        });
        Ok(Engine {
            child,
            stdin,
            lines: rx,
            dialect: Dialect::Uci,
            name: spec.name.clone().unwrap_or_else(|| spec.command.clone()),
        })
    }

    fn handshake(&mut self, d: Dialect, spec: &EngineSpec, ms: u64) -> Result<(), EngineError> {
        let (hello, reply) = match d {
            Dialect::Uci => ("uci", "uciok"),
            Dialect::Ucci => ("ucci", "ucciok"),
        };
        self.send(hello)?;
        let deadline = Instant::now() + Duration::from_millis(ms);
        let mut id = None;
        self.wait_for(deadline, |l| {
            if let Some(n) = l.strip_prefix("id name ") {
                id = Some(n.trim().to_string());
            }
            l == reply
        })?;
        self.dialect = d;
        if spec.name.is_none() {
            if let Some(n) = id {
                self.name = n;
            }
        }
        Ok(())
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) -> Result<(), EngineError> {
        writeln!(self.stdin, "{line}")
            .and_then(|_| self.stdin.flush())
            .map_err(|_| EngineError::Crash)
    }

    fn wait_for(
        &mut self,
        deadline: Instant,
        mut pred: impl FnMut(&str) -> bool,
    ) -> Result<String, EngineError> {
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(l) => {
                    if pred(&l) {
                        return Ok(l);
                    }
                }
                Err(RecvTimeoutError::Timeout) => return Err(EngineError::Timeout),
                Err(RecvTimeoutError::Disconnected) => return Err(EngineError::Crash),
            }
        }
    }

    /// `isready` → `readyok` (UCI only; UCCI engines get no wait).
    pub fn sync(&mut self, timeout_ms: u64) -> Result<(), EngineError> {
        if self.dialect == Dialect::Uci {
            self.send("isready")?;
            let deadline = Instant::now() + Duration::from_millis(timeout_ms);
            self.wait_for(deadline, |l| l == "readyok")?;
        }
        Ok(())
    }

    /// Tells the engine a new game starts.
    pub fn new_game(&mut self) -> Result<(), EngineError> {
        match self.dialect {
            Dialect::Uci => self.send("ucinewgame"),
            Dialect::Ucci => self.send("setoption newgame"),
        }
    }

    /// Sends the position and `go`, and waits until `timeout` for the answer. Returns the answer
    /// and the milliseconds it took.
    pub fn think(
        &mut self,
        fen: &str,
        moves: &[Move],
        go: Go,
        timeout: Duration,
    ) -> Result<(Answer, u64), EngineError> {
        let mut pos = format!("position fen {fen}");
        if !moves.is_empty() {
            pos.push_str(" moves");
            for m in moves {
                pos.push(' ');
                pos.push_str(&m.to_string());
            }
        }
        self.send(&pos)?;
        let go_line = match (go, self.dialect) {
            (Go::Depth(d), _) => format!("go depth {d}"),
            (Go::Nodes(n), _) => format!("go nodes {n}"),
            (Go::MoveTime(t), Dialect::Uci) => format!("go movetime {t}"),
            (Go::MoveTime(t), Dialect::Ucci) => format!("go time {t} movestogo 1"),
            (
                Go::Clock {
                    red, black, inc, ..
                },
                Dialect::Uci,
            ) => {
                format!("go wtime {red} btime {black} winc {inc} binc {inc}")
            }
            (
                Go::Clock {
                    red,
                    black,
                    inc,
                    side,
                },
                Dialect::Ucci,
            ) => {
                let (own, opp) = if side == Color::Red {
                    (red, black)
                } else {
                    (black, red)
                };
                format!("go time {own} increment {inc} opptime {opp} oppincrement {inc}")
            }
        };
        let start = Instant::now();
        self.send(&go_line)?;
        let line = self.wait_for(start + timeout, |l| {
            l.starts_with("bestmove") || l.starts_with("nobestmove")
        })?;
        let ms = start.elapsed().as_millis() as u64;
        let mut words = line.split_whitespace();
        let answer = match (words.next(), words.next()) {
            (Some("bestmove"), Some(m)) if m != "(none)" && m != "0000" => {
                Answer::Move(m.to_string())
            }
            _ => Answer::NoMove,
        };
        Ok((answer, ms))
    }

    /// Asks the engine to quit, then makes sure it is gone.
    pub fn quit(mut self) {
        let _ = self.send("quit");
        let deadline = Instant::now() + Duration::from_millis(300);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}
