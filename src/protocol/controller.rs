//! The controller: a state machine that owns the game, the options and (when idle) the
//! `Searcher`, and runs each command in order.
//!
//! Idle, it runs every command at once. While a search (or a bench/perft task) runs on its own
//! thread, `stop`, `ponderhit` and `quit` act at once; so does every command that does not need
//! the searcher (`position`, `setoption`, `banmoves`, `d`, `eval`, handshakes…), an option's
//! effect on the tables (hash size, clearing) being applied when the searcher comes back. Only
//! what needs the searcher to run (`go`, `bench`) is queued, first stopping the running search
//! (a new search supersedes it), and every later line queues behind it, so commands take effect
//! in the order sent. `isready` is answered at once unless something is queued before it, then
//! as soon as that has run (a search it started need not end). `path` runs on a thread of its
//! own. Every `go` yields exactly one terminal line, written by the search thread the moment the
//! search ends, and the move it names is legal in the position searched.

use super::command::{self, Command, GoArgs, PositionSpec};
use super::go::limits;
use super::options::{Effect, Options};
use super::output::{final_info, score_text, Out, ProtocolSink};
use super::Dialect;
use crate::board::{fen, Game, Move, Position};
use crate::eval::nnue::Network;
use crate::score::Score;
use crate::search::{Bound, SearchResult, Searcher, Signals};
use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Sender;
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Instant;

/// Engine name and version as announced.
pub const NAME: &str = concat!("Chariot ", env!("CARGO_PKG_VERSION"));
/// Authors as announced.
pub const AUTHOR: &str = "the Chariot developers";

/// What reaches the controller.
#[derive(Debug)]
pub enum Event {
    /// One input line (line end stripped, decoded lossily) and when it was read: a `go`'s
    /// clock runs from then, however long the line waited for the controller.
    Line(String, Instant),
    /// An input line over the length limit, discarded.
    TooLong,
    /// End of input.
    Eof,
    /// The search or task of this number finished.
    Done(u64),
}

enum Outcome {
    Search(Searcher),
    Task(Searcher),
}

struct Running {
    /// Which search or task this is (`Event::Done` names it).
    id: u64,
    /// Set by the thread just before it writes its answer: the searcher is about to come back.
    finished: Arc<AtomicBool>,
    signals: Arc<Signals>,
    handle: JoinHandle<Outcome>,
    /// UCCI `ponderhit draw`: the opponent offered a draw (read when the move is written).
    draw_offer: Arc<AtomicBool>,
}

/// A change to the searcher's tables asked for while the searcher was busy.
type Deferred = Box<dyn FnOnce(&mut Searcher) + Send>;

/// The protocol state machine.
pub struct Controller {
    out: Out,
    events: Sender<Event>,
    dialect: Option<Dialect>,
    options: Options,
    game: Game,
    bans: Vec<Move>,
    searcher: Option<Searcher>,
    deferred: Vec<Deferred>,
    running: Option<Running>,
    started: u64,
    queue: VecDeque<(String, Instant)>,
    /// When the line being handled was read.
    received: Instant,
    quitting: bool,
    at_eof: bool,
    /// `path` jobs that may still run (finished ones are dropped as new ones start).
    paths: Vec<JoinHandle<()>>,
    warned_dialect: bool,
    /// The network `Use NNUE` evaluates with (the embedded one unless `EvalFile` loaded another).
    network: Arc<Network>,
}

const HELP: &str = "\
Chariot speaks UCI (after `uci`, or with no handshake) and UCCI (after `ucci`).
  uci | ucci                   handshake: id, options, uciok/ucciok
  isready                      readyok
  setoption name N [value V]   or UCCI `setoption N V` (see `uci`)
  ucinewgame | newgame         clear the hash table and histories
  position startpos|fen F [moves M...]
  go [depth D] [nodes N] [movetime T] [wtime T btime T winc I binc I movestogo M]
     [time T increment I] [mate N] [infinite] [ponder] [searchmoves M...] | go perft D
  stop | ponderhit | quit
  banmoves M...                exclude root moves until the next position
  d | eval | bench [depth] | path ... | help";

impl Controller {
    /// A controller writing to `out`; search threads signal completion on `events`.
    pub fn new(out: Out, events: Sender<Event>) -> Controller {
        let options = Options::default();
        let mut c = Controller {
            out,
            events,
            dialect: None,
            searcher: Some(Searcher::new(options.hash_mb as usize)),
            deferred: Vec::new(),
            options,
            game: Game::default(),
            bans: Vec::new(),
            running: None,
            started: 0,
            queue: VecDeque::new(),
            received: Instant::now(),
            quitting: false,
            at_eof: false,
            paths: Vec::new(),
            warned_dialect: false,
            network: crate::eval::nnue::default_network(),
        };
        // A new searcher evaluates classically: give it the evaluation the options choose.
        c.choose_evaluation();
        c
    }

    fn dialect(&self) -> Dialect {
        self.dialect.unwrap_or(Dialect::Uci)
    }

    /// Handles one event. Returns `false` when the process should exit.
    pub fn handle(&mut self, event: Event) -> bool {
        match event {
            Event::Done(id) => {
                if self.running.as_ref().is_some_and(|r| r.id == id) {
                    self.finish_running()
                } else {
                    true // already taken back (see `while_running`)
                }
            }
            Event::Eof => {
                // Input is over (a script piped its commands): answers still being computed
                // are worth waiting for, unlike after an explicit `quit`.
                self.at_eof = true;
                self.quit()
            }
            Event::TooLong => {
                self.out.info_string("line too long, ignored");
                true
            }
            Event::Line(line, received) => {
                self.received = received;
                log::debug!("received: {}", command::echo_text(&line));
                if self.running.is_some() {
                    self.while_running(line)
                } else {
                    self.execute(&line)
                }
            }
        }
    }

    fn quit(&mut self) -> bool {
        if let Some(r) = &self.running {
            r.signals.stop();
            self.quitting = true;
            return true;
        }
        if self.at_eof {
            for job in self.paths.drain(..) {
                let _ = job.join();
            }
        }
        if self.dialect() == Dialect::Ucci {
            self.out.line("bye");
        }
        false
    }

    fn while_running(&mut self, line: String) -> bool {
        let Some(r) = &self.running else {
            return true;
        };
        if r.finished.load(Ordering::SeqCst) {
            // The answer is out and the thread is ending: take the searcher back now, so this
            // line (a `probe`, say) meets the engine as it will be once `Done` arrives.
            return self.finish_running() && self.handle(Event::Line(line, self.received));
        }
        match command::parse(&line) {
            Ok(Command::IsReady) if self.queue.is_empty() => self.out.line("readyok"),
            Ok(Command::Stop) => r.signals.stop(),
            Ok(Command::PonderHit { draw }) => {
                if r.signals.pondering() {
                    r.signals.ponderhit();
                    if draw {
                        r.draw_offer.store(true, Ordering::SeqCst);
                    }
                }
            }
            Ok(Command::Quit) => return self.quit(),
            Ok(Command::Nothing) => {}
            Ok(Command::Path(args)) => self.path(args),
            // The table is with the search thread: answer without its data.
            Ok(Command::Probe(_)) => self.out.line("pophash"),
            // A new search supersedes the running one: stop it, then start this one.
            Ok(Command::Go(_) | Command::Bench(_)) => {
                r.signals.stop();
                self.queue.push_back((line, self.received));
            }
            _ if !self.queue.is_empty() => self.queue.push_back((line, self.received)),
            _ => return self.execute(&line),
        }
        true
    }

    fn finish_running(&mut self) -> bool {
        let Some(r) = self.running.take() else {
            return true;
        };
        let outcome = match r.handle.join() {
            Ok(o) => o,
            Err(_) => {
                log::error!("search thread panicked");
                let mut s = Searcher::new(self.options.hash_mb as usize);
                s.set_threads(self.options.threads as usize);
                s.set_network(self.options.use_nnue.then(|| Arc::clone(&self.network)));
                Outcome::Task(s)
            }
        };
        let mut searcher = match outcome {
            Outcome::Task(s) | Outcome::Search(s) => s,
        };
        for f in self.deferred.drain(..) {
            f(&mut searcher);
        }
        self.searcher = Some(searcher);
        if self.quitting {
            self.quitting = false;
            return self.quit();
        }
        // Everything that waited, in order; once one starts a search, the rest are handled as
        // lines arriving during it.
        let waiting = std::mem::take(&mut self.queue);
        for (line, received) in waiting {
            self.received = received;
            let go_on = if self.running.is_some() {
                self.while_running(line)
            } else {
                self.execute(&line)
            };
            if !go_on {
                return false;
            }
        }
        true
    }

    fn print_no_move(&self) {
        self.out.line(&no_move_text(self.dialect()));
    }

    /// Runs one line in the idle state. Returns `false` when the process should exit.
    fn execute(&mut self, line: &str) -> bool {
        let cmd = match command::parse(line) {
            Ok(c) => c,
            Err(e) => {
                self.out.info_string(&e.to_string());
                return true;
            }
        };
        match cmd {
            Command::Nothing | Command::PonderHit { .. } => {}
            Command::Uci => self.handshake(Dialect::Uci),
            Command::Ucci => self.handshake(Dialect::Ucci),
            Command::IsReady => self.out.line("readyok"),
            Command::SetOption { name, value } => self.set_option(&name, &value),
            Command::NewGame => self.with_searcher(Searcher::clear),
            Command::Position(spec) => match build_game(&spec) {
                Ok(g) => {
                    self.game = g;
                    self.bans.clear();
                }
                Err(e) => self.out.info_string(&format!("invalid position: {e}")),
            },
            Command::Go(args) => self.go(*args),
            Command::Stop => {
                if self.dialect() == Dialect::Ucci {
                    self.out.line("nobestmove");
                }
            }
            Command::Quit => return self.quit(),
            Command::BanMoves(texts) => {
                let pos = self.game.position();
                self.bans = texts
                    .iter()
                    .filter_map(|t| pos.parse_move(t).ok())
                    .collect();
            }
            Command::Probe(spec) => match build_game(&spec) {
                Ok(g) => {
                    let line = self
                        .searcher
                        .as_ref()
                        .map_or_else(|| "pophash".to_string(), |s| pophash(s, g.position()));
                    self.out.line(&line);
                }
                Err(e) => self.out.info_string(&format!("invalid probe: {e}")),
            },
            Command::Display => self.display(),
            Command::Eval => {
                let pos = self.game.position();
                for l in crate::eval::classical::breakdown(pos).lines() {
                    self.out.line(l);
                }
                let v = crate::eval::nnue::accumulator::evaluate(&self.network, pos);
                self.out.line(&format!(
                    "classical {} network {v} (side to move; {} in use)",
                    crate::eval::classical::evaluate(pos),
                    if self.options.use_nnue {
                        "network"
                    } else {
                        "classical"
                    }
                ));
            }
            Command::Bench(depth) => {
                // With the evaluation in use (the signature is the default one's).
                let net = self.options.use_nnue.then(|| Arc::clone(&self.network));
                self.spawn_task(move |s| {
                    let mut buf = Vec::new();
                    let _ = crate::search::bench::run(depth, net, &mut buf);
                    (s, buf)
                })
            }
            Command::Path(args) => self.path(args),
            Command::Help => {
                for l in HELP.lines() {
                    self.out.line(l);
                }
            }
        }
        true
    }

    /// `path …` runs on a thread of its own, idle or searching: it touches no game or search
    /// state, and a large scenario file must not hold up `stop`, `isready` or `quit`. Its
    /// answer is written as one message when it is ready; `quit` does not wait for it, the end
    /// of input does.
    fn path(&mut self, args: Vec<String>) {
        let out = self.out.clone();
        self.paths.retain(|job| !job.is_finished());
        self.paths.push(std::thread::spawn(move || {
            match crate::path::command(&args) {
                Ok(text) => out.line(&text),
                Err(e) => out.info_string(&format!("path: {}", command::echo_text(&e.to_string()))),
            }
        }));
    }

    /// Applies `f` to the searcher now, or when it comes back from the running search.
    fn with_searcher(&mut self, f: impl FnOnce(&mut Searcher) + Send + 'static) {
        match &mut self.searcher {
            Some(s) => f(s),
            None => self.deferred.push(Box::new(f)),
        }
    }

    fn handshake(&mut self, d: Dialect) {
        match self.dialect {
            None => self.dialect = Some(d),
            Some(cur) if cur != d => {
                if !self.warned_dialect {
                    self.warned_dialect = true;
                    self.out
                        .info_string("dialect already chosen; handshake ignored");
                }
                return;
            }
            Some(_) => {}
        }
        match d {
            Dialect::Uci => {
                use vampirc_uci::{Serializable, UciMessage};
                let id = |name: Option<&str>, author: Option<&str>| {
                    UciMessage::Id {
                        name: name.map(str::to_string),
                        author: author.map(str::to_string),
                    }
                    .serialize()
                };
                self.out.line(&id(Some(NAME), None));
                self.out.line(&id(None, Some(AUTHOR)));
                for l in super::options::announce(d) {
                    self.out.line(&l);
                }
                self.out.line(&UciMessage::UciOk.serialize());
            }
            Dialect::Ucci => {
                self.out.line(&format!("id name {NAME}"));
                self.out.line(&format!("id author {AUTHOR}"));
                for l in super::options::announce(d) {
                    self.out.line(&l);
                }
                self.out.line("ucciok");
            }
        }
    }

    fn set_option(&mut self, name: &str, value: &str) {
        match self.options.set(self.dialect(), name, value) {
            Ok(Effect::None) => {}
            Ok(Effect::ResizeHash) => {
                let mb = self.options.hash_mb as usize;
                let out = self.out.clone();
                self.with_searcher(move |s| {
                    if let Err(e) = s.set_hash_mb(mb) {
                        out.info_string(&e.to_string());
                    }
                });
            }
            Ok(Effect::Threads) => {
                let n = self.options.threads as usize;
                self.with_searcher(move |s| s.set_threads(n));
            }
            Ok(Effect::ClearHash) | Ok(Effect::NewGame) => self.with_searcher(Searcher::clear),
            Ok(Effect::LoadNetwork) => {
                let file = self.options.eval_file.clone();
                let loaded = if file.is_empty() {
                    Ok(crate::eval::nnue::default_network())
                } else {
                    Network::load(std::path::Path::new(&file)).map(Arc::new)
                };
                match loaded {
                    Ok(net) => {
                        self.network = net;
                        self.choose_evaluation();
                    }
                    Err(e) => self
                        .out
                        .info_string(&format!("EvalFile {file}: {e}; the network in use stays")),
                }
            }
            Ok(Effect::ChooseEvaluation) => self.choose_evaluation(),
            Err(e) => self.out.info_string(&e.to_string()),
        }
    }

    /// Gives the searcher the network or the classical evaluation, per `Use NNUE`.
    fn choose_evaluation(&mut self) {
        let net = self.options.use_nnue.then(|| Arc::clone(&self.network));
        self.with_searcher(move |s| s.set_network(net));
    }

    fn display(&self) {
        let pos = self.game.position();
        for l in fen::diagram(pos).lines() {
            self.out.line(l);
        }
        self.out.line(&format!("Fen: {}", pos.fen()));
        self.out.line(&format!("Key: {:016X}", pos.key()));
        let checkers: Vec<String> = fen::checkers(pos).map(|s| s.to_string()).collect();
        self.out.line(&format!("Checkers: {}", checkers.join(" ")));
    }

    fn spawn_task(&mut self, f: impl FnOnce(Searcher) -> (Searcher, Vec<u8>) + Send + 'static) {
        let Some(searcher) = self.searcher.take() else {
            return;
        };
        let out = self.out.clone();
        let events = self.events.clone();
        let (id, finished) = self.next_run();
        let thread_finished = Arc::clone(&finished);
        let handle = std::thread::spawn(move || {
            let (s, text) = f(searcher);
            thread_finished.store(true, Ordering::SeqCst);
            for l in String::from_utf8_lossy(&text).lines() {
                out.line(l);
            }
            let _ = events.send(Event::Done(id));
            Outcome::Task(s)
        });
        self.running = Some(Running {
            id,
            finished,
            signals: Arc::new(Signals::new(false)),
            handle,
            draw_offer: Arc::new(AtomicBool::new(false)),
        });
    }

    /// The number and the finished flag of the next search or task.
    fn next_run(&mut self) -> (u64, Arc<AtomicBool>) {
        self.started += 1;
        (self.started, Arc::new(AtomicBool::new(false)))
    }

    fn go(&mut self, args: GoArgs) {
        for w in &args.warnings {
            self.out.info_string(w);
        }
        let root = self.game.position().clone();
        if let Some(depth) = args.perft {
            let depth = depth.min(12) as u32;
            self.spawn_task(move |s| {
                let mut buf = Vec::new();
                let mut timing = Vec::new();
                let _ = crate::board::perft::run(&root, depth, 1, &mut buf, &mut timing);
                for l in String::from_utf8_lossy(&timing).lines() {
                    buf.extend_from_slice(format!("info string {l}\n").as_bytes());
                }
                (s, buf)
            });
            return;
        }
        let legal: Vec<Move> = root.legal_moves().iter().collect();
        if legal.is_empty() {
            self.print_no_move();
            return;
        }
        let dialect = self.dialect();
        if args.depth == Some(0) && dialect == Dialect::Ucci && !args.infinite {
            let game = self.game.clone();
            if let Some(s) = &mut self.searcher {
                let v = s.quiescence_score(&game);
                self.out
                    .line(&format!("info depth 0 {}", score_text(dialect, v)));
            }
            self.out.line("nobestmove");
            return;
        }
        // Root moves: bans removed, then searchmoves kept.
        let mut allowed: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|m| !self.bans.contains(m))
            .collect();
        if allowed.is_empty() {
            self.out.info_string("all moves banned; ban list ignored");
            allowed = legal.clone();
        }
        let wanted: Vec<Move> = args
            .searchmoves
            .iter()
            .filter_map(|t| root.parse_move(t).ok())
            .filter(|m| allowed.contains(m))
            .collect();
        if !wanted.is_empty() {
            allowed = wanted;
        }
        let root_moves = if allowed.len() == legal.len() {
            Vec::new()
        } else {
            allowed.clone()
        };
        let limits = limits(&args, root.side_to_move(), &self.options, root_moves);
        let signals = Arc::new(Signals::started_at(args.ponder, self.received));
        let Some(mut searcher) = self.searcher.take() else {
            return;
        };
        let out = self.out.clone();
        let (multi, wdl) = (self.options.multipv > 1, self.options.show_wdl);
        let mut sink = ProtocolSink {
            out: out.clone(),
            dialect,
            multi,
            wdl,
        };
        let skill = self.options.skill();
        searcher.set_multipv(skill.lines(self.options.multipv as usize));
        let game = self.game.clone();
        let events = self.events.clone();
        let thread_signals = Arc::clone(&signals);
        let draw_offer = Arc::new(AtomicBool::new(args.draw));
        let thread_draw_offer = Arc::clone(&draw_offer);
        let (id, finished) = self.next_run();
        let thread_finished = Arc::clone(&finished);
        let handle = std::thread::spawn(move || {
            let mut result = searcher.search(&game, &limits, &thread_signals, &mut sink);
            skill.choose(&mut result, &mut rand::rng());
            skill.take_win(&root, &allowed, &mut result);
            // Written here, not by the controller: the move goes out the moment the search
            // ends, with no thread hand-over on the clock's critical path.
            let offer = thread_draw_offer.load(Ordering::SeqCst);
            // Set before the move goes out: whatever the GUI sends once it has read the move
            // must find the search finished.
            thread_finished.store(true, Ordering::SeqCst);
            // The final score and counts, then the move, in one write.
            let mut text = final_info(dialect, &result, multi, wdl);
            text.push(bestmove_text(dialect, &root, &allowed, &result, offer));
            out.line(&text.join("\n"));
            let _ = events.send(Event::Done(id));
            Outcome::Search(searcher)
        });
        self.running = Some(Running {
            id,
            finished,
            signals,
            handle,
            draw_offer,
        });
    }
}

/// The terminal line when the side to move has no legal move.
fn no_move_text(dialect: Dialect) -> String {
    match dialect {
        Dialect::Uci => "info depth 0 score mate 0\nbestmove (none)".to_string(),
        Dialect::Ucci => "nobestmove".to_string(),
    }
}

/// The terminal line of a search from `root`: its best move if legal (else the first allowed
/// move), the expected reply, and UCCI's `draw` when a draw was offered and we stand worse.
fn bestmove_text(
    dialect: Dialect,
    root: &Position,
    allowed: &[Move],
    result: &SearchResult,
    draw_offer: bool,
) -> String {
    let best = result
        .best
        .filter(|&m| root.is_legal(m))
        .or_else(|| allowed.first().copied())
        .or_else(|| root.legal_moves().iter().next());
    let Some(best) = best else {
        return no_move_text(dialect);
    };
    let mut line = format!("bestmove {best}");
    if let Some(p) = result.ponder {
        if root.play(best).is_legal(p) {
            line.push_str(&format!(" ponder {p}"));
        }
    }
    if dialect == Dialect::Ucci && draw_offer && result.score <= Score::cp(-50) {
        line.push_str(" draw");
    }
    line
}

/// UCCI `pophash` for `pos`: the hash move and the stored bound, if any.
fn pophash(s: &Searcher, pos: &Position) -> String {
    let mut line = String::from("pophash");
    if let Some((mv, score, depth, bound)) = s.probe(pos) {
        if let Some(m) = mv {
            line.push_str(&format!(" bestmove {m}"));
        }
        let v = super::output::ucci(score);
        if matches!(bound, Bound::Lower | Bound::Exact) {
            line.push_str(&format!(" lowerbound {v} depth {depth}"));
        }
        if matches!(bound, Bound::Upper | Bound::Exact) {
            line.push_str(&format!(" upperbound {v} depth {depth}"));
        }
    }
    line
}

/// Why a `position` (or `probe`) could not be set up: its FEN or one of its moves.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
enum PositionError {
    #[error(transparent)]
    Fen(#[from] crate::board::FenError),
    #[error(transparent)]
    Moves(#[from] crate::board::GameError),
}

/// Builds a game from a position spec, all or nothing.
fn build_game(spec: &PositionSpec) -> Result<Game, PositionError> {
    let start = match &spec.fen {
        None => Position::startpos(),
        Some(f) => f.parse::<Position>()?,
    };
    Ok(Game::from_moves(start, &spec.moves)?)
}
