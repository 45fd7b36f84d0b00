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

fn field<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let mut words = line.split_whitespace();
    words.find(|&w| w == key)?;
    words.next()
}

fn number(line: &str, key: &str) -> u64 {
    field(line, key)
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("no {key} in {line}"))
}

/// The line before the terminal one: it must be an `info` with the final score.
fn final_info(out: &[String]) -> &str {
    assert!(out.len() >= 2, "{out:?}");
    let last = &out[out.len() - 2];
    assert!(
        last.starts_with("info depth ") && last.contains(" score "),
        "no final info before {:?}: {out:?}",
        out.last()
    );
    last
}

/// Every `info` line with a score carries `nps` and (UCI) `hashfull`.
fn assert_counts(out: &[String], hashfull: bool) {
    for l in out.iter().filter(|l| l.contains(" score ")) {
        assert!(l.contains(" nps "), "{l}");
        assert_eq!(l.contains(" hashfull "), hashfull, "{l}");
    }
}

fn uci() -> Engine {
    let mut e = Engine::start();
    e.send("uci");
    e.until(5.0, |l| l == "uciok");
    e
}

/// `go movetime N` thinks N − Move Overhead ms (measured from when the engine read the `go`, so
/// at least that long from when it was sent), however early the last iteration ended, and not
/// much longer; with a single legal move it answers at once.
#[test]
fn movetime_is_the_time() {
    let mut e = uci();
    e.send("setoption name Move Overhead value 0");
    e.ready();
    for (ms, overhead) in [(500u64, 0u64), (300, 0)] {
        let t = Instant::now();
        e.send(&format!("go movetime {ms}"));
        let out = e.bestmove(5.0);
        let took = t.elapsed();
        assert!(
            took >= Duration::from_millis(ms - overhead),
            "movetime {ms} answered after {took:?}"
        );
        assert!(
            took <= Duration::from_millis(ms + 150),
            "movetime {ms} answered after {took:?}"
        );
        assert_counts(&out, true);
        assert!(number(final_info(&out), "time") >= ms - overhead);
    }
    e.send("setoption name Move Overhead value 100");
    e.ready();
    let t = Instant::now();
    e.send("go movetime 400");
    e.bestmove(5.0);
    let took = t.elapsed();
    assert!(
        took >= Duration::from_millis(300) && took <= Duration::from_millis(450),
        "movetime 400 with overhead 100 took {took:?}"
    );
    // One legal move (d9e9): nothing to think about.
    e.send("position fen 3k5/R8/9/9/9/9/9/9/9/5K3 b");
    let t = Instant::now();
    e.send("go movetime 3000");
    let out = e.bestmove(5.0);
    assert!(
        t.elapsed() < Duration::from_millis(1000),
        "{:?}",
        t.elapsed()
    );
    assert_eq!(out.last().map(String::as_str), Some("bestmove d9e9"));
    final_info(&out);
}

/// `go depth`, `go nodes` and `go mate` end exactly when their condition is met.
#[test]
fn depth_nodes_and_mate_stop_exactly() {
    let mut e = uci();
    e.send("go depth 6");
    let out = e.bestmove(20.0);
    assert_eq!(number(final_info(&out), "depth"), 6);
    assert!(
        out.iter().all(|l| !l.starts_with("info depth 7 ")),
        "{out:?}"
    );
    for n in [5000u64, 20000] {
        e.send("ucinewgame");
        e.send(&format!("go nodes {n}"));
        let out = e.bestmove(20.0);
        assert_eq!(number(final_info(&out), "nodes"), n, "{out:?}");
        assert_counts(&out, true);
    }
    // Mate in 4: the search ends as soon as a root move is proved to mate in at most 4 moves,
    // before the iteration that proves it has searched the other moves.
    e.send("position fen 5abr1/4k4/b7n/2C1p4/p1P2c3/6p1P/P1R1P1p2/N8/3rA4/2BAK1BNc b - - 0 30");
    e.send("ucinewgame");
    e.send("go mate 4");
    let out = e.bestmove(60.0);
    let last = final_info(&out);
    let mate = number(last, "mate");
    assert!((1..=4).contains(&mate), "{last}");
    assert_eq!(
        out.last()
            .map(String::as_str)
            .unwrap_or("")
            .split(' ')
            .nth(1),
        Some("h9h0")
    );
    let (depth, nodes) = (number(last, "depth"), number(last, "nodes"));
    e.send("ucinewgame");
    e.send(&format!("go depth {depth}"));
    let full = e.bestmove(60.0);
    let full_nodes = number(final_info(&full), "nodes");
    assert!(
        nodes < full_nodes,
        "go mate 4 searched {nodes} nodes, the whole depth {depth} {full_nodes}"
    );
}

/// After `stop` (also at once), the last `info` before `bestmove` has the score, and the final
/// node count and time; in UCCI too.
#[test]
fn a_final_info_line_before_every_bestmove() {
    let mut e = uci();
    e.send("go infinite");
    let mut out = e.until(5.0, |l| l.starts_with("info depth 8 "));
    e.send("stop");
    out.extend(e.bestmove(2.0));
    let last = final_info(&out);
    let best = out.last().and_then(|l| l.split(' ').nth(1)).unwrap_or("");
    assert_eq!(field(last, "pv"), Some(best), "{out:?}");
    assert_counts(&out, true);
    // Stopped before anything was searched: still a score.
    e.send("go infinite");
    e.send("stop");
    let out = e.bestmove(2.0);
    final_info(&out);
    assert_counts(&out, true);
    // A search that ends on its own ends on its last iteration's line.
    e.send("go depth 3");
    let out = e.bestmove(5.0);
    assert_eq!(number(final_info(&out), "depth"), 3);

    let mut e = Engine::start();
    e.send("ucci");
    e.until(5.0, |l| l == "ucciok");
    e.send("go depth infinite");
    let mut out = e.until(5.0, |l| l.starts_with("info depth 6 "));
    e.send("stop");
    out.extend(e.bestmove(2.0));
    let last = final_info(&out);
    assert!(!last.contains(" cp "), "UCCI scores are bare: {last}");
    assert_counts(&out, false);
}

/// A search running more than 3 s names each root move it starts, legal and numbered from 1.
#[test]
fn currmove_after_three_seconds() {
    let mut e = uci();
    e.send("position startpos moves h2e2");
    let t = Instant::now();
    e.send("go infinite");
    let mut out = e.until_timed(60.0, |l| l.contains(" currmove "));
    e.send("stop");
    out.extend(e.until_timed(5.0, |l| l.starts_with("bestmove")));
    let cur: Vec<&(String, Instant)> = out
        .iter()
        .filter(|(l, _)| l.contains(" currmove "))
        .collect();
    assert!(!cur.is_empty(), "no currmove in {out:?}");
    let start = chariot::board::Game::from_moves(chariot::board::Position::startpos(), &["h2e2"])
        .expect("legal");
    let legal = start.position().legal_moves().len() as u64;
    for (l, at) in cur {
        assert!(*at - t >= Duration::from_millis(3000), "{l} too early");
        assert!(l.starts_with("info depth "), "{l}");
        let m = field(l, "currmove").expect("move");
        assert!(start.position().parse_move(m).is_ok(), "{l}");
        let n = number(l, "currmovenumber");
        assert!((1..=legal).contains(&n), "{l}");
    }
}

#[test]
fn uci_analyse_mode_is_an_option() {
    let mut e = Engine::start();
    e.send("uci");
    let hs = e.until(5.0, |l| l == "uciok");
    assert!(
        hs.iter()
            .any(|l| l == "option name UCI_AnalyseMode type check default false"),
        "{hs:?}"
    );
    e.send("setoption name UCI_AnalyseMode value true");
    e.send("setoption name UCI_AnalyseMode value sometimes");
    let r = e.ready();
    assert_eq!(
        r,
        vec![
            "info string bad value for UCI_AnalyseMode: expected true, false, on, off, yes, no, 1 or 0",
            "readyok"
        ]
    );
    e.send("go depth 4");
    final_info(&e.bestmove(10.0));
}

/// `ponderhit` turns a ponder search into a timed one on the clock sent with `go ponder`:
/// pondering counts towards the move's target, so a hit after a long ponder is answered at
/// once; a hit right away leaves the whole budget of that clock (seconds on a minute, a few
/// milliseconds on a fraction of a second). Until then, nothing but `info`.
#[test]
fn ponderhit_runs_on_the_clock_of_go_ponder() {
    let mut e = uci();
    e.send("setoption name Ponder value true");
    e.ready();
    let hit = |e: &mut Engine, go: &str, ponder_ms: u64| -> (Duration, Vec<String>) {
        e.send(go);
        let held = e.quiet(ponder_ms);
        assert!(held.iter().all(|l| l.starts_with("info")), "{held:?}");
        let t = Instant::now();
        e.send("ponderhit");
        let out = e.bestmove(15.0);
        (t.elapsed(), out)
    };
    let (took, out) = hit(&mut e, "go ponder wtime 3000 btime 3000", 1000);
    assert!(
        took < Duration::from_millis(100),
        "after a long ponder: {took:?}"
    );
    final_info(&out);
    let (took, _) = hit(&mut e, "go ponder wtime 60000 btime 60000", 20);
    assert!(
        took >= Duration::from_millis(500) && took < Duration::from_millis(11_000),
        "a minute on the clock: {took:?}"
    );
    let (took, _) = hit(&mut e, "go ponder wtime 400 btime 400", 20);
    assert!(
        took < Duration::from_millis(200),
        "400 ms on the clock: {took:?}"
    );
}
