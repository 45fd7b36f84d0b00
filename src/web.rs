//! The engine in a browser: the protocol loop of a Web Worker, and the rules for the page.
//!
//! Built for `wasm32-unknown-unknown` by `scripts/web.sh`, the module exports plain functions
//! and imports from module `chariot` what the page's script (`web/engine.js`) gives it. The
//! worker calls `start` once, then `pump` whenever input may have arrived: `pump` runs
//! everything there is to run (lines, then the work they started: a search runs on the
//! worker's one thread) and returns. Lines are read from the page's input queue (`input`),
//! also from inside a running search (`host::poll`, every `POLL_NODES` nodes): so `stop`,
//! `isready` and `quit` are heard during `go infinite` as the native loop hears them, and every
//! line meets the same controller as natively, bad lines included. Output goes out one message
//! at a time (`output`).
//!
//! `rules` serves the page's board: the legal moves, the FEN and the referee's verdict of a
//! game given as `position`'s arguments. `review` reviews a game record (`crate::review`)
//! synchronously, on the worker's thread, and answers with every move's eval and judgement,
//! each side's accuracy and the annotated PGN.

use crate::board::rules::Outcome;
use crate::board::square::Color;
use crate::board::{Game, Notation, Position};
use crate::host;
use crate::protocol::command::{self, Command};
use crate::protocol::controller::{Controller, Event};
use crate::protocol::output::Out;
use crate::protocol::MAX_LINE;
use crate::record::{self, Format, Record};
use crate::review::{self, Eval, MoveReview, Review, Reviewer, Settings};
use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::io::Write;
use std::rc::Rc;
use std::sync::mpsc::{self, Receiver};

#[link(wasm_import_module = "chariot")]
extern "C" {
    /// Takes one message of the engine's output (UTF-8, lines ending in `\n`).
    fn output(ptr: *const u8, len: usize);
    /// Copies at most `cap` bytes of the page's input to `ptr`; returns how many.
    fn input(ptr: *mut u8, cap: usize) -> usize;
    /// Fills `len` bytes at `ptr` with random bytes (`crypto.getRandomValues`).
    fn random_fill(ptr: *mut u8, len: usize);
}

/// Writes each flushed message to the page.
struct PageWriter(Vec<u8>);

impl Write for PageWriter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        if !self.0.is_empty() {
            // SAFETY: the page reads `len` bytes at `ptr` before it returns.
            unsafe { output(self.0.as_ptr(), self.0.len()) };
            self.0.clear();
        }
        Ok(())
    }
}

/// The input split into lines as the native reader splits stdin.
#[derive(Default)]
struct Lines {
    /// Where the page copies its input (kept: it is read at every polling point).
    chunk: Vec<u8>,
    partial: Vec<u8>,
    too_long: bool,
}

impl Lines {
    /// Reads what the page has queued and appends each complete line to `inbox`.
    fn read(&mut self, inbox: &mut VecDeque<Event>) {
        let mut chunk = std::mem::take(&mut self.chunk);
        chunk.resize(1 << 16, 0);
        loop {
            // SAFETY: `chunk` has `chunk.len()` writable bytes; the page writes at most that many.
            let n = unsafe { input(chunk.as_mut_ptr(), chunk.len()) }.min(chunk.len());
            if n == 0 {
                self.chunk = chunk;
                return;
            }
            for part in chunk[..n].split_inclusive(|&b| b == b'\n') {
                let (body, ends) = match part.split_last() {
                    Some((b'\n', body)) => (body, true),
                    _ => (part, false),
                };
                if !self.too_long {
                    if self.partial.len() + body.len() > MAX_LINE {
                        self.too_long = true;
                        self.partial = Vec::new();
                    } else {
                        self.partial.extend_from_slice(body);
                    }
                }
                if ends {
                    inbox.push_back(if self.too_long {
                        Event::TooLong
                    } else {
                        let text = String::from_utf8_lossy(&self.partial).trim().to_string();
                        Event::Line(text, host::Instant::now())
                    });
                    self.partial.clear();
                    self.too_long = false;
                }
            }
        }
    }
}

/// The worker's engine: the controller, what its work reports, and the lines not yet run.
struct Engine {
    controller: RefCell<Controller>,
    done: Receiver<Event>,
    lines: RefCell<Lines>,
    inbox: RefCell<VecDeque<Event>>,
    quit: Cell<bool>,
}

impl Engine {
    /// Hands `event` to the controller.
    fn handle(&self, event: Event, controller: &mut Controller) {
        if !self.quit.get() && !controller.handle(event) {
            self.quit.set(true);
        }
    }

    /// Reads the input and runs the lines waiting, unless the controller is busy (a line is
    /// being run: the search polling is then UCCI's `go depth 0`), when they wait.
    fn take_input(&self) {
        self.lines.borrow_mut().read(&mut self.inbox.borrow_mut());
        let Ok(mut c) = self.controller.try_borrow_mut() else {
            return;
        };
        loop {
            let next = self.inbox.borrow_mut().pop_front();
            let Some(event) = next else { break };
            self.handle(event, &mut c);
        }
    }

    /// Runs everything there is to run; returns whether the engine has quit.
    fn pump(&self) -> bool {
        while !self.quit.get() {
            if let Ok(event) = self.done.try_recv() {
                self.handle(event, &mut self.controller.borrow_mut());
            } else if let Some(task) = host::next_task() {
                // The controller is free meanwhile: lines arriving during the work reach it.
                task();
            } else {
                self.lines.borrow_mut().read(&mut self.inbox.borrow_mut());
                let next = self.inbox.borrow_mut().pop_front();
                match next {
                    Some(event) => self.handle(event, &mut self.controller.borrow_mut()),
                    None => break,
                }
            }
        }
        self.quit.get()
    }
}

thread_local! {
    static ENGINE: RefCell<Option<Rc<Engine>>> = const { RefCell::new(None) };
    /// Text passed between the page and `rules` or `review`.
    static EXCHANGE: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    /// The reviewer of `review`, kept while the settings stay the same (its hash table is
    /// allocated once).
    static REVIEWER: RefCell<Option<Reviewer>> = const { RefCell::new(None) };
}

/// Makes the engine (the network is read here): call once, before `pump`.
#[no_mangle]
pub extern "C" fn start() {
    let (tx, done) = mpsc::channel();
    let out = Out::to_writer(Box::new(PageWriter(Vec::new())));
    let engine = Rc::new(Engine {
        controller: RefCell::new(Controller::new(out, tx)),
        done,
        lines: RefCell::new(Lines::default()),
        inbox: RefCell::new(VecDeque::new()),
        quit: Cell::new(false),
    });
    let polled = Rc::clone(&engine);
    host::set_poll(Rc::new(move || polled.take_input()));
    ENGINE.with(|e| *e.borrow_mut() = Some(engine));
}

/// Runs the input that arrived and the work it starts; returns 1 once the engine has quit.
#[no_mangle]
pub extern "C" fn pump() -> u32 {
    match ENGINE.with(|e| e.borrow().clone()) {
        Some(engine) => engine.pump() as u32,
        None => 0,
    }
}

/// The exchange buffer, made `len` bytes long: where the page writes the argument of `rules`
/// or `review` and reads the answer.
#[no_mangle]
pub extern "C" fn exchange(len: usize) -> *mut u8 {
    EXCHANGE.with(|x| {
        let mut x = x.borrow_mut();
        x.resize(len, 0);
        x.as_mut_ptr()
    })
}

/// Judges the game given in the exchange buffer's first `len` bytes as `position`'s arguments
/// (`startpos moves h2e2`, `fen … moves …`); writes the answer there as JSON and returns its
/// length: `{"ok":true,"fen":…,"turn":"w"|"b","check":…,"legal":[…],"result":…,"reason":…}`
/// (`result` `null` while the game goes on), or `{"ok":false,"error":…}`.
#[no_mangle]
pub extern "C" fn rules(len: usize) -> usize {
    EXCHANGE.with(|x| {
        let mut x = x.borrow_mut();
        let spec = String::from_utf8_lossy(&x[..len.min(x.len())]).into_owned();
        let answer = judge(&spec).into_bytes();
        *x = answer;
        x.len()
    })
}

/// The JSON answer of `rules`.
fn judge(spec: &str) -> String {
    let game = match command::parse(&format!("position {spec}")) {
        Ok(Command::Position(p)) => {
            let start = match &p.fen {
                None => Ok(Position::startpos()),
                Some(f) => f.parse::<Position>().map_err(|e| e.to_string()),
            };
            start.and_then(|s| Game::from_moves(s, &p.moves).map_err(|e| e.to_string()))
        }
        Ok(_) => Err("not a position".to_string()),
        Err(e) => Err(e.to_string()),
    };
    let game = match game {
        Ok(g) => g,
        Err(e) => return format!("{{\"ok\":false,\"error\":{}}}", json(&e.to_string())),
    };
    let pos = game.position();
    let legal: Vec<String> = pos
        .legal_moves()
        .iter()
        .map(|m| json(&m.to_string()))
        .collect();
    let (result, reason) = match game.outcome(usize::MAX) {
        None => ("null".to_string(), "null".to_string()),
        Some(Outcome::Win(c, r)) => {
            let score = if c == Color::Red { "1-0" } else { "0-1" };
            (json(score), json(&r.to_string()))
        }
        Some(Outcome::Draw(r)) => (json("1/2-1/2"), json(&r.to_string())),
    };
    format!(
        "{{\"ok\":true,\"fen\":{},\"turn\":{},\"check\":{},\"legal\":[{}],\"result\":{result},\"reason\":{reason}}}",
        json(&pos.fen()),
        json(if pos.side_to_move() == Color::Red { "w" } else { "b" }),
        pos.in_check(),
        legal.join(",")
    )
}

/// Reviews the game in the exchange buffer's first `len` bytes; writes the answer there as
/// JSON and returns its length. It runs to the end before returning (a 100-ply game at the
/// default 100 000 nodes a position takes some seconds).
///
/// The request: option lines, an empty line, then the game record in any format `record::read`
/// reads (PGN in any notation, DhtmlXQ, XQF's bytes); the first game is reviewed. Options,
/// each `name value`, all optional: `nodes N` (default 100000), `movetime MS` (instead of
/// nodes), `hash MB` (default 16), `notation iccs|wxf|chinese` (of `text`, `line` and the PGN;
/// default chinese). A request with no option starts with the empty line.
///
/// The answer: `{"ok":true,"complete":true,"nodes":N,"moves":[…],"accuracy":{"red":…,
/// "black":…},"counts":{"red":[i,m,b],"black":[i,m,b]},"summary":…,"pgn":…}` where each move
/// is `{"ply":1,"move":"h2e2","text":"炮二平五","eval":35,"best":"h2e2","pv":["h2e2",…],
/// "line":"炮二平五 …","loss":0.012,"accuracy":98.1,"judgement":null}`: `eval` is the position
/// after the move from Red's view, centipawns or `"#5"`/`"#-3"` (mate in moves, as `[%eval]`);
/// `pv` the engine's line before the move (ICCS), `line` its first plies in the notation;
/// `judgement` `null`, `"inaccuracy"`, `"mistake"` or `"blunder"`; an accuracy is `null` for a
/// side with no move; `counts` are inaccuracies, mistakes, blunders. Or
/// `{"ok":false,"error":…}`.
#[no_mangle]
pub extern "C" fn review(len: usize) -> usize {
    EXCHANGE.with(|x| {
        let mut x = x.borrow_mut();
        let request = x[..len.min(x.len())].to_vec();
        *x = review_answer(&request).into_bytes();
        x.len()
    })
}

/// What a review request asks for.
struct ReviewRequest {
    settings: Settings,
    notation: Notation,
    record: Record,
}

/// The JSON answer of `review`.
fn review_answer(request: &[u8]) -> String {
    let request = match review_request(request) {
        Ok(r) => r,
        Err(e) => return format!("{{\"ok\":false,\"error\":{}}}", json(&e.to_string())),
    };
    let stop = std::sync::atomic::AtomicBool::new(false);
    let done = REVIEWER.with(|slot| {
        let mut slot = slot.borrow_mut();
        if slot.as_ref().map(|r| *r.settings()) != Some(request.settings) {
            // The old table is freed before the new one is made.
            *slot = None;
            *slot = Some(Reviewer::new(request.settings));
        }
        slot.as_mut()
            .map(|r| r.review(&request.record, &stop, &mut |_, _| {}))
    });
    match done {
        Some(done) => review_json(&request, &done),
        None => "{\"ok\":false,\"error\":\"no reviewer\"}".to_string(),
    }
}

/// Why a review request was refused; `Display` is the `error` of the answer.
#[derive(Debug, thiserror::Error)]
enum RequestError {
    /// The request has no blank line between its options and its record.
    #[error("no empty line after the options")]
    NoBlankLine,
    /// An option line names no option.
    #[error("unknown option: {0}")]
    Unknown(String),
    /// An option's value is not a number.
    #[error("{0}: not a number: {1}")]
    NotANumber(String, String),
    /// The `notation` option names no notation.
    #[error("{0}")]
    Notation(#[from] crate::board::NotationError),
    /// The record's first game could not be read.
    #[error("{0}")]
    Record(#[from] record::RecordError),
    /// The record holds no game.
    #[error("no game in the record")]
    NoGame,
}

/// Reads the options and the first game of a review request.
fn review_request(bytes: &[u8]) -> Result<ReviewRequest, RequestError> {
    let (options, game) = split_options(bytes).ok_or(RequestError::NoBlankLine)?;
    let options = String::from_utf8_lossy(options);
    let mut request = ReviewRequest {
        settings: Settings::default(),
        notation: Notation::Chinese,
        record: Record::new(Position::startpos()),
    };
    for line in options.lines().map(str::trim).filter(|l| !l.is_empty()) {
        review_option(&mut request, line)?;
    }
    request.record = match record::read(game).into_iter().next() {
        Some(Ok(r)) => r,
        Some(Err(e)) => return Err(e.into()),
        None => return Err(RequestError::NoGame),
    };
    Ok(request)
}

/// A request's option lines and its record: the bytes before and after its first blank line.
fn split_options(bytes: &[u8]) -> Option<(&[u8], &[u8])> {
    let mut at = 0;
    loop {
        let end = at + bytes[at..].iter().position(|&b| b == b'\n')?;
        if bytes[at..end].iter().all(u8::is_ascii_whitespace) {
            return Some((&bytes[..at], &bytes[end + 1..]));
        }
        at = end + 1;
    }
}

/// Applies one option line of a review request.
fn review_option(request: &mut ReviewRequest, line: &str) -> Result<(), RequestError> {
    let (name, value) = line.split_once(' ').unwrap_or((line, ""));
    let value = value.trim();
    let number = || {
        value
            .parse::<u64>()
            .map_err(|_| RequestError::NotANumber(name.to_string(), value.to_string()))
    };
    let s = &mut request.settings;
    match name {
        "nodes" => s.nodes = Some(number()?.max(1)),
        "movetime" => {
            s.movetime_ms = Some(number()?.max(1));
            s.nodes = None;
        }
        "hash" => s.hash_mb = number()?.clamp(1, 1024) as usize,
        "notation" => request.notation = value.parse()?,
        _ => return Err(RequestError::Unknown(name.to_string())),
    }
    Ok(())
}

/// The JSON of a finished review.
fn review_json(request: &ReviewRequest, done: &Review) -> String {
    let record = &request.record;
    let mut pos = record.start.clone();
    let mut moves = Vec::new();
    for (i, m) in done.moves.iter().enumerate() {
        moves.push(move_json(i + 1, &pos, m, request.notation));
        pos = pos.play(m.mv);
    }
    let accuracy = |i: usize| done.accuracy[i].map_or("null".to_string(), |a| format!("{a:.1}"));
    let counts = |i: usize| {
        let c = done.counts[i];
        format!("[{},{},{}]", c[0], c[1], c[2])
    };
    let annotated = review::annotate(record, done, request.notation);
    let pgn = record::write(&[annotated], Format::Pgn, request.notation);
    format!(
        "{{\"ok\":true,\"complete\":{},\"nodes\":{},\"moves\":[{}],\"accuracy\":{{\"red\":{},\"black\":{}}},\"counts\":{{\"red\":{},\"black\":{}}},\"summary\":{},\"pgn\":{}}}",
        done.complete,
        done.nodes,
        moves.join(","),
        accuracy(0),
        accuracy(1),
        counts(0),
        counts(1),
        json(&done.summary()),
        json(&String::from_utf8_lossy(&pgn))
    )
}

/// One move of the review's JSON.
fn move_json(ply: usize, pos: &Position, m: &MoveReview, notation: Notation) -> String {
    let eval = match Eval::from_red(m.after) {
        Eval::Cp(cp) => cp.to_string(),
        mate => json(&mate.to_string()),
    };
    let pv: Vec<String> = m.pv.iter().map(|mv| json(&mv.to_string())).collect();
    let judgement = m.judgement.map_or("null".to_string(), |j| json(j.name()));
    format!(
        "{{\"ply\":{ply},\"move\":{},\"text\":{},\"eval\":{eval},\"best\":{},\"pv\":[{}],\"line\":{},\"loss\":{:.4},\"accuracy\":{:.1},\"judgement\":{judgement}}}",
        json(&m.mv.to_string()),
        json(&pos.move_text(m.mv, notation)),
        json(&m.best.to_string()),
        pv.join(","),
        json(&review::line_text(pos, &m.pv, notation)),
        m.loss,
        m.accuracy
    )
}

/// `s` as a JSON string.
fn json(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The random bytes `rand` asks for (the `getrandom` crate's custom source, chosen by
/// `--cfg getrandom_backend="custom"` in `scripts/web.sh`).
///
/// # Safety
/// `dest` must be valid for writes of `len` bytes (as `getrandom` guarantees).
#[no_mangle]
unsafe extern "Rust" fn __getrandom_v03_custom(
    dest: *mut u8,
    len: usize,
) -> Result<(), getrandom::Error> {
    random_fill(dest, len);
    Ok(())
}
