//! Protocol fuzzing: a seeded generator over the command grammar of both dialects (handshakes,
//! `setoption` in both syntaxes, `position` with FENs and moves, `go` with every argument,
//! `stop`, `ponderhit`, `isready`, `banmoves`, `probe`, `path`, `d`, `eval`, `bench`, `quit`…),
//! with byte-level mutations on top (bytes replaced, inserted and deleted, digits changed or
//! added inside numbers, tokens doubled, swapped or dropped, white space and line breaks
//! inserted, invalid UTF-8), fed to the controller in process as the stdin reader would (lines
//! split at `\n`, decoded lossily, trimmed; over 1 MiB: `TooLong`).
//!
//! Checked: nothing panics (a panic hook counts panics on every thread, search threads
//! included); every `isready` gets its `readyok` within 10 s, and no `readyok` comes unasked;
//! every output line is ASCII, and `readyok`, `uciok`, `ucciok` and `bestmove` appear only as
//! themselves; `quit` and the end of input end the controller within 10 s.
//!
//! Long work is fed like any search: `go perft` of any depth (a digit added to `go perft 1`
//! asks for hours) and `bench` yield to `stop`, and a `stop` also ends the searches queued
//! before it, so the `stop` lines the generator emits and the one the harness sends within
//! three lines of every `go` and `bench` (and before the end of input) bound them all. Not fed:
//! `Hash` above 4 MiB and `Threads` above 4 (memory and cores); each controller starts with
//! `Hash` 1. Counts of such lines are in the summary.

use chariot::board::{Game, Position, START_FEN};
use chariot::protocol::command::{self, Command};
use chariot::protocol::controller::{Controller, Event};
use chariot::protocol::output::Out;
use chariot::protocol::MAX_LINE;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::io::Write;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex, Once};
use std::time::{Duration, Instant};

static PANICS: AtomicU64 = AtomicU64::new(0);
static HOOK: Once = Once::new();

fn count_panics() {
    HOOK.call_once(|| {
        let default = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            PANICS.fetch_add(1, Ordering::SeqCst);
            default(info);
        }));
    });
}

/// The controller's output: a buffer the harness drains line by line.
#[derive(Clone, Default)]
struct Sink(Arc<Mutex<Vec<u8>>>);

impl Write for Sink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

const FENS: &[&str] = &[
    START_FEN,
    "4k4/R8/9/9/9/9/9/9/1R7/3K5 w - - 0 1",
    "3k5/R8/9/9/9/9/9/9/4R4/5K3 b - - 0 1",
    "3ak4/9/4b4/9/9/9/9/4B4/4A4/3AK2N1 b - - 0 1",
    "3ak4/4a4/9/9/9/2P1P1P2/9/9/1R2A4/2RAK4 b - - 0 1",
    "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w - - 0 1",
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR r",
    "2bakab2/4n4/2n6/p1p3P2/9/2P1P3r/P2R5/3CB3N/4A4/4KABr1 w - - 0 28",
    "4k4/9/9/9/9/9/9/9/9/4K4 w",
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9 w",
    "9/9/9 w",
    "xyz",
];

const OPTIONS: &[(&str, &[&str])] = &[
    ("Threads", &["1", "2", "3", "0", "-1", "x"]),
    ("threads", &["1", "2", "0"]),
    ("Hash", &["1", "2", "4", "0", "-5", "lots"]),
    ("hashsize", &["1", "4", "0"]),
    ("Clear Hash", &[""]),
    ("clearhash", &[""]),
    ("Ponder", &["true", "false", "on", "0", "maybe"]),
    ("MultiPV", &["1", "2", "3", "5", "0", "128", "129"]),
    ("Move Overhead", &["0", "10", "100", "5000", "5001"]),
    ("UCI_ShowWDL", &["true", "false", "yes"]),
    ("UCI_AnalyseMode", &["true", "false"]),
    ("Skill Level", &["0", "5", "19", "20", "21"]),
    ("skilllevel", &["3", "20"]),
    ("UCI_LimitStrength", &["true", "false"]),
    ("UCI_Elo", &["540", "1500", "2870", "539", "9999"]),
    ("Use NNUE", &["true", "false", "off"]),
    ("usennue", &["1", "0"]),
    (
        "EvalFile",
        &[
            "",
            "<empty>",
            "no-such-network.nnue",
            "caf\u{e9}.nnue",
            "readyok.nnue",
            "Cargo.toml",
            "src/eval/nnue/nets/default.nnue",
        ],
    ),
    ("usemillisec", &["true", "false"]),
    ("newgame", &[""]),
    ("batch", &["on"]),
    ("debug", &["true"]),
    ("usebook", &["false"]),
    ("UCI_Variant", &["xiangqi"]),
    ("UCCI_Xiangqi", &["true"]),
    ("Nonsense Option", &["1"]),
];

/// The generator: commands of the grammar, then mutations.
struct Gen {
    rng: StdRng,
}

impl Gen {
    fn number(&mut self, small: u64) -> String {
        match self.rng.random_range(0..20) {
            0 => "-3".into(),
            1 => "x".into(),
            2 => "18446744073709551615".into(),
            3 => "99999999999999999999".into(),
            4 => "0".into(),
            _ => self.rng.random_range(1..=small).to_string(),
        }
    }

    /// A start position (text) and, for a legal one, a game played on from it.
    fn start(&mut self) -> (String, Option<Game>) {
        if self.rng.random_bool(0.4) {
            return ("startpos".into(), Some(Game::new(Position::startpos())));
        }
        let fen = FENS[self.rng.random_range(0..FENS.len())];
        let game = fen.parse::<Position>().ok().map(Game::new);
        (format!("fen {fen}"), game)
    }

    /// Move texts from `game`: mostly legal, sometimes an illegal or garbled one.
    fn moves(&mut self, game: Option<Game>, max: usize) -> Vec<String> {
        let mut out = Vec::new();
        let Some(mut g) = game else {
            return vec!["h2e2".into()];
        };
        for _ in 0..self.rng.random_range(0..=max) {
            let legal: Vec<_> = g.position().legal_moves().iter().collect();
            if legal.is_empty() {
                break;
            }
            let m = legal[self.rng.random_range(0..legal.len())];
            if g.play(m).is_err() {
                break;
            }
            out.push(m.to_string());
        }
        match self.rng.random_range(0..12) {
            0 => out.push("a0a9".into()),
            1 => out.push("z9".into()),
            2 => out.push("0000".into()),
            3 => out.push(out.last().cloned().unwrap_or_else(|| "H2E2".into())),
            _ => {}
        }
        out
    }

    fn position(&mut self, word: &str) -> String {
        let (start, game) = self.start();
        let moves = self.moves(game, 30);
        let mut line = if word.is_empty() {
            start
        } else {
            format!("{word} {start}")
        };
        if !moves.is_empty() || self.rng.random_bool(0.2) {
            line.push_str(" moves");
            for m in moves {
                line.push(' ');
                line.push_str(&m);
            }
        }
        line
    }

    fn go(&mut self) -> String {
        let mut line = String::from("go");
        let n = self.rng.random_range(0..5);
        for _ in 0..n {
            let arg = match self.rng.random_range(0..20) {
                0 => format!("wtime {}", self.number(3000)),
                1 => format!("btime {}", self.number(3000)),
                2 => format!("winc {}", self.number(50)),
                3 => format!("binc {}", self.number(50)),
                4 => format!("movestogo {}", self.number(40)),
                5 => format!("movetime {}", self.number(30)),
                6 => format!("time {}", self.number(3000)),
                7 => format!("increment {}", self.number(50)),
                8 => format!("opptime {}", self.number(3000)),
                9 => format!("oppincrement {}", self.number(50)),
                10 => format!("oppmovestogo {}", self.number(40)),
                11 => format!("depth {}", self.number(4)),
                12 => "depth infinite".into(),
                13 => format!("nodes {}", self.number(3000)),
                14 => format!("mate {}", self.number(3)),
                15 => "infinite".into(),
                16 => "ponder".into(),
                17 => "draw".into(),
                18 => {
                    let (_, g) = self.start();
                    let ms = self.moves(g.or_else(|| Some(Game::new(Position::startpos()))), 3);
                    format!("searchmoves h2e2 b0c2 {}", ms.join(" "))
                }
                _ if self.rng.random_bool(0.1) => format!("perft {}", self.number(12)),
                _ => format!("perft {}", self.rng.random_range(1..=3)),
            };
            line.push(' ');
            line.push_str(&arg);
        }
        line
    }

    fn setoption(&mut self) -> String {
        let (name, values) = OPTIONS[self.rng.random_range(0..OPTIONS.len())];
        let value = values[self.rng.random_range(0..values.len())];
        match (self.rng.random_range(0..4), value.is_empty()) {
            (0, _) => format!("setoption name {name}"),
            (1 | 2, true) => format!("setoption name {name} value"),
            (1 | 2, false) => format!("setoption name {name} value {value}"),
            (_, _) => format!("setoption {} {value}", name.replace(' ', "")),
        }
    }

    fn command(&mut self) -> String {
        let r = self.rng.random_range(0..1000);
        match r {
            0..=119 => "isready".into(),
            120..=269 => self.go(),
            270..=369 => "stop".into(),
            370..=489 => self.position("position"),
            490..=509 => self.position(""),
            510..=619 => self.setoption(),
            620..=649 => ["ponderhit", "ponderhit draw"][self.rng.random_range(0..2)].into(),
            650..=669 => ["uci", "ucci"][self.rng.random_range(0..2)].into(),
            670..=689 => {
                ["ucinewgame", "newgame", "uccinewgame"][self.rng.random_range(0..3)].into()
            }
            690..=729 => ["d", "eval", "help"][self.rng.random_range(0..3)].into(),
            730..=759 => {
                let (_, g) = self.start();
                let first = self.moves(g, 0);
                let mut ms = self.moves(Some(Game::new(Position::startpos())), 1);
                ms.extend(first);
                format!("banmoves {}", ms.join(" "))
            }
            760..=789 => self.position("probe"),
            790..=809 => match self.rng.random_range(0..5) {
                0 => "path inline 'S..#/.#../...G' moves 8".into(),
                1 => "path inline S.#./..#./...G from 0 0 to 3 2 method jps".into(),
                2 => "path grid no-such-grid.txt".into(),
                3 => "path stats no-such.map".into(),
                _ => "path inline S....G heuristic octile energy 3 method astar".into(),
            },
            810..=819 => [
                "bench 1", "bench 2", "bench 0", "bench x", "bench 30", "bench",
            ][self.rng.random_range(0..6)]
            .into(),
            820..=822 => "quit".into(),
            823..=849 => [
                "",
                "   ",
                "# a comment",
                "\t",
                "isreadyxyz",
                "ISREADY",
                "Stop",
            ][self.rng.random_range(0..7)]
            .into(),
            _ => {
                let n = self.rng.random_range(0..40);
                (0..n)
                    .map(|_| char::from(self.rng.random_range(32u8..127)))
                    .collect()
            }
        }
    }

    /// Byte-level mutations of a command.
    fn mutate(&mut self, line: &mut Vec<u8>) {
        for _ in 0..self.rng.random_range(1..=3) {
            let len = line.len();
            let at = if len == 0 {
                0
            } else {
                self.rng.random_range(0..len)
            };
            let digits: Vec<usize> = (0..len).filter(|&i| line[i].is_ascii_digit()).collect();
            match self.rng.random_range(0..12) {
                0 if len > 0 => line[at] = self.rng.random(),
                1 if !digits.is_empty() => {
                    let i = digits[self.rng.random_range(0..digits.len())];
                    line[i] = b'0' + self.rng.random_range(0..10u8);
                }
                2 if !digits.is_empty() => {
                    // `go depth 1` → `go depth 10` (or 17, 1000…)
                    let i = digits[self.rng.random_range(0..digits.len())];
                    for _ in 0..self.rng.random_range(1..=3) {
                        line.insert(i + 1, b'0' + self.rng.random_range(0..10u8));
                    }
                }
                3 if len > 0 => {
                    line.remove(at);
                }
                4 => line.insert(at, [b' ', b'\t', b'\r', b'\n'][self.rng.random_range(0..4)]),
                5 => line.truncate(at),
                6 => {
                    // Double, drop or swap tokens.
                    let text = String::from_utf8_lossy(line).into_owned();
                    let mut tokens: Vec<&str> = text.split(' ').collect();
                    let n = tokens.len();
                    let (i, j) = (self.rng.random_range(0..n), self.rng.random_range(0..n));
                    match self.rng.random_range(0..3) {
                        0 => tokens.insert(i, tokens[j]),
                        1 if n > 1 => {
                            tokens.remove(i);
                        }
                        _ => tokens.swap(i, j),
                    }
                    *line = tokens.join(" ").into_bytes();
                }
                7 => {
                    let junk: &[&[u8]] = &[b"\xff", b"\x00", b"\xe7\x82\xae", b"\xc3", b"\x1b[0m"];
                    let j = junk[self.rng.random_range(0..junk.len())];
                    for (k, &b) in j.iter().enumerate() {
                        line.insert(at + k, b);
                    }
                }
                8 if len > 0 && line[at].is_ascii_alphabetic() => line[at] ^= 0x20,
                9 if self.rng.random_bool(0.01) => {
                    // A long line (now and then one over the limit).
                    let n = if self.rng.random_bool(0.1) {
                        MAX_LINE + 10
                    } else {
                        self.rng.random_range(1000..20_000)
                    };
                    line.extend(std::iter::repeat_n(b'9', n));
                }
                10 => line.extend_from_slice(b" moves h2e2 h9g7"),
                _ => {}
            }
        }
    }
}

/// What a fuzz run counted.
#[derive(Debug, Default)]
struct Summary {
    lines: u64,
    isready: u64,
    searches: u64,
    stops_added: u64,
    skipped: std::collections::BTreeMap<&'static str, u64>,
    restarts: u64,
    slowest_handle: Duration,
    slowest_ready: Duration,
    /// The lines up to the slowest to handle.
    slowest_handle_after: Vec<String>,
    /// The lines before the slowest `readyok`.
    slowest_ready_after: Vec<String>,
    /// Time spent handling lines, by first word (slowest first in the summary).
    handling: std::collections::HashMap<String, (Duration, u64)>,
    waiting: Duration,
    faults: Vec<String>,
}

/// The controller under test and what it owes.
struct Harness {
    controller: Controller,
    events: Receiver<Event>,
    sink: Sink,
    partial: Vec<u8>,
    owed: u64,
    answered: u64,
    recent: Vec<String>,
}

impl Harness {
    fn new() -> Harness {
        let (tx, rx) = mpsc::channel();
        let sink = Sink::default();
        let mut h = Harness {
            controller: Controller::new(Out::to_writer(Box::new(sink.clone())), tx),
            events: rx,
            sink,
            partial: Vec::new(),
            owed: 0,
            answered: 0,
            recent: Vec::new(),
        };
        // Small tables: clearing them (`ucinewgame`, `Clear Hash`) costs little.
        h.controller.handle(Event::Line(
            "setoption name Hash value 1".into(),
            Instant::now(),
        ));
        h
    }

    fn fault(&self, s: &mut Summary, what: String) {
        s.faults
            .push(format!("{what}; last lines: {:?}", self.recent));
    }

    /// Reads what the controller wrote: counts `readyok`, checks every line.
    fn drain(&mut self, s: &mut Summary) {
        let bytes = std::mem::take(&mut *self.sink.0.lock().unwrap_or_else(|e| e.into_inner()));
        self.partial.extend_from_slice(&bytes);
        let Some(end) = self.partial.iter().rposition(|&b| b == b'\n') else {
            return;
        };
        let done: Vec<u8> = self.partial.drain(..=end).collect();
        for raw in done.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
            let line = String::from_utf8_lossy(raw);
            if !raw.is_ascii() {
                self.fault(s, format!("non-ASCII output {line:?}"));
            }
            if line == "readyok" {
                self.answered += 1;
                if self.answered > self.owed {
                    self.fault(s, "readyok without isready".into());
                }
            } else if line.starts_with("pophash ") {
                // UCCI's `probe` answer is `pophash [bestmove <m>] …`.
            } else if ["readyok", "uciok", "ucciok"]
                .iter()
                .any(|k| line.contains(k) && line != *k)
                || (line.contains("bestmove")
                    && !line.starts_with("bestmove ")
                    && line != "nobestmove")
            {
                self.fault(s, format!("keyword inside another line: {line:?}"));
            }
        }
    }

    /// Hands one event to the controller; a controller that ends is replaced.
    fn handle(&mut self, event: Event, s: &mut Summary) -> bool {
        let t = Instant::now();
        let go_on = self.controller.handle(event);
        if t.elapsed() > s.slowest_handle {
            s.slowest_handle = t.elapsed();
            s.slowest_handle_after = self.recent.clone();
        }
        if !go_on {
            self.drain(s);
            s.restarts += 1;
            *self = Harness::new();
        }
        go_on
    }

    /// Completion events of searches and tasks, without waiting.
    fn pump(&mut self, s: &mut Summary) {
        while let Ok(e) = self.events.try_recv() {
            if !self.handle(e, s) {
                return;
            }
        }
    }

    /// Waits until every `isready` sent is answered (or the controller ended).
    fn ready(&mut self, s: &mut Summary) {
        let t = Instant::now();
        loop {
            self.drain(s);
            if self.answered >= self.owed {
                if t.elapsed() > s.slowest_ready {
                    s.slowest_ready = t.elapsed();
                    s.slowest_ready_after = self.recent.clone();
                }
                s.waiting += t.elapsed();
                return;
            }
            if t.elapsed() > Duration::from_secs(10) {
                let what = format!(
                    "no readyok within 10 s ({} owed)",
                    self.owed - self.answered
                );
                self.fault(s, what);
                self.answered = self.owed;
                return;
            }
            if !self.step(s, Duration::from_millis(2)) {
                return;
            }
        }
    }

    /// Handles the controller's next event if one comes within `wait`; false once the run is
    /// over (the controller quit or went away).
    fn step(&mut self, s: &mut Summary, wait: Duration) -> bool {
        match self.events.recv_timeout(wait) {
            Ok(e) => self.handle(e, s),
            Err(RecvTimeoutError::Timeout) => true,
            Err(RecvTimeoutError::Disconnected) => false,
        }
    }

    /// Feeds one decoded line.
    fn line(&mut self, text: String, s: &mut Summary) {
        if self.recent.len() == 12 {
            self.recent.remove(0);
        }
        self.recent.push(text.chars().take(160).collect());
        s.lines += 1;
        let ready = matches!(command::parse(&text), Ok(Command::IsReady));
        if ready {
            self.owed += 1;
            s.isready += 1;
        }
        let word = text.split_whitespace().next().unwrap_or("").to_string();
        let t = Instant::now();
        let go_on = self.handle(Event::Line(text, Instant::now()), s);
        let e = s.handling.entry(word).or_default();
        e.0 += t.elapsed();
        e.1 += 1;
        if go_on && ready {
            self.ready(s);
        }
        self.pump(s);
    }

    /// Ends the input and waits for the controller to finish.
    fn end(&mut self, s: &mut Summary) {
        let t = Instant::now();
        if !self.handle(Event::Eof, s) {
            return;
        }
        loop {
            if t.elapsed() > Duration::from_secs(10) {
                self.fault(s, "still running 10 s after the end of input".into());
                return;
            }
            if !self.step(s, Duration::from_millis(5)) {
                return;
            }
        }
    }
}

/// Why a line is not fed: much memory or many threads.
fn not_fed(text: &str) -> Option<&'static str> {
    match command::parse(text) {
        Ok(Command::SetOption { name, value }) => {
            let key: String = name
                .chars()
                .filter(|c| !c.is_whitespace() && *c != '_')
                .flat_map(char::to_lowercase)
                .collect();
            let v = value.trim().parse::<i64>().unwrap_or(0);
            match key.as_str() {
                "hash" | "hashsize" if v > 4 => Some("Hash over 4"),
                "threads" if v > 4 => Some("Threads over 4"),
                _ => None,
            }
        }
        _ => None,
    }
}

/// Runs `lines` generated lines from `seed` through a controller (replaced after each `quit`).
fn fuzz(seed: u64, lines: u64) -> Summary {
    count_panics();
    let mut s = Summary::default();
    let mut gen = Gen {
        rng: StdRng::seed_from_u64(seed),
    };
    let mut h = Harness::new();
    let mut stop_in: Option<u32> = None;
    while s.lines < lines {
        let mut bytes = gen.command().into_bytes();
        if gen.rng.random_bool(0.3) {
            gen.mutate(&mut bytes);
        }
        for piece in bytes.split(|&b| b == b'\n') {
            if piece.len() > MAX_LINE {
                s.lines += 1;
                h.handle(Event::TooLong, &mut s);
                continue;
            }
            let text = String::from_utf8_lossy(piece).trim().to_string();
            if let Some(why) = not_fed(&text) {
                *s.skipped.entry(why).or_default() += 1;
                continue;
            }
            if matches!(
                command::parse(&text),
                Ok(Command::Go(_) | Command::Bench(_))
            ) {
                s.searches += 1;
                stop_in = Some(stop_in.unwrap_or(gen.rng.random_range(0..3)));
            }
            h.line(text, &mut s);
        }
        match stop_in {
            Some(0) => {
                s.stops_added += 1;
                stop_in = None;
                h.line("stop".into(), &mut s);
            }
            Some(n) => stop_in = Some(n - 1),
            None => {}
        }
    }
    if stop_in.is_some() {
        s.stops_added += 1;
        h.line("stop".into(), &mut s);
    }
    h.end(&mut s);
    s
}

/// Fuzzes `lines` lines from each seed, one thread per seed, prints what was counted and
/// checks that nothing went wrong.
fn check(seeds: &[u64], lines: u64) {
    count_panics();
    let t = Instant::now();
    let before = PANICS.load(Ordering::SeqCst);
    let runs: Vec<(u64, Summary, f64)> = std::thread::scope(|sc| {
        let handles: Vec<_> = seeds
            .iter()
            .map(|&seed| {
                sc.spawn(move || {
                    let t = Instant::now();
                    let s = fuzz(seed, lines);
                    (seed, s, t.elapsed().as_secs_f64())
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("fuzz thread"))
            .collect()
    });
    let panics = PANICS.load(Ordering::SeqCst) - before;
    for (seed, s, secs) in &runs {
        println!(
            "seed {seed}: {} lines ({} isready, {} go and bench, {} stops added, {} restarts; not fed: {:?}) in {secs:.1} s; slowest handle {:?}, slowest readyok {:?}; {} faults",
            s.lines,
            s.isready,
            s.searches,
            s.stops_added,
            s.restarts,
            s.skipped,
            s.slowest_handle,
            s.slowest_ready,
            s.faults.len()
        );
        println!("  slowest readyok after {:?}", s.slowest_ready_after);
        println!("  slowest handle after {:?}", s.slowest_handle_after);
        let mut by: Vec<_> = s.handling.iter().collect();
        by.sort_by_key(|(_, v)| std::cmp::Reverse(v.0));
        let top: Vec<String> = by
            .iter()
            .take(6)
            .map(|(k, v)| format!("{k} {:.1} s over {}", v.0.as_secs_f64(), v.1))
            .collect();
        println!("  time handling lines by first word: {}", top.join(", "));
        for f in s.faults.iter().take(20) {
            println!("  fault: {f}");
        }
    }
    let total: u64 = runs.iter().map(|r| r.1.lines).sum();
    println!(
        "{total} lines from seeds {seeds:?} in {:.1} s; {panics} panics",
        t.elapsed().as_secs_f64()
    );
    assert_eq!(panics, 0, "panics");
    for (seed, s, _) in &runs {
        assert!(
            s.faults.is_empty(),
            "seed {seed}: {} faults",
            s.faults.len()
        );
        assert!(s.lines >= lines && s.isready > lines / 20 && s.searches > lines / 20);
    }
}

#[test]
fn fuzzed_protocol_lines() {
    check(&[1, 2], 50_000);
}

/// Ten million lines: `FUZZ_LINES` in all (default 10^7), shared by `FUZZ_THREADS` seeds run
/// at once (default 2) from `FUZZ_SEED` on (default 38); see docs/development.md.
#[test]
#[ignore]
fn fuzzed_protocol_lines_at_length() {
    let var = |name: &str, default: u64| {
        std::env::var(name)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    };
    let (lines, threads, seed) = (
        var("FUZZ_LINES", 10_000_000),
        var("FUZZ_THREADS", 2).max(1),
        var("FUZZ_SEED", 38),
    );
    let seeds: Vec<u64> = (seed..seed + threads).collect();
    check(&seeds, lines.div_ceil(threads));
}
