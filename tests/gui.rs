//! What a GUI user takes for granted, end to end: `Hash` is the memory the process takes,
//! `go movetime` is the time it thinks, and the analysis output GUIs show (final `info` before
//! every `bestmove`, `currmove`, `hashfull`/`nps`, `ponderhit` on the clock sent with `go ponder`).

use std::io::Write;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<(String, Instant)>,
}

impl Engine {
    fn start() -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_chariot"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start engine");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            use std::io::BufRead;
            for l in std::io::BufReader::new(stdout).lines() {
                let Ok(l) = l else { return };
                if tx.send((l, Instant::now())).is_err() {
                    return;
                }
            }
        });
        Engine {
            child,
            stdin,
            lines: rx,
        }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").expect("write");
        self.stdin.flush().expect("flush");
    }

    /// Lines up to and including the first that satisfies `done`, each with when it was read.
    fn until_timed(&mut self, secs: f64, done: impl Fn(&str) -> bool) -> Vec<(String, Instant)> {
        let deadline = Instant::now() + Duration::from_secs_f64(secs);
        let mut got = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok((l, t)) => {
                    let stop = done(&l);
                    got.push((l, t));
                    if stop {
                        return got;
                    }
                }
                Err(_) => panic!("timed out after {secs} s; got {got:?}"),
            }
        }
    }

    fn until(&mut self, secs: f64, done: impl Fn(&str) -> bool) -> Vec<String> {
        self.until_timed(secs, done)
            .into_iter()
            .map(|(l, _)| l)
            .collect()
    }

    fn bestmove(&mut self, secs: f64) -> Vec<String> {
        self.until(secs, |l| l.starts_with("bestmove") || l == "nobestmove")
    }

    fn ready(&mut self) -> Vec<String> {
        self.send("isready");
        self.until(20.0, |l| l == "readyok")
    }

    /// Lines arriving within `ms`.
    fn quiet(&mut self, ms: u64) -> Vec<String> {
        let deadline = Instant::now() + Duration::from_millis(ms);
        let mut got = Vec::new();
        while let Ok((l, _)) = self
            .lines
            .recv_timeout(deadline.saturating_duration_since(Instant::now()))
        {
            got.push(l);
        }
        got
    }

    /// A `/proc/<pid>/status` field in kB (Linux).
    #[cfg(target_os = "linux")]
    fn status_kb(&self, field: &str) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id()))
            .expect("/proc status");
        status
            .lines()
            .find_map(|l| l.strip_prefix(field)?.strip_prefix(':'))
            .and_then(|v| v.split_whitespace().next()?.parse().ok())
            .expect("field")
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `Hash` bounds the process: a table of `Hash` MiB (power of two or not), the old table freed
/// before a new one is made (also when helper threads searched with it), and the rest of the
/// process within 40 MB.
#[cfg(target_os = "linux")]
#[test]
fn hash_is_the_memory() {
    let mut e = Engine::start();
    e.send("uci");
    e.until(5.0, |l| l == "uciok");
    e.send("setoption name Threads value 2");
    e.send("setoption name Hash value 96");
    e.send("go depth 6");
    e.bestmove(20.0);
    e.send("setoption name Hash value 160");
    e.ready();
    e.send("go movetime 300");
    e.bestmove(5.0);
    e.ready();
    let peak_mb = e.status_kb("VmHWM") / 1024;
    let now_mb = e.status_kb("VmRSS") / 1024;
    assert!(peak_mb <= 160 + 40, "peak RSS {peak_mb} MB at Hash 160");
    assert!(now_mb >= 160, "RSS {now_mb} MB: the table is not all there");
}
