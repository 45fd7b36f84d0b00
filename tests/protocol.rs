//! The engine process end to end: transcripts in both dialects, timing of `stop` and
//! `movetime`, bad input of every kind, and random garbage.

use chariot::board::{Game, Position};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::io::Write;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    seen: Vec<String>,
}

/// The engine as a child process with piped stdin and stdout.
fn spawn_engine() -> std::process::Child {
    Command::new(env!("CARGO_BIN_EXE_chariot"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start engine")
}

impl Engine {
    fn start() -> Engine {
        let mut child = spawn_engine();
        let stdin = child.stdin.take();
        let mut stdout = child.stdout.take().expect("stdout");
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            use std::io::BufRead;
            let mut r = std::io::BufReader::new(&mut stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match r.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => return,
                    Ok(_) => {
                        let l = String::from_utf8(buf.clone()).expect("engine writes UTF-8");
                        assert!(l.is_ascii(), "non-ASCII output {l:?}");
                        if tx.send(l.trim_end_matches('\n').to_string()).is_err() {
                            return;
                        }
                    }
                }
            }
        });
        Engine {
            child,
            stdin,
            lines: rx,
            seen: Vec::new(),
        }
    }

    fn send_bytes(&mut self, bytes: &[u8]) {
        let s = self.stdin.as_mut().expect("stdin open");
        s.write_all(bytes).expect("write");
        s.flush().expect("flush");
    }

    fn send(&mut self, line: &str) {
        self.send_bytes(format!("{line}\n").as_bytes());
    }

    /// Lines up to and including the first that satisfies `done`, within `secs` seconds.
    fn until(&mut self, secs: f64, done: impl Fn(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + Duration::from_secs_f64(secs);
        let mut got = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(l) => {
                    self.seen.push(l.clone());
                    let stop = done(&l);
                    got.push(l);
                    if stop {
                        return got;
                    }
                }
                Err(_) => panic!("timed out after {secs} s; got {got:?}"),
            }
        }
    }

    fn bestmove(&mut self, secs: f64) -> Vec<String> {
        self.until(secs, |l| l.starts_with("bestmove") || l == "nobestmove")
    }

    /// Sends `stop` and returns the lines up to the best move, which must come within 50 ms.
    fn stop_within_50ms(&mut self) -> Vec<String> {
        let t = Instant::now();
        self.send("stop");
        let out = self.bestmove(2.0);
        assert!(
            t.elapsed() <= Duration::from_millis(50),
            "stop took {:?}",
            t.elapsed()
        );
        out
    }

    fn ready(&mut self) -> Vec<String> {
        self.send("isready");
        self.until(10.0, |l| l == "readyok")
    }

    /// Nothing more arrives within `ms`.
    fn quiet(&mut self, ms: u64) -> Vec<String> {
        let mut got = Vec::new();
        while let Ok(l) = self.lines.recv_timeout(Duration::from_millis(ms)) {
            got.push(l);
        }
        got
    }

    /// Sends `lines` and then `quit`; the process must exit cleanly within `limit_ms` of the
    /// first line. `what` names the case in the report.
    fn quit_within(&mut self, lines: &[&str], limit_ms: u128, what: &str) {
        let t = Instant::now();
        for l in lines {
            self.send(l);
        }
        self.send("quit");
        assert!(self.close_and_wait(5.0).success());
        let ms = t.elapsed().as_millis();
        eprintln!("{what}: exit in {ms} ms");
        assert!(ms <= limit_ms, "{what}: exit after {ms} ms");
    }

    fn close_and_wait(&mut self, secs: f64) -> std::process::ExitStatus {
        self.stdin = None;
        let deadline = Instant::now() + Duration::from_secs_f64(secs);
        loop {
            if let Some(s) = self.child.try_wait().expect("wait") {
                return s;
            }
            assert!(Instant::now() < deadline, "engine did not exit");
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn best_of(lines: &[String]) -> String {
    lines
        .last()
        .and_then(|l| l.split_whitespace().nth(1))
        .unwrap_or("")
        .to_string()
}

fn assert_legal(fen: Option<&str>, moves: &[&str], m: &str) {
    let start: Position = fen.map_or_else(Position::startpos, |f| f.parse().expect("valid"));
    let g = Game::from_moves(start, moves).expect("legal history");
    assert!(
        g.position().parse_move(m).is_ok(),
        "bestmove {m} is illegal"
    );
}

#[test]
fn uci_handshake_options_and_game() {
    let mut e = Engine::start();
    e.send("uci");
    let hs = e.until(5.0, |l| l == "uciok");
    assert!(hs[0].starts_with("id name Chariot"), "{hs:?}");
    assert!(hs
        .iter()
        .any(|l| l == "option name Hash type spin default 16 min 1 max 4096"));
    assert!(hs.iter().any(|l| l == "option name Clear Hash type button"));
    e.send("setoption name Hash value 32");
    e.send("setoption name Clear Hash");
    e.send("setoption name Nonsense value 3");
    let r = e.ready();
    assert!(
        r.iter().any(|l| l == "info string unknown option Nonsense"),
        "{r:?}"
    );
    e.send("ucinewgame");
    e.send("position startpos moves h2e2 h9g7 h0g2");
    e.send("go depth 5");
    let out = e.bestmove(20.0);
    assert!(
        out.iter().any(|l| l.starts_with("info depth 5 seldepth")),
        "{out:?}"
    );
    let info = out
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .expect("info");
    for field in ["score cp", "nodes", "nps", "hashfull", "time", "pv"] {
        assert!(info.contains(field), "{info} lacks {field}");
    }
    assert_legal(None, &["h2e2", "h9g7", "h0g2"], &best_of(&out));
    e.send("quit");
    assert!(e.close_and_wait(2.0).success());
}

#[test]
fn ucci_handshake_mate_scores_and_bye() {
    let mut e = Engine::start();
    e.send("ucci");
    let hs = e.until(5.0, |l| l == "ucciok");
    assert!(
        hs.iter()
            .any(|l| l == "option usemillisec type check default true"),
        "{hs:?}"
    );
    e.send("setoption hashsize 8");
    e.send("setoption nonsense 1");
    e.send("setoption usebook false");
    let r = e.ready();
    assert_eq!(r, vec!["readyok"], "unknown UCCI options are silent");
    e.send("position fen 4k4/R8/9/9/9/9/9/9/1R7/3K5 w - - 0 1");
    e.send("go depth 5");
    let out = e.bestmove(10.0);
    // Two moves mate at once (b1f1: the flying general guards d9).
    assert!(
        ["b1b9", "b1f1"].contains(&best_of(&out).as_str()),
        "{out:?}"
    );
    assert!(out.iter().any(|l| l.contains(" score 9999 ")), "{out:?}");
    e.send("position fen 3k5/R8/9/9/9/9/9/9/4R4/5K3 b - - 0 1");
    e.send("go depth 5");
    assert_eq!(e.bestmove(5.0), vec!["nobestmove"]);
    e.send("stop");
    assert_eq!(
        e.until(5.0, |_| true),
        vec!["nobestmove"],
        "UCCI stop when idle"
    );
    e.send("position startpos");
    e.send("banmoves h2e2 b2e2 h0g2 b0c2 xx");
    e.send("go time 1000 increment 0");
    let m = best_of(&e.bestmove(10.0));
    assert!(
        !["h2e2", "b2e2", "h0g2", "b0c2"].contains(&m.as_str()),
        "banned {m}"
    );
    assert_legal(None, &[], &m);
    e.send("probe startpos");
    let p = e.until(5.0, |l| l.starts_with("pophash"));
    let p = p.last().expect("pophash");
    assert!(
        p.starts_with("pophash bestmove ") && p.contains("bound"),
        "{p}"
    );
    e.send("probe fen 4k4/9/9/9/9/9/9/9/9/4K4 w");
    assert!(e.ready()[0].starts_with("info string invalid probe"));
    e.send("quit");
    assert_eq!(e.until(2.0, |l| l == "bye"), vec!["bye"]);
    assert!(e.close_and_wait(2.0).success());
}

#[test]
fn no_legal_move_in_uci() {
    let mut e = Engine::start();
    e.send("position fen R3k4/R8/9/9/9/9/9/9/9/3K5 b - - 0 1");
    e.send("go depth 3");
    assert_eq!(
        e.bestmove(5.0),
        vec!["info depth 0 score mate 0", "bestmove (none)"]
    );
}

#[test]
fn go_without_handshake_and_terminal_quietness() {
    let mut e = Engine::start();
    let t = Instant::now();
    e.send("go depth 6");
    let out = e.bestmove(10.0);
    assert!(t.elapsed() < Duration::from_secs(2));
    assert_legal(None, &[], &best_of(&out));
    assert!(e.quiet(300).is_empty(), "nothing after the terminal line");
}

#[test]
fn movetime_infinite_stop_and_isready_during_search() {
    let mut e = Engine::start();
    e.send("uci");
    e.until(5.0, |l| l == "uciok");
    e.send("setoption name Move Overhead value 0");
    e.ready();
    let t = Instant::now();
    e.send("go movetime 500");
    e.bestmove(5.0);
    let took = t.elapsed();
    assert!(
        took <= Duration::from_millis(600),
        "movetime 500 took {took:?}"
    );
    assert!(
        took >= Duration::from_millis(250),
        "movetime 500 took only {took:?}"
    );

    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(300));
    let t = Instant::now();
    e.send("isready");
    e.until(1.0, |l| l == "readyok");
    assert!(
        t.elapsed() < Duration::from_millis(100),
        "readyok during search"
    );
    std::thread::sleep(Duration::from_millis(200));
    let out = e.stop_within_50ms();
    assert_legal(None, &[], &best_of(&out));

    // Pondering holds the result until ponderhit, then answers within the limits.
    e.send("go ponder movetime 200");
    assert!(e.quiet(400).iter().all(|l| !l.starts_with("bestmove")));
    e.send("ponderhit");
    e.bestmove(2.0);

    // Queued commands after an infinite search stop it and run in order.
    e.send("go infinite");
    e.send("position startpos moves h2e2");
    e.send("go depth 2");
    let first = e.bestmove(2.0);
    assert_legal(None, &[], &best_of(&first));
    let second = e.bestmove(5.0);
    assert_legal(None, &["h2e2"], &best_of(&second));

    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    let t = Instant::now();
    e.send("quit");
    assert!(e.close_and_wait(1.0).success());
    assert!(t.elapsed() < Duration::from_millis(300));
}

#[test]
fn path_never_holds_up_stop_isready_or_quit() {
    let scen = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/maps/TheFrozenSea.map.scen"
    );
    let mut e = Engine::start();
    e.send("uci");
    e.until(5.0, |l| l == "uciok");
    e.send("go infinite");
    e.send(&format!("path scen {scen}"));
    std::thread::sleep(Duration::from_millis(200));
    let t = Instant::now();
    e.send("isready");
    e.until(2.0, |l| l == "readyok");
    assert!(
        t.elapsed() <= Duration::from_millis(50),
        "isready during path scen took {:?}",
        t.elapsed()
    );
    let out = e.stop_within_50ms();
    assert_legal(None, &[], &best_of(&out));
    // The scenario file still finishes, in full.
    let done = e.until(120.0, |l| l.starts_with("scenarios "));
    let summary = done.last().expect("summary line");
    assert!(summary.contains("mismatches 0"), "{summary}");
    // `quit` does not wait for a path job.
    e.send(&format!("path scen {scen}"));
    std::thread::sleep(Duration::from_millis(100));
    let t = Instant::now();
    e.send("quit");
    assert!(e.close_and_wait(1.0).success());
    assert!(t.elapsed() < Duration::from_millis(300));
}

#[test]
fn isready_answers_after_the_commands_before_it() {
    let mut e = Engine::start();
    e.send("uci");
    e.until(5.0, |l| l == "uciok");
    e.send("go movetime 400");
    // Taken at once during the search: the next `d` shows the new position.
    e.send("position startpos moves h2e2");
    e.send("d");
    let out = e.ready();
    assert!(
        out.iter()
            .any(|l| l.starts_with("Fen: ") && l.contains("1C2C4")),
        "position during a search took effect before readyok: {out:?}"
    );
    assert!(out.iter().all(|l| !l.starts_with("bestmove")), "{out:?}");
    e.bestmove(3.0);
    // A `go` sent during a search supersedes it: the first search stops, the second starts,
    // and the `position` queued behind it applies after it started; `isready` comes after all.
    e.send("go movetime 5000");
    e.send("go infinite");
    e.send("position startpos moves h2e2 h9g7");
    let t = Instant::now();
    e.send("isready");
    let out = e.until(2.0, |l| l == "readyok");
    assert!(
        t.elapsed() < Duration::from_millis(500),
        "{:?}",
        t.elapsed()
    );
    assert_eq!(
        out.iter().filter(|l| l.starts_with("bestmove")).count(),
        1,
        "the first search ended, the queued one started: {out:?}"
    );
    e.send("stop");
    let second = e.bestmove(2.0);
    assert_legal(None, &["h2e2"], &best_of(&second));
    e.send("go depth 2");
    let third = e.bestmove(5.0);
    assert_legal(None, &["h2e2", "h9g7"], &best_of(&third));
}

#[test]
fn bad_input_keeps_the_last_good_state() {
    let mut e = Engine::start();
    e.send("position startpos moves h2e2");
    let expect_error = |e: &mut Engine, line: &[u8], needle: &str| {
        e.send_bytes(line);
        let r = e.ready();
        assert!(
            r.iter()
                .any(|l| l.starts_with("info string") && l.contains(needle)),
            "{:?} gave {r:?}",
            String::from_utf8_lossy(line)
        );
        for l in &r {
            assert!(l == "readyok" || l.starts_with("info string"), "{l}");
        }
        e.send("go depth 2");
        let out = e.bestmove(5.0);
        assert_legal(None, &["h2e2"], &best_of(&out));
    };
    expect_error(&mut e, b"frobnicate now\n", "unknown command frobnicate");
    expect_error(
        &mut e,
        b"position fen rnbakabnr/9/1c5c1 w\n",
        "invalid position",
    );
    expect_error(
        &mut e,
        b"position fen 4k4/9/9/9/9/9/9/9/9/4K4 w\n",
        "in check",
    );
    expect_error(
        &mut e,
        b"position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNX w\n",
        "unknown piece",
    );
    expect_error(
        &mut e,
        b"position startpos moves h2e2 h9g7 h2e2\n",
        "illegal move h2e2 at ply 3",
    );
    expect_error(
        &mut e,
        b"position startpos moves h2e2 zz\n",
        "malformed move zz at ply 2",
    );
    expect_error(&mut e, b"position banana\n", "invalid position");
    expect_error(
        &mut e,
        b"setoption name Hash value lots\n",
        "bad value for Hash",
    );
    expect_error(
        &mut e,
        b"setoption name Hash value 999999999\n",
        "bad value for Hash",
    );
    expect_error(
        &mut e,
        b"setoption name NoSuchThing value 1\n",
        "unknown option",
    );
    expect_error(&mut e, b"\xff\xfe\x00garbage\n", "unknown command");
    let mut long = vec![b'x'; 2 << 20];
    long.push(b'\n');
    expect_error(&mut e, &long, "line too long");
    // Bad go values drop the keyword and still answer.
    e.send("go depth x movetime 200");
    let out = e.bestmove(5.0);
    assert!(
        out.iter()
            .any(|l| l.contains("bad or missing value for depth")),
        "{out:?}"
    );
    // A negative depth is refused and starts nothing.
    e.send("go depth -3");
    assert_eq!(
        e.ready(),
        vec!["info string invalid go: negative depth", "readyok"]
    );
    // CRLF, tabs, blank lines and repeated spaces.
    e.send_bytes(
        b"\r\n   \n\t\n# a comment\nposition\tstartpos   moves  h2e2\t h9g7\r\r\ngo  depth\t2\r\n",
    );
    let out = e.bestmove(5.0);
    assert_legal(None, &["h2e2", "h9g7"], &best_of(&out));
    e.send("d");
    let d = e.until(5.0, |l| l.starts_with("Checkers"));
    let fen = d.iter().find(|l| l.starts_with("Fen: ")).expect("fen line");
    let pos = Game::from_moves(Position::startpos(), &["h2e2", "h9g7"]).expect("legal");
    assert_eq!(fen, &format!("Fen: {}", pos.position().fen()));
}

#[test]
fn long_move_lists_and_debug_commands() {
    let mut e = Engine::start();
    let cycle = ["h0g2", "h9g7", "g2h0", "g7h9"];
    let moves: Vec<&str> = cycle.iter().cycle().take(400).copied().collect();
    e.send(&format!("position startpos moves {}", moves.join(" ")));
    e.send("go depth 3");
    assert_legal(None, &moves, &best_of(&e.bestmove(10.0)));
    e.send("position startpos");
    e.send("go perft 3");
    let p = e.until(10.0, |l| l.starts_with("Nodes searched"));
    assert_eq!(p.last().map(String::as_str), Some("Nodes searched: 79666"));
    e.send("eval");
    let ev = e.until(5.0, |l| l.starts_with("evaluation"));
    assert!(ev.iter().any(|l| l.starts_with("material")));
    e.send("help");
    e.until(5.0, |l| l.contains("bench"));
}

#[test]
fn end_of_input_is_quit() {
    let mut e = Engine::start();
    e.send("ucci");
    e.until(5.0, |l| l == "ucciok");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    let status = e.close_and_wait(1.0);
    assert!(status.success());
}

#[test]
fn random_garbage_never_kills_the_engine() {
    let mut e = Engine::start();
    let mut rng = StdRng::seed_from_u64(7);
    let seeds = [
        "uci",
        "ucci",
        "isready",
        "setoption name Hash value 8",
        "setoption hashsize 4",
        "ucinewgame",
        "position startpos moves h2e2 h9g7",
        "position fen 4k4/R8/9/9/9/9/9/9/1R7/3K5 w",
        "go depth 1",
        "go nodes 200",
        "go movetime 20",
        "go infinite",
        "stop",
        "ponderhit",
        "banmoves h2e2",
        "probe startpos",
        "d",
        "eval",
        "go perft 1",
        "go wtime 100 btime 100",
        "position startpos moves",
        "fen 9/9/9 w",
        "setoption name",
        "go searchmoves h2e2 zz",
    ];
    let mut batch = Vec::new();
    for _ in 0..3000 {
        let mut line: Vec<u8> = seeds[rng.random_range(0..seeds.len())].as_bytes().to_vec();
        match rng.random_range(0..4) {
            0 => {
                for _ in 0..rng.random_range(1..4) {
                    let i = rng.random_range(0..line.len());
                    line[i] = rng.random();
                }
            }
            1 => {
                let n = rng.random_range(0..40);
                line = (0..n).map(|_| rng.random::<u8>()).collect();
            }
            2 => {
                let i = rng.random_range(0..line.len());
                line.truncate(i);
            }
            _ => {}
        }
        line.retain(|&b| b != b'\n');
        batch.extend_from_slice(&line);
        batch.push(b'\n');
    }
    e.send_bytes(&batch);
    e.send("stop");
    e.send("isready");
    e.until(60.0, |l| l == "readyok");
    e.send("stop");
    e.send("position startpos");
    e.send("go depth 1");
    let out = e.bestmove(60.0);
    let m = best_of(&out);
    if m != "(none)" && !m.is_empty() {
        assert_legal(None, &[], &m);
    }
    assert!(e.child.try_wait().expect("wait").is_none(), "engine exited");
}

#[test]
fn threads_option_in_both_syntaxes_and_stop_with_helpers() {
    let mut e = Engine::start();
    e.send("uci");
    let hello = e.until(5.0, |l| l == "uciok");
    assert!(hello.contains(&"option name Threads type spin default 1 min 1 max 1024".to_string()));
    e.send("setoption name Threads value 2");
    e.send("setoption name Threads value 1025");
    e.send("setoption name Threads value many");
    let refused = e.ready();
    assert_eq!(
        refused
            .iter()
            .filter(|l| l.starts_with("info string bad value for Threads"))
            .count(),
        2,
        "{refused:?}"
    );
    e.send("go depth 5");
    assert_legal(None, &[], &best_of(&e.bestmove(10.0)));
    // Resized and a new game between searches, and while one runs.
    e.send("setoption threads 2");
    e.send("ucinewgame");
    e.send("position startpos moves h2e2");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(200));
    e.send("setoption name Threads value 1");
    e.send("ucinewgame");
    std::thread::sleep(Duration::from_millis(100));
    let out = e.stop_within_50ms();
    assert_legal(None, &["h2e2"], &best_of(&out));
    e.send("setoption name Threads value 2");
    e.send("go movetime 200");
    let out = e.bestmove(3.0);
    assert_legal(None, &["h2e2"], &best_of(&out));
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(200));
    e.stop_within_50ms();
    e.send("quit");
    assert!(e.close_and_wait(2.0).success());
}

#[test]
fn multipv_lines_in_both_dialects() {
    let mut e = Engine::start();
    e.send("uci");
    e.send("setoption name MultiPV value 3");
    e.send("setoption name MultiPV value 0");
    let out = e.ready();
    assert!(out
        .iter()
        .any(|l| l.starts_with("info string bad value for MultiPV")));
    e.send("go depth 4");
    let out = e.bestmove(10.0);
    let last: Vec<&String> = out
        .iter()
        .filter(|l| l.starts_with("info depth 4 "))
        .collect();
    assert_eq!(last.len(), 3, "{out:?}");
    for (k, l) in last.iter().enumerate() {
        assert!(l.contains(&format!(" multipv {} ", k + 1)), "{l}");
    }
    let first = last[0]
        .split(" pv ")
        .nth(1)
        .and_then(|p| p.split(' ').next());
    assert_eq!(first, Some(best_of(&out).as_str()));

    let mut e = Engine::start();
    e.send("ucci");
    e.send("setoption multipv 2");
    e.send("position startpos");
    e.send("banmoves h2e2");
    e.send("go depth 3");
    let out = e.bestmove(10.0);
    let last: Vec<&String> = out
        .iter()
        .filter(|l| l.starts_with("info depth 3 "))
        .collect();
    assert_eq!(last.len(), 2, "{out:?}");
    assert!(last.iter().all(|l| !l.contains(" pv h2e2")));
    assert!(last[1].contains(" multipv 2 "));
    assert_ne!(best_of(&out), "h2e2");
}

#[test]
fn show_wdl_sums_to_1000_and_mates_are_certain() {
    let mut e = Engine::start();
    e.send("uci");
    e.send("setoption name UCI_ShowWDL value maybe");
    assert!(e
        .ready()
        .iter()
        .any(|l| l.starts_with("info string bad value for UCI_ShowWDL")));
    e.send("go depth 3");
    let out = e.bestmove(10.0);
    assert!(out.iter().all(|l| !l.contains(" wdl ")), "wdl while off");
    e.send("setoption name UCI_ShowWDL value true");
    e.send("go depth 3");
    let out = e.bestmove(10.0);
    let wdl = |l: &str| -> Vec<u32> {
        let rest = l.split(" wdl ").nth(1).expect("wdl");
        rest.split(' ')
            .take(3)
            .map(|x| x.parse().expect("number"))
            .collect()
    };
    let scored: Vec<&String> = out.iter().filter(|l| l.contains(" score ")).collect();
    assert!(!scored.is_empty());
    for l in scored {
        assert_eq!(wdl(l).iter().sum::<u32>(), 1000, "{l}");
    }
    e.send("position fen 3k1ab2/9/9/9/9/9/9/3p5/9/3K5 b");
    e.send("go depth 4");
    let out = e.bestmove(10.0);
    let last = out
        .iter()
        .rev()
        .find(|l| l.contains("score mate 1"))
        .expect("mate");
    assert_eq!(wdl(last), vec![1000, 0, 0]);
}

#[test]
fn lowest_skill_still_mates_in_one_and_plays_legal_moves() {
    let mut e = Engine::start();
    e.send("uci");
    e.send("setoption name Skill Level value 21");
    e.send("setoption name UCI_Elo value 5");
    let out = e.ready();
    assert_eq!(
        out.iter()
            .filter(|l| l.starts_with("info string bad value"))
            .count(),
        2
    );
    e.send("setoption name Skill Level value 0");
    for (fen, bm) in [
        ("3k1ab2/9/9/9/9/9/9/3p5/9/3K5 b - - 0 69", "d9e9"),
        ("3k5/9/9/2N6/9/C7P/P3P4/B4R3/9/3A1KB1R w - - 0 33", "f2f9"),
    ] {
        for _ in 0..3 {
            e.send(&format!("position fen {fen}"));
            e.send("go movetime 300");
            assert_eq!(best_of(&e.bestmove(5.0)), bm, "{fen}");
        }
    }
    let mut moves: Vec<String> = Vec::new();
    for _ in 0..12 {
        e.send(&format!("position startpos moves {}", moves.join(" ")));
        e.send("go movetime 100");
        let m = best_of(&e.bestmove(5.0));
        let refs: Vec<&str> = moves.iter().map(String::as_str).collect();
        assert_legal(None, &refs, &m);
        moves.push(m);
    }
}

/// Milliseconds from now until `readyok`, and the lines before it.
fn timed_ready(e: &mut Engine, before: &[&str]) -> (u128, Vec<String>) {
    let t = Instant::now();
    for l in before {
        e.send(l);
    }
    e.send("isready");
    let out = e.until(10.0, |l| l == "readyok");
    (t.elapsed().as_millis(), out)
}

/// `out` up to its `bestmove`, reading on if it has none yet.
fn answer(e: &mut Engine, mut out: Vec<String>) -> Vec<String> {
    if let Some(i) = out.iter().position(|l| l.starts_with("bestmove")) {
        out.truncate(i + 1);
        return out;
    }
    out.extend(e.bestmove(10.0));
    out
}

/// Long work the loop starts (a perft for hours, a bench for minutes) yields: `stop` ends it,
/// the next `go` starts and the `isready` behind it is answered at once; `quit` ends the
/// process at once. The bounds are generous for a loaded machine (a free 2-core machine
/// measures under 5 ms for each); the times are printed with `--nocapture`.
#[test]
fn long_work_yields_to_stop_go_isready_and_quit() {
    for (work, stopped) in [
        ("go perft 9", "info string perft stopped: "),
        ("bench 30", "info string bench stopped"),
    ] {
        let mut e = Engine::start();
        e.send(work);
        std::thread::sleep(Duration::from_millis(300));
        let (ms, out) = timed_ready(&mut e, &["stop", "position startpos", "go depth 1"]);
        eprintln!("{work}: stop, position, go depth 1, isready -> readyok in {ms} ms");
        assert!(ms <= 1000, "{work}: readyok after {ms} ms: {out:?}");
        assert!(out.iter().any(|l| l.starts_with(stopped)), "{out:?}");
        assert!(
            !out.iter().any(|l| l.starts_with("Nodes searched")),
            "{out:?}"
        );
        let m = best_of(&answer(&mut e, out.clone()));
        assert_legal(None, &[], &m);
        // A perft stopped prints the root moves it finished.
        if work.contains("perft") {
            let line = out.iter().find(|l| l.starts_with(stopped)).unwrap();
            assert!(line.contains(" of 44 root moves counted, "), "{line}");
        }
        // `go` (without `stop`) supersedes the long work too.
        e.send(work);
        std::thread::sleep(Duration::from_millis(200));
        let (ms, out) = timed_ready(&mut e, &["go depth 1"]);
        eprintln!("{work}: go depth 1, isready -> readyok in {ms} ms");
        assert!(ms <= 1000, "{work}: readyok after {ms} ms");
        answer(&mut e, out);
        // `quit` during the long work ends the process.
        e.send(work);
        std::thread::sleep(Duration::from_millis(200));
        e.quit_within(&[], 1000, &format!("{work}: quit"));
    }
}
/// Spawns the engine with all of `input` on stdin and the pipe closed, as a script does.
fn piped(input: &str) -> (Vec<String>, Duration) {
    let t = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_chariot"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start engine");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
        .expect("write");
    let out = child.wait_with_output().expect("wait");
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).expect("UTF-8");
    (text.lines().map(str::to_string).collect(), t.elapsed())
}

/// End of input after a bounded `go` lets it finish and answer; `quit`, or end of input
/// during `go infinite` or a ponder not yet hit, stops at once.
#[test]
fn end_of_input_lets_a_bounded_go_answer() {
    let start = "position startpos moves h2e2 h9g7\n";
    let (out, _) = piped(&format!("{start}go depth 6\n"));
    let last_info = out
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .unwrap();
    assert!(last_info.starts_with("info depth 6 "), "{out:?}");
    assert!(out.last().unwrap().starts_with("bestmove "), "{out:?}");
    for go in [
        "go nodes 30000",
        "go movetime 300",
        "go wtime 2000 btime 2000",
    ] {
        let (out, _) = piped(&format!("{start}{go}\n"));
        assert!(
            out.last().unwrap().starts_with("bestmove "),
            "{go}: {out:?}"
        );
    }
    let (out, took) = piped(&format!("{start}go movetime 400\n"));
    // The budget is movetime less Move Overhead (10 ms).
    assert!(took >= Duration::from_millis(300), "{took:?} {out:?}");
    let (out, _) = piped("position fen 4k4/R8/9/9/9/9/9/9/1R7/3K5 w - - 0 1\ngo mate 3\n");
    let mated = ["bestmove b1b9", "bestmove b1f1"];
    assert!(mated.contains(&out.last().unwrap().as_str()), "{out:?}");
    let (out, _) = piped("go perft 3\n");
    assert!(
        out.last().unwrap().starts_with("info string Time:"),
        "{out:?}"
    );
    assert!(
        out.iter().any(|l| l.starts_with("Nodes searched: ")),
        "{out:?}"
    );
    // UCCI: the answer, then `bye`; two bounded searches in a row both answer.
    let (out, _) = piped(&format!("ucci\n{start}go depth 3\ngo depth 4\n"));
    let terminal: Vec<&String> = out.iter().filter(|l| l.starts_with("bestmove")).collect();
    assert!(!terminal.is_empty(), "{out:?}");
    assert_eq!(out.last().unwrap(), "bye", "{out:?}");
    // Open-ended, or `quit`: at once (with the stopped search's move).
    for (input, what) in [
        (format!("{start}go infinite\n"), "go infinite"),
        (
            format!("{start}go ponder wtime 60000 btime 60000\n"),
            "go ponder",
        ),
        (format!("{start}go\n"), "go with no limit"),
        (format!("{start}go depth 40\nquit\n"), "quit"),
    ] {
        let (out, took) = piped(&input);
        eprintln!("{what} then end of input: exit in {took:?}");
        assert!(took <= Duration::from_millis(1500), "{what}: {took:?}");
        assert!(
            out.last().unwrap().starts_with("bestmove "),
            "{what}: {out:?}"
        );
    }
}

/// `go mate 0`, or a negative mate, asks for no mate at all: it is refused in one line in
/// both dialects, and the engine ends with its input instead of searching for ever.
#[test]
fn go_mate_0_is_refused_and_ends_with_the_input() {
    let refused = "info string invalid go: mate must be at least 1";
    for input in [
        "position startpos\ngo mate 0\n",
        "position startpos\ngo mate -3\n",
        "ucci\nposition startpos\ngo mate 0\n",
    ] {
        let mut child = spawn_engine();
        let mut stdin = child.stdin.take().expect("stdin");
        stdin.write_all(input.as_bytes()).expect("write");
        drop(stdin);
        let t = Instant::now();
        while child.try_wait().expect("wait").is_none() && t.elapsed() < Duration::from_secs(5) {
            std::thread::sleep(Duration::from_millis(20));
        }
        let ended = child.try_wait().expect("wait").is_some();
        if !ended {
            child.kill().expect("kill");
        }
        let out = child.wait_with_output().expect("wait");
        let text = String::from_utf8(out.stdout).expect("UTF-8");
        assert!(ended, "{input:?}: still searching after 5 s");
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines.contains(&refused), "{input:?}: {lines:?}");
        assert!(
            !lines.iter().any(|l| l.starts_with("bestmove")),
            "{input:?}: {lines:?}"
        );
    }
}

/// A `go` the engine does not understand starts nothing and says so in one line.
#[test]
fn go_with_an_unknown_word_or_a_bad_depth_starts_nothing() {
    let mut e = Engine::start();
    for (go, said) in [
        ("go depht 5", "info string invalid go: unknown word depht"),
        ("go depth 5 7", "info string invalid go: unknown word 7"),
        ("go depth -1", "info string invalid go: negative depth"),
        (
            "go depth 0",
            "info string invalid go: depth 0 (depths start at 1; UCCI's depth 0 is the quiescence score)",
        ),
    ] {
        e.send(go);
        assert_eq!(e.ready(), vec![said, "readyok"], "{go}");
        assert!(e.quiet(200).is_empty(), "{go} started something");
    }
    // A bad value of a known keyword only drops that keyword.
    e.send("go depth x nodes 500");
    let out = e.bestmove(10.0);
    assert_eq!(out[0], "info string go: bad or missing value for depth");
    // UCCI's depth 0 is the quiescence score.
    e.send("ucci");
    e.until(5.0, |l| l == "ucciok");
    e.send("go depth 0");
    let out = e.bestmove(5.0);
    assert!(out[0].starts_with("info depth 0 score "), "{out:?}");
    assert_eq!(out.last().unwrap(), "nobestmove");
}

/// Messages name options as typed, the `ucci` answer lists every option that works in UCCI,
/// and `help` lists every command.
#[test]
fn option_messages_ucci_announcements_and_help() {
    let mut e = Engine::start();
    e.send("setoption name Skill Level value 99");
    e.send("setoption name Move Overhead value x");
    e.send("setoption name Ponder value maybe");
    assert_eq!(
        e.ready(),
        vec![
            "info string bad value for Skill Level: expected an integer from 0 to 20",
            "info string bad value for Move Overhead: expected an integer from 0 to 5000",
            "info string bad value for Ponder: expected true, false, on, off, yes, no, 1 or 0",
            "readyok"
        ]
    );
    e.send("help");
    let help = e.until(5.0, |l| l.starts_with("  help"));
    // Only the answers themselves may contain these words.
    for l in &help {
        for w in ["readyok", "uciok", "ucciok", "bestmove"] {
            assert!(!l.contains(w), "help line with {w}: {l}");
        }
    }
    let help = help.join("\n");
    for word in [
        "probe",
        "[draw]",
        "opptime",
        "oppincrement",
        "oppmovestogo",
        "uccinewgame",
        "perft",
        "bench",
        "path",
        "banmoves",
        "ponderhit [draw]",
        "eval",
    ] {
        assert!(help.contains(word), "help lacks {word}");
    }
    e.send("ucci");
    let hs = e.until(5.0, |l| l == "ucciok");
    for name in [
        "usemillisec",
        "hashsize",
        "threads",
        "clearhash",
        "ponder",
        "multipv",
        "moveoverhead",
        "ucishowwdl",
        "ucianalysemode",
        "skilllevel",
        "ucilimitstrength",
        "ucielo",
        "newgame",
        "usennue",
        "evalfile",
    ] {
        let prefix = format!("option {name} type ");
        assert!(hs.iter().any(|l| l.starts_with(&prefix)), "{name}: {hs:?}");
        // Each announced option is accepted under that name.
        if !["newgame", "clearhash", "evalfile", "ucielo"].contains(&name) {
            e.send(&format!("setoption {name} 1"));
        }
    }
    // The search's numbers are hidden options: listed by `params` only, settable by name.
    assert!(!hs.iter().any(|l| l.contains("rfp_margin")));
    e.send("setoption name rfp_margin value 90");
    e.send("params");
    let params = e.ready();
    assert!(
        params.contains(&"option name rfp_margin type spin default 90 min 20 max 300".into()),
        "{params:?}"
    );
    e.send("setoption ucielo 99999");
    assert_eq!(
        e.ready(),
        vec![
            "info string bad value for ucielo: expected an integer from 540 to 2870",
            "readyok"
        ]
    );
}

/// `stop` ends the search running and every search queued before it (a `go` that superseded
/// the running one waits for it to end): each `go` answers once, and none runs on.
#[test]
fn stop_ends_the_searches_queued_before_it() {
    let mut e = Engine::start();
    for (gos, what) in [
        (&["go movetime 300", "go"][..], "go movetime, go"),
        (
            &["go infinite", "go infinite", "go"][..],
            "go infinite twice, go",
        ),
        (
            &["go depth 30", "go ponder", "go wtime 60000 btime 60000"][..],
            "three kinds",
        ),
    ] {
        let t = Instant::now();
        for g in gos {
            e.send(g);
        }
        e.send("stop");
        let mut answers = 0;
        while answers < gos.len() {
            e.bestmove(2.0);
            answers += 1;
        }
        eprintln!("{what}, stop: {answers} answers in {:?}", t.elapsed());
        assert!(
            t.elapsed() <= Duration::from_millis(1500),
            "{what}: {:?}",
            t.elapsed()
        );
        let out = e.ready();
        assert_eq!(out, vec!["readyok"], "{what}");
        let more = e.quiet(300);
        assert!(
            !more.iter().any(|l| l.starts_with("bestmove")),
            "{what}: {more:?}"
        );
    }
    // UCCI: the same, and the `stop` prints no extra `nobestmove`.
    e.send("ucci");
    e.until(5.0, |l| l == "ucciok");
    e.send("go depth 30");
    e.send("go");
    e.send("stop");
    e.bestmove(2.0);
    e.bestmove(2.0);
    assert_eq!(e.ready(), vec!["readyok"]);
    assert!(e.quiet(300).is_empty());
}

/// Resizing or clearing the hash table runs beside the loop: `quit` ends the process at once
/// even in the middle of a 1 GiB resize, the `readyok` after a resize comes once it took
/// effect, and a search asked for meanwhile starts after it and still obeys `stop`. The times
/// are printed with `--nocapture`.
#[test]
fn hash_resizes_never_deafen_the_loop() {
    let mut e = Engine::start();
    let (ms, out) = timed_ready(&mut e, &["setoption name Hash value 1024"]);
    eprintln!("Hash 16 -> 1024, isready: readyok in {ms} ms");
    assert_eq!(out, vec!["readyok"]);
    let (ms, out) = timed_ready(&mut e, &["setoption name Clear Hash"]);
    eprintln!("Clear Hash (1 GiB), isready: readyok in {ms} ms");
    assert_eq!(out, vec!["readyok"]);
    // A search asked for during a resize starts after it; `stop` ends it.
    let t = Instant::now();
    e.send("setoption name Hash value 512");
    e.send("go infinite");
    e.send("stop");
    let m = best_of(&e.bestmove(10.0));
    assert_legal(None, &[], &m);
    eprintln!("Hash 512, go infinite, stop: bestmove in {:?}", t.elapsed());
    assert_eq!(e.ready(), vec!["readyok"]);
    // A resize asked for during a search runs when it ends, beside the loop too.
    e.send("go infinite");
    e.send("setoption name Hash value 1024");
    e.send("stop");
    e.bestmove(2.0);
    e.quit_within(&[], 500, "go infinite, Hash 1024, stop, quit");
    for what in ["setoption name Hash value 1024", "ucinewgame"] {
        let mut e = Engine::start();
        if what == "ucinewgame" {
            timed_ready(&mut e, &["setoption name Hash value 1024"]);
        }
        e.quit_within(&[what, "isready"], 500, &format!("{what}, isready, quit"));
    }
}

/// A refused `EvalFile` is named in ASCII (other characters as `?`), never with a word a GUI
/// takes for an answer.
#[test]
fn evalfile_refusals_stay_ascii() {
    let mut e = Engine::start();
    e.send_bytes(b"setoption name EvalFile value caf\xc3\xa9\xff.nnue\n");
    let out = e.ready();
    assert_eq!(out.len(), 2, "{out:?}");
    assert!(
        out[0].starts_with("info string EvalFile caf??.nnue: cannot read the network file"),
        "{out:?}"
    );
    e.send("setoption name EvalFile value readyok.nnue");
    let out = e.ready();
    assert_eq!(out.len(), 2, "{out:?}");
    assert!(
        out[0].starts_with("info string EvalFile ????????????: "),
        "{out:?}"
    );
}

/// A `ponderhit` sent behind a `go ponder` that waits for the previous search (or for a new
/// hash table) to end is that search's: it is not lost, and the clock runs from when it was read.
#[test]
fn a_ponderhit_behind_a_waiting_go_ponder_is_kept() {
    let mut e = Engine::start();
    for change in ["", "setoption name Hash value 256"] {
        e.send("go infinite");
        std::thread::sleep(Duration::from_millis(100));
        if !change.is_empty() {
            e.send(change);
        }
        let t = Instant::now();
        e.send_bytes(
            b"stop\nposition startpos moves h2e2\ngo ponder wtime 3000 btime 3000\nponderhit\n",
        );
        e.bestmove(2.0);
        let m = best_of(&e.bestmove(3.0));
        assert_legal(None, &["h2e2"], &m);
        eprintln!(
            "{change:?}, stop, go ponder, ponderhit: bestmove in {:?}",
            t.elapsed()
        );
        assert_eq!(e.ready(), vec!["readyok"]);
    }
}
