//! One engine process, shared by every tool that talks to engines (the match runner's
//! `Engine`, the soak's driver): spawning, sending with a short memory of what was sent, reading lines
//! with the moment each arrived, the handshake, sorting a line by what it says, `quit`, and the
//! process's resident memory.
//!
//! The invariant that matters: every wait is bounded and no process outlives its `Process`. A
//! reader thread per process feeds a channel, every read takes a deadline, and dropping a
//! `Process` kills what is still running.

use crate::protocol::Dialect;
use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// How many lines sent a `Process` remembers (for reports of what went wrong).
const REMEMBERED: usize = 10;
/// A remembered line longer than this is cut (a long `position` line says little more).
const REMEMBERED_CHARS: usize = 120;

/// What can go wrong with an engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineError {
    /// The process could not be started (bad command or directory).
    Spawn(String),
    /// No `uciok`/`ucciok` in time in any dialect tried.
    Handshake,
    /// The process exited or closed its output.
    Crash,
    /// No answer before the deadline.
    Timeout,
    /// No `readyok` to `isready` in time.
    NotReady,
}

impl std::fmt::Display for EngineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EngineError::Spawn(e) => write!(f, "could not start: {e}"),
            EngineError::Handshake => write!(f, "no handshake (wrong dialect?)"),
            EngineError::Crash => write!(f, "crashed"),
            EngineError::Timeout => write!(f, "timed out"),
            EngineError::NotReady => write!(f, "did not answer isready"),
        }
    }
}

/// An engine command line that cannot be split into words.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CommandLineError {
    /// A quote opened and never closed; carries the command line.
    #[error("unbalanced quote in command '{0}'")]
    UnbalancedQuote(String),
}

/// Splits a command line into words: white space separates, single and double quotes group,
/// and a backslash outside single quotes escapes as this platform's command lines do (see
/// [`Backslash`]).
pub fn split_command(s: &str) -> Result<Vec<String>, CommandLineError> {
    split_words(s, Backslash::HERE)
}

/// What a backslash outside single quotes means in a command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backslash {
    /// It escapes the next character, as in a Unix shell (`f\ g` is one word).
    EscapesAny,
    /// It escapes a double quote only and is otherwise itself, as on Windows, where it
    /// separates the folders of a path (`C:\engines\pikafish.exe`).
    EscapesQuote,
}

impl Backslash {
    /// This platform's meaning.
    pub const HERE: Backslash = if cfg!(windows) {
        Backslash::EscapesQuote
    } else {
        Backslash::EscapesAny
    };
}

/// Splits `s` into words as `split_command` does, with `backslash` as the backslash's meaning.
pub fn split_words(s: &str, backslash: Backslash) -> Result<Vec<String>, CommandLineError> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut quote: Option<char> = None;
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some('\''), '\'') | (Some('"'), '"') => quote = None,
            (Some('"') | None, '\\') => {
                let next = chars.peek().copied();
                match (backslash, next) {
                    (Backslash::EscapesAny, Some(n)) | (Backslash::EscapesQuote, Some(n @ '"')) => {
                        word.push(n);
                        chars.next();
                        in_word = true;
                    }
                    (Backslash::EscapesAny, None) => {}
                    (Backslash::EscapesQuote, _) => {
                        word.push('\\');
                        in_word = true;
                    }
                }
            }
            (Some(_), c) => word.push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                in_word = true;
            }
            (None, c) if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            (None, c) => {
                word.push(c);
                in_word = true;
            }
        }
    }
    if quote.is_some() {
        return Err(CommandLineError::UnbalancedQuote(s.to_string()));
    }
    if in_word {
        words.push(word);
    }
    Ok(words)
}

/// A running engine process.
pub struct Process {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<(String, Instant)>,
    sent: VecDeque<String>,
}

/// What an engine's output line says, as far as a driver cares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Line<'a> {
    /// `readyok`.
    ReadyOk,
    /// The end of a search: `bestmove …` or `nobestmove`.
    Terminal,
    /// `bye`, UCCI's answer to `quit`.
    Bye,
    /// `info string <text>`: the text.
    Note(&'a str),
    /// Any other `info` line.
    Info,
    /// Chariot's answer to `eval`: the network's value (side to move) and whether the network
    /// is the evaluation in use.
    Eval {
        /// The network's value, centipawns.
        network: i32,
        /// The network is in use (not the classical evaluation).
        in_use: bool,
    },
    /// A protocol keyword inside some other line (`xreadyok`, `info bestmove` is an `Info`).
    Garbled,
    /// Anything else.
    Other,
}

impl<'a> Line<'a> {
    /// Sorts one line, as read (not trimmed).
    pub fn classify(line: &'a str) -> Line<'a> {
        if line == "readyok" {
            Line::ReadyOk
        } else if line.starts_with("bestmove") || line == "nobestmove" {
            Line::Terminal
        } else if line == "bye" {
            Line::Bye
        } else if let Some(note) = line.strip_prefix("info string ") {
            Line::Note(note)
        } else if line.starts_with("info ") {
            Line::Info
        } else if let Some(rest) = line.strip_prefix("classical ") {
            // `classical C network V (side to move; network|classical in use)`
            let w: Vec<&str> = rest.split_whitespace().collect();
            match (w.get(1), w.get(2).and_then(|v| v.parse().ok())) {
                (Some(&"network"), Some(network)) => Line::Eval {
                    network,
                    in_use: rest.contains("network in use"),
                },
                _ => Line::Other,
            }
        } else if ["readyok", "bestmove", "uciok"]
            .iter()
            .any(|k| line.contains(k))
        {
            Line::Garbled
        } else {
            Line::Other
        }
    }
}

/// A process's resident memory: `/proc/<pid>/status` on Linux, the working set on Windows.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Memory {
    /// `VmRSS` (Windows: the working set), MiB.
    pub rss_mb: f64,
    /// `VmHWM`, the peak of `VmRSS` (Windows: the peak working set), MiB.
    pub hwm_mb: f64,
}

/// Whether [`Process::memory`] can read a process's memory on this platform.
pub const MEMORY_READABLE: bool = cfg!(any(target_os = "linux", windows));

/// This platform's names of [`Memory`]'s two readings, for reports.
pub const MEMORY_NAMES: [&str; 2] = if cfg!(windows) {
    ["working set", "peak working set"]
} else {
    ["VmRSS", "VmHWM"]
};

impl Process {
    /// Starts `words` (the program, then its arguments) in `dir`, with stdin and stdout piped
    /// and stderr dropped.
    pub fn spawn(words: &[String], dir: Option<&str>) -> Result<Process, EngineError> {
        let (program, args) = words
            .split_first()
            .ok_or_else(|| EngineError::Spawn("empty command".into()))?;
        let mut cmd = Command::new(program);
        cmd.args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        if let Some(d) = dir {
            cmd.current_dir(d);
        }
        let mut child = cmd
            .spawn()
            .map_err(|e| EngineError::Spawn(format!("{program}: {e}")))?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(EngineError::Crash);
        };
        Ok(Process {
            child,
            stdin,
            lines: read_lines(stdout, |line| (line, Instant::now())),
            sent: VecDeque::with_capacity(REMEMBERED),
        })
    }

    /// Starts a command line (split by `split_command`).
    pub fn spawn_command(command: &str, dir: Option<&str>) -> Result<Process, EngineError> {
        let words = split_command(command).map_err(|e| EngineError::Spawn(e.to_string()))?;
        Process::spawn(&words, dir)
    }

    /// The process id.
    pub fn id(&self) -> u32 {
        self.child.id()
    }

    /// Sends one line; `Crash` when the engine no longer reads.
    pub fn send(&mut self, line: &str) -> Result<(), EngineError> {
        if self.sent.len() == REMEMBERED {
            self.sent.pop_front();
        }
        self.sent.push_back(if line.len() > REMEMBERED_CHARS {
            let cut: String = line.chars().take(REMEMBERED_CHARS - 3).collect();
            format!("{cut}...")
        } else {
            line.to_string()
        });
        writeln!(self.stdin, "{line}")
            .and_then(|_| self.stdin.flush())
            .map_err(|_| EngineError::Crash)
    }

    /// The last lines sent, oldest first, joined by ` | ` (long ones cut).
    pub fn sent(&self) -> String {
        let lines: Vec<&str> = self.sent.iter().map(String::as_str).collect();
        lines.join(" | ")
    }

    /// The next line as read (line end stripped) and when it arrived, waiting until
    /// `deadline`: `Timeout` then, `Crash` when the engine closed its output.
    pub fn recv(&self, deadline: Instant) -> Result<(String, Instant), EngineError> {
        match self
            .lines
            .recv_timeout(deadline.saturating_duration_since(Instant::now()))
        {
            Ok(x) => Ok(x),
            Err(RecvTimeoutError::Timeout) => Err(EngineError::Timeout),
            Err(RecvTimeoutError::Disconnected) => Err(EngineError::Crash),
        }
    }

    /// Reads lines (trimmed) until `pred` accepts one, which it returns, or until `deadline`.
    pub fn wait_for(
        &self,
        deadline: Instant,
        mut pred: impl FnMut(&str) -> bool,
    ) -> Result<String, EngineError> {
        loop {
            let (line, _) = self.recv(deadline)?;
            let line = line.trim();
            if pred(line) {
                return Ok(line.to_string());
            }
        }
    }

    /// The handshake of `dialect` (`uci` → `uciok`, `ucci` → `ucciok`) within `deadline`;
    /// a UCCI engine is then asked for milliseconds in `go time` (engines that always use them
    /// ignore it). Returns the engine's `id name`, if it gave one.
    pub fn handshake(
        &mut self,
        dialect: Dialect,
        deadline: Instant,
    ) -> Result<Option<String>, EngineError> {
        let (hello, reply) = match dialect {
            Dialect::Uci => ("uci", "uciok"),
            Dialect::Ucci => ("ucci", "ucciok"),
        };
        self.send(hello)?;
        let mut id = None;
        self.wait_for(deadline, |l| {
            if let Some(n) = l.strip_prefix("id name ") {
                id = Some(n.trim().to_string()).filter(|n| !n.is_empty());
            }
            l == reply
        })
        .map_err(|e| match e {
            EngineError::Timeout => EngineError::Handshake,
            e => e,
        })?;
        if dialect == Dialect::Ucci {
            self.send("setoption usemillisec true")?;
        }
        Ok(id)
    }

    /// Whether the process is still running.
    pub fn alive(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    /// Sends `quit` and waits up to `grace` for the process to leave; whether it left.
    pub fn quit(&mut self, grace: Duration) -> bool {
        let _ = self.send("quit");
        let deadline = Instant::now() + grace;
        loop {
            if let Ok(Some(_)) = self.child.try_wait() {
                return true;
            }
            if Instant::now() >= deadline {
                return false;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
    }

    /// The resident memory now and at its peak; `None` where this platform cannot tell it
    /// (see [`MEMORY_READABLE`]) or the process has gone.
    pub fn memory(&self) -> Option<Memory> {
        memory_of(&self.child)
    }
}

/// `VmRSS` and `VmHWM` from `/proc/<pid>/status`.
#[cfg(target_os = "linux")]
fn memory_of(child: &Child) -> Option<Memory> {
    let status = std::fs::read_to_string(format!("/proc/{}/status", child.id())).ok()?;
    let field = |name: &str| {
        status
            .lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|r| r.split_whitespace().next())
            .and_then(|v| v.parse::<f64>().ok())
            .map(|kb| kb / 1024.0)
    };
    Some(Memory {
        rss_mb: field("VmRSS:")?,
        hwm_mb: field("VmHWM:")?,
    })
}

/// The working set and its peak, from `GetProcessMemoryInfo` (exported by kernel32 as
/// `K32GetProcessMemoryInfo` since Windows 7, so no psapi import library is needed).
#[cfg(windows)]
fn memory_of(child: &Child) -> Option<Memory> {
    use std::os::windows::io::AsRawHandle;
    /// `PROCESS_MEMORY_COUNTERS`.
    #[repr(C)]
    #[derive(Default)]
    struct Counters {
        cb: u32,
        page_fault_count: u32,
        peak_working_set_size: usize,
        working_set_size: usize,
        pools: [usize; 4],
        pagefile_usage: usize,
        peak_pagefile_usage: usize,
    }
    #[link(name = "kernel32")]
    extern "system" {
        fn K32GetProcessMemoryInfo(
            process: *mut std::ffi::c_void,
            counters: *mut Counters,
            cb: u32,
        ) -> i32;
    }
    let mut c = Counters {
        cb: std::mem::size_of::<Counters>() as u32,
        ..Counters::default()
    };
    // SAFETY: the handle is the child's own, open while `child` lives (std's process handle
    // has every access right); the call writes at most `cb` bytes into `c`.
    let ok = unsafe { K32GetProcessMemoryInfo(child.as_raw_handle(), &mut c, c.cb) };
    const MIB: f64 = 1024.0 * 1024.0;
    (ok != 0).then(|| Memory {
        rss_mb: c.working_set_size as f64 / MIB,
        hwm_mb: c.peak_working_set_size as f64 / MIB,
    })
}

#[cfg(not(any(target_os = "linux", windows)))]
fn memory_of(_child: &Child) -> Option<Memory> {
    None
}

impl Drop for Process {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

/// Reads `stdout` line by line on a thread of its own (line ends stripped, decoded lossily),
/// sending `f(line)` for each until the pipe closes or the receiver is gone.
fn read_lines<T: Send + 'static>(
    stdout: std::process::ChildStdout,
    f: impl Fn(String) -> T + Send + 'static,
) -> Receiver<T> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut r = BufReader::new(stdout);
        let mut buf = Vec::new();
        loop {
            buf.clear();
            match r.read_until(b'\n', &mut buf) {
                Ok(0) | Err(_) => return,
                Ok(_) => {
                    while buf.last().is_some_and(|&b| b == b'\n' || b == b'\r') {
                        buf.pop();
                    }
                    if tx
                        .send(f(String::from_utf8_lossy(&buf).into_owned()))
                        .is_err()
                    {
                        return;
                    }
                }
            }
        }
    });
    rx
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn command_words() {
        assert_eq!(
            split_command(r#"a 'b c' "d \"e\"" f\ g"#).unwrap(),
            vec!["a", "b c", "d \"e\"", "f g"]
        );
        assert_eq!(split_command("  ").unwrap(), Vec::<String>::new());
        assert!(split_command("a 'b").is_err());
        assert_eq!(
            split_command("x \"y").unwrap_err().to_string(),
            "unbalanced quote in command 'x \"y'"
        );
    }

    #[test]
    fn a_backslash_is_a_folder_separator_on_windows_and_an_escape_elsewhere() {
        let line = r#"C:\engines\pikafish.exe "D:\my nets\x.nnue" say\"hi\" a\ b"#;
        assert_eq!(
            split_words(line, Backslash::EscapesQuote).unwrap(),
            vec![
                r"C:\engines\pikafish.exe",
                r"D:\my nets\x.nnue",
                "say\"hi\"",
                r"a\",
                "b"
            ]
        );
        assert_eq!(
            split_words(line, Backslash::EscapesAny).unwrap(),
            vec![
                "C:enginespikafish.exe",
                "D:my netsx.nnue",
                "say\"hi\"",
                "a b"
            ]
        );
        assert_eq!(
            split_words(r"x\", Backslash::EscapesQuote).unwrap(),
            vec![r"x\"]
        );
        assert_eq!(
            split_words(r"x\", Backslash::EscapesAny).unwrap(),
            vec!["x"]
        );
    }

    #[test]
    fn lines_are_sorted_by_what_they_say() {
        assert_eq!(Line::classify("readyok"), Line::ReadyOk);
        assert_eq!(Line::classify("bestmove h2e2 ponder h9g7"), Line::Terminal);
        assert_eq!(Line::classify("nobestmove"), Line::Terminal);
        assert_eq!(Line::classify("bye"), Line::Bye);
        assert_eq!(Line::classify("info string hello"), Line::Note("hello"));
        assert_eq!(Line::classify("info depth 3 score cp 5"), Line::Info);
        assert_eq!(
            Line::classify("classical 12 network -30 (side to move; network in use)"),
            Line::Eval {
                network: -30,
                in_use: true
            }
        );
        assert_eq!(Line::classify("xreadyok"), Line::Garbled);
        assert_eq!(Line::classify("id name Chariot"), Line::Other);
    }
}
