//! An engine process as the platform tests drive it (Wine, QEMU, the wheel): lines in, lines
//! out with the time each was read, deadlines on every wait.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

/// A running engine and its output, line by line.
pub struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<(String, Instant)>,
    /// What ends each line sent: "\n", or "\r\n" as Windows GUIs send.
    ending: &'static str,
    /// For messages.
    name: String,
}

impl Engine {
    /// Starts `command` (its stderr discarded); lines sent end in "\n".
    pub fn start(mut command: Command) -> Engine {
        let name = format!("{command:?}");
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {name}: {e}"));
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send((line, Instant::now())).is_err() {
                    break;
                }
            }
        });
        Engine {
            child,
            stdin,
            lines,
            ending: "\n",
            name,
        }
    }

    /// The same engine, sent lines that end in CRLF.
    pub fn crlf(mut self) -> Engine {
        self.ending = "\r\n";
        self
    }

    /// Sends `line`; returns when it was written.
    pub fn send(&mut self, line: &str) -> Instant {
        write!(self.stdin, "{line}{}", self.ending).expect("the engine takes input");
        self.stdin.flush().expect("the engine takes input");
        Instant::now()
    }

    /// The lines up to and including the first for which `done` holds, each with when it was
    /// read; panics with what came after `secs`.
    pub fn until_timed(
        &mut self,
        secs: f64,
        done: impl Fn(&str) -> bool,
    ) -> Vec<(String, Instant)> {
        let deadline = Instant::now() + Duration::from_secs_f64(secs);
        let mut got = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok((line, at)) => {
                    let last = done(&line);
                    got.push((line, at));
                    if last {
                        return got;
                    }
                }
                Err(e) => panic!("{}: {e} after {secs} s; saw {got:#?}", self.name),
            }
        }
    }

    /// The next line, if one comes before `deadline`.
    pub fn line_before(&mut self, deadline: Instant) -> Option<String> {
        let left = deadline.saturating_duration_since(Instant::now());
        self.lines.recv_timeout(left).ok().map(|(line, _)| line)
    }

    /// `until_timed` without the times.
    pub fn until(&mut self, secs: f64, done: impl Fn(&str) -> bool) -> Vec<String> {
        self.until_timed(secs, done)
            .into_iter()
            .map(|(line, _)| line)
            .collect()
    }

    /// The lines up to `bestmove`, within a minute.
    pub fn bestmove(&mut self) -> Vec<String> {
        self.until(60.0, |l| l.starts_with("bestmove"))
    }

    /// `isready` answered by `readyok`.
    pub fn ready(&mut self) {
        self.send("isready");
        self.until(20.0, |l| l == "readyok");
    }

    /// The README's search, `go depth 6` after `h2e2 h9g7` in UCI: the nodes of the
    /// `info depth 6` line and the `bestmove` line.
    pub fn readme_search(&mut self, secs: f64) -> (u64, String) {
        self.send("uci");
        self.until(secs, |l| l == "uciok");
        self.send("position startpos moves h2e2 h9g7");
        self.send("go depth 6");
        let lines = self.until(secs, |l| l.starts_with("bestmove "));
        let info = lines
            .iter()
            .rfind(|l| l.starts_with("info depth 6 "))
            .unwrap_or_else(|| panic!("{}: no info depth 6 line in {lines:#?}", self.name));
        let nodes = field(info, "nodes")
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("{}: no nodes in {info}", self.name));
        (nodes, lines.last().expect("the bestmove line").clone())
    }

    /// Whether the process leaves within `secs`.
    pub fn exits_within(&mut self, secs: f64) -> bool {
        let deadline = Instant::now() + Duration::from_secs_f64(secs);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return true;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        false
    }
}

impl Drop for Engine {
    /// `quit`, a moment to leave, then the process is killed.
    fn drop(&mut self) {
        let _ = write!(self.stdin, "quit{}", self.ending);
        let _ = self.stdin.flush();
        if !self.exits_within(2.0) {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// The word after `key` in an `info` line.
pub fn field<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let mut words = line.split_whitespace();
    words.find(|&w| w == key)?;
    words.next()
}
