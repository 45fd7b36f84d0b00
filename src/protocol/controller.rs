//! The controller: a state machine that owns the game, the options and (when idle) the
//! `Searcher`, and runs each command in order.
//!
//! Idle, it runs every command at once. While a search (or a bench/perft task) runs on its own
//! thread, `stop`, `ponderhit` and `quit` act at once; so does every command that does not need
//! the searcher (`position`, `setoption`, `banmoves`, `d`, `eval`, handshakes…), an option's
//! effect on the tables (hash size, clearing) being applied when the searcher comes back. Only
//! what needs the searcher to run (`go`, `bench`) is queued, first stopping the running search
//! (a new search supersedes it), and every later line queues behind it, so commands take effect
//! in the order sent; a `stop` ends the running search and every search queued before it.
//! `isready` is answered at once unless something is queued before it, then as soon as that has
//! run (a search it started need not end). Work on the tables that may take a second (a `Hash`
//! resize, clearing) also runs on the searcher's thread: every line but `quit` and `path` waits
//! for it, `isready` included, and `quit` does not. `path` runs on a thread of its own. Every
//! `go` yields exactly one terminal line, written by the search thread the moment the search
//! ends, and the move it names is legal in the position searched.

use super::command::{self, Command, GoArgs, PositionSpec};
use super::go::limits;
use super::lag::LagMeter;
use super::options::{Effect, Options};
use super::output::{final_info, score_text, Out, ProtocolSink};
use super::Dialect;
use crate::board::{fen, Game, Move, Position};
use crate::eval::nnue::Network;
use crate::host::{Instant, JoinHandle};
use crate::score::Score;
use crate::search::{Bound, SearchResult, Searcher, Signals};
use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Sender;
use std::sync::Arc;

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

struct Running {
    /// Which search or task this is (`Event::Done` names it).
    id: u64,
    /// Set by the thread just before it writes its answer: the searcher is about to come back.
    finished: Arc<AtomicBool>,
    signals: Arc<Signals>,
    /// The thread; it hands the searcher back when it ends.
    handle: JoinHandle<Searcher>,
    /// UCCI `ponderhit draw`: the opponent offered a draw (read when the move is written).
    draw_offer: Arc<AtomicBool>,
    /// It ends on its own (a limit, a clock, a perft, a bench), unless it ponders: the end of
    /// input lets it finish. Otherwise (`go infinite`, `go` with no limit) the end of input
    /// stops it.
    bounded: bool,
    /// Work on the tables (a `Hash` resize, clearing): it cannot be stopped, every line but
    /// `quit` and `path` waits for it (`isready` included), and `quit` does not wait for it.
    tables: bool,
}

/// A line waiting for the running work to end.
struct Queued {
    line: String,
    /// When it was read.
    received: Instant,
    /// A `stop` came after it: a search it starts is stopped at once.
    stopped: bool,
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
    queue: VecDeque<Queued>,
    /// When the line being handled was read.
    received: Instant,
    quitting: bool,
    at_eof: bool,
    /// `path` jobs that may still run (finished ones are dropped as new ones start).
    paths: Vec<JoinHandle<()>>,
    warned_dialect: bool,
    /// The network `Use NNUE` evaluates with (the embedded one unless `EvalFile` loaded another).
    network: Arc<Network>,
    /// The lag the GUI's clock charges, learnt over the game.
    lag: LagMeter,
}

const HELP: &str = "\
Chariot speaks UCI (after `uci`, or with no handshake) and UCCI (after `ucci`).
  uci | ucci                   handshake: id, the options, then the ok line
  isready                      answered once the commands before it are done
  setoption name N [value V]   or UCCI `setoption N V` (the options: `uci` or `ucci`)
  ucinewgame | newgame | uccinewgame    clear the hash table and histories
  position startpos|fen F [moves M...]  (the word `position` may be left out)
  go [depth D] [nodes N] [movetime T] [mate N] [infinite] [ponder] [searchmoves M...]
     [wtime T btime T winc I binc I movestogo M]
     [time T increment I movestogo M opptime T oppincrement I oppmovestogo M] [draw]
  go perft D                   leaves per root move (`stop` ends it)
  stop | ponderhit [draw] | quit
  banmoves M...                exclude root moves until the next position
  probe startpos|fen F [moves M...]     the hash entry: pophash ...
  d | eval                     the board; the evaluation's terms
  bench [D]                    the bench signature at depth D (`stop` ends it)
  path ...                     grid shortest paths (`path` alone: its usage)
  params                       the search's tuning numbers (hidden options) as option lines
  help                         this list";

impl Controller {
    /// A controller writing to `out`; search threads signal completion on `events`.
    pub fn new(out: Out, events: Sender<Event>) -> Controller {
        let options = Options::new();
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
            lag: LagMeter::default(),
        };
        // A new searcher evaluates classically: give it the evaluation the options choose.
        c.choose_evaluation();
        c
    }

    fn dialect(&self) -> Dialect {
        self.dialect.unwrap_or(Dialect::Uci)
    }

    /// Whether a search or a bench has started and not yet ended (work on the tables and
    /// `path` jobs aside). A browser's worker tells the page when this becomes true: without
    /// shared memory, the page then answers for the busy worker (`crate::web`).
    pub fn searching(&self) -> bool {
        self.running.as_ref().is_some_and(|r| !r.tables)
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
                self.at_eof = true;
                self.end_of_input()
            }
            Event::TooLong => {
                self.out.info_string("line too long, ignored");
                true
            }
            Event::Line(line, received) => {
                log::debug!("received: {}", command::echo_text(&line));
                self.dispatch(Queued {
                    line,
                    received,
                    stopped: false,
                })
            }
        }
    }

    /// Handles a line, arriving or taken from the queue: at once when idle (stopping a search
    /// it starts if a `stop` came after it), else as a line arriving while work runs.
    fn dispatch(&mut self, q: Queued) -> bool {
        self.received = q.received;
        if self.running.is_some() {
            return self.while_running(q.line, q.stopped);
        }
        let go_on = self.execute(&q.line);
        if q.stopped {
            if let Some(r) = self.running.as_ref().filter(|r| !r.tables) {
                r.signals.stop();
            }
        }
        go_on
    }

    /// Puts a line in the queue.
    fn enqueue(&mut self, line: String, stopped: bool) {
        self.queue.push_back(Queued {
            line,
            received: self.received,
            stopped,
        });
    }

    /// End of input: a script piped its commands and waits for the answers. A bounded search
    /// or task still running finishes and answers, and the commands queued behind it run;
    /// anything open-ended (`go infinite`, a ponder not yet hit, `go` with no limit) is stopped
    /// at once, as by `quit`. The process ends once nothing runs (and `path` jobs are done).
    fn end_of_input(&mut self) -> bool {
        match &self.running {
            Some(r) if r.bounded && !r.signals.pondering() => true,
            _ => self.quit(),
        }
    }

    fn quit(&mut self) -> bool {
        // Work on the tables is not waited for: it ends with the process.
        if let Some(r) = self.running.as_ref().filter(|r| !r.tables) {
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

    /// A line arriving while work runs. `stopped`: a `stop` came after it (it was queued).
    fn while_running(&mut self, line: String, stopped: bool) -> bool {
        let Some(r) = &self.running else {
            return true;
        };
        if r.finished.load(Ordering::SeqCst) {
            // The answer is out and the thread is ending: take the searcher back now, so this
            // line (a `probe`, say) meets the engine as it will be once `Done` arrives.
            let received = self.received;
            return self.finish_running()
                && self.dispatch(Queued {
                    line,
                    received,
                    stopped,
                });
        }
        if r.tables {
            match command::parse(&line) {
                Ok(Command::Quit) => return self.quit(),
                Ok(Command::Nothing) => {}
                Ok(Command::Path(args)) => self.path(args),
                // Everything else meets the tables as they will be: `isready` waits for them,
                // and a `stop` for a search queued here.
                _ => self.enqueue(line, stopped),
            }
            return true;
        }
        match command::parse(&line) {
            Ok(Command::IsReady) if self.queue.is_empty() => self.out.line("readyok"),
            Ok(Command::Stop) => {
                r.signals.stop();
                // It ends the searches queued before it too, each as it starts.
                for q in &mut self.queue {
                    q.stopped = true;
                }
            }
            // Behind a queued `go ponder`, it is that search's: it waits its turn.
            Ok(Command::PonderHit { draw }) if self.queue.is_empty() => {
                if r.signals.pondering() {
                    // Measured from when it was read (it may have waited in the queue).
                    r.signals.ponderhit_at(self.received);
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
                self.enqueue(line, stopped);
            }
            _ if !self.queue.is_empty() => self.enqueue(line, stopped),
            _ => return self.execute(&line),
        }
        true
    }

    fn finish_running(&mut self) -> bool {
        let Some(r) = self.running.take() else {
            return true;
        };
        if !r.tables {
            // A ponder search may have waited for `ponderhit` with its work done: its time on
            // the wall says nothing of the machine.
            let ran = r.signals.ran_ms().filter(|_| !r.signals.pondered());
            self.lag.answered(r.signals.answered_ms(), ran);
        }
        let (searcher, panicked) = match r.handle.join() {
            Ok(s) => (s, false),
            Err(_) => {
                log::error!("search thread panicked");
                let mut s = Searcher::new(self.options.hash_mb as usize);
                s.set_threads(self.options.threads as usize);
                s.set_params(self.options.params.clone());
                (s, true)
            }
        };
        self.searcher = Some(searcher);
        if self.quitting {
            self.quitting = false;
            return self.quit();
        }
        if panicked {
            // A new searcher evaluates classically: give it the evaluation the options choose.
            self.choose_evaluation();
        }
        if !self.deferred.is_empty() {
            // The changes asked for during the work (a resize, say, may take a second) run
            // beside the loop too; what waits runs once they are done.
            let changes = std::mem::take(&mut self.deferred);
            self.tables(Box::new(move |s: &mut Searcher| {
                for f in changes {
                    f(s);
                }
            }));
            return true;
        }
        // Everything that waited, in order; once one starts a search, the rest are handled as
        // lines arriving during it.
        let waiting = std::mem::take(&mut self.queue);
        for q in waiting {
            if !self.dispatch(q) {
                return false;
            }
        }
        if self.at_eof {
            return self.end_of_input();
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
            Command::NewGame => {
                self.lag.new_game();
                self.tables(Box::new(Searcher::clear));
            }
            Command::Position(spec) => self.position(&spec),
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
            Command::Probe(spec) => self.probe(&spec),
            Command::Display => self.display(),
            Command::Eval => self.eval(),
            Command::Bench(depth) => self.bench(depth),
            Command::Path(args) => self.path(args),
            Command::Help => self.out.line(HELP),
            Command::Params => {
                for l in super::options::params_announcement(&self.options.params) {
                    self.out.line(&l);
                }
            }
        }
        true
    }

    /// `position`: all or nothing.
    fn position(&mut self, spec: &PositionSpec) {
        match build_game(spec) {
            Ok(g) => {
                self.game = g;
                self.bans.clear();
            }
            Err(e) => self.out.info_string(&format!("invalid position: {e}")),
        }
    }

    /// UCCI `probe`: the hash entry of a position.
    fn probe(&self, spec: &PositionSpec) {
        match build_game(spec) {
            Ok(g) => {
                let line = self
                    .searcher
                    .as_ref()
                    .map_or_else(|| "pophash".to_string(), |s| pophash(s, g.position()));
                self.out.line(&line);
            }
            Err(e) => self.out.info_string(&format!("invalid probe: {e}")),
        }
    }

    /// `eval`: the classical breakdown, then both evaluations.
    fn eval(&self) {
        let pos = self.game.position();
        for l in crate::eval::classical::breakdown(pos).lines() {
            self.out.line(l);
        }
        let v = crate::eval::nnue::accumulator::evaluate(&self.network, pos);
        let in_use = if self.options.use_nnue {
            "network"
        } else {
            "classical"
        };
        self.out.line(&format!(
            "classical {} network {v} (side to move; {in_use} in use)",
            crate::eval::classical::evaluate(pos),
        ));
    }

    /// `bench`, with the evaluation in use (the signature is the default one's).
    fn bench(&mut self, depth: Option<u32>) {
        let net = self.options.use_nnue.then(|| Arc::clone(&self.network));
        self.spawn(Signals::new(false), false, true, move |s, signals, _| {
            let mut buf = Vec::new();
            let text = match crate::search::bench::run_until(depth, net, signals, &mut buf) {
                Ok(Some(_)) => lines_of(&buf),
                _ => "info string bench stopped".to_string(),
            };
            (s, text)
        })
    }

    /// `path …` runs on a thread of its own, idle or searching: it touches no game or search
    /// state, and a large scenario file must not hold up `stop`, `isready` or `quit`. Its
    /// answer is written as one message when it is ready; `quit` does not wait for it, the end
    /// of input does.
    fn path(&mut self, args: Vec<String>) {
        let out = self.out.clone();
        self.paths.retain(|job| !job.is_finished());
        self.paths.push(crate::host::spawn(move || {
            match crate::path::command(&args) {
                Ok(text) => out.line(&text),
                Err(e) => out.info_string(&format!("path: {}", command::echo_text(&e.to_string()))),
            }
        }));
    }

    /// Applies `f` (quick: no table-sized work) to the searcher now, or when it comes back
    /// from the running work.
    fn with_searcher(&mut self, f: impl FnOnce(&mut Searcher) + Send + 'static) {
        match &mut self.searcher {
            Some(s) => f(s),
            None => self.deferred.push(Box::new(f)),
        }
    }

    /// Applies `f`, work on the tables that may take a second (resizing or clearing a large
    /// hash table), on a thread of its own, so that the loop still hears `quit`; the lines
    /// after it (`isready` included) wait for it. When the searcher is busy, `f` runs when it
    /// comes back, on such a thread too.
    fn tables(&mut self, f: Deferred) {
        if self.searcher.is_none() {
            self.deferred.push(f);
            return;
        }
        self.spawn(Signals::new(false), false, true, move |mut s, _, _| {
            f(&mut s);
            (s, String::new())
        });
        if let Some(r) = &mut self.running {
            r.tables = true;
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
                self.tables(Box::new(move |s: &mut Searcher| {
                    if let Err(e) = s.set_hash_mb(mb) {
                        out.info_string(&e.to_string());
                    }
                }));
            }
            Ok(Effect::Threads) => {
                let n = self.options.threads as usize;
                self.with_searcher(move |s| s.set_threads(n));
            }
            Ok(Effect::ClearHash) => self.tables(Box::new(Searcher::clear)),
            Ok(Effect::NewGame) => {
                self.lag.new_game();
                self.tables(Box::new(Searcher::clear));
            }
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
                    Err(e) => self.out.info_string(&format!(
                        "EvalFile {}: {}; the network in use stays",
                        command::shown_text(&file, 64),
                        command::shown_text(&e.to_string(), 200)
                    )),
                }
            }
            Ok(Effect::ChooseEvaluation) => self.choose_evaluation(),
            Ok(Effect::Params) => {
                let params = self.options.params.clone();
                self.with_searcher(move |s| s.set_params(params));
            }
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

    /// Runs `work` on a thread of its own with the searcher, and writes the text it returns
    /// as one message; the searcher comes back with `Event::Done`. `draw` is UCCI's draw offer
    /// (`go draw`; `ponderhit draw` sets it later). `bounded`: it ends on its own.
    fn spawn(
        &mut self,
        signals: Signals,
        draw: bool,
        bounded: bool,
        work: impl FnOnce(Searcher, &Arc<Signals>, &AtomicBool) -> (Searcher, String) + Send + 'static,
    ) {
        let Some(searcher) = self.searcher.take() else {
            return;
        };
        let out = self.out.clone();
        let events = self.events.clone();
        self.started += 1;
        let id = self.started;
        let finished = Arc::new(AtomicBool::new(false));
        let signals = Arc::new(signals);
        let draw_offer = Arc::new(AtomicBool::new(draw));
        let (thread_finished, thread_signals, thread_draw_offer) = (
            Arc::clone(&finished),
            Arc::clone(&signals),
            Arc::clone(&draw_offer),
        );
        let handle = crate::host::spawn(move || {
            let (wall, cpu) = (Instant::now(), crate::host::thread_cpu_time());
            let (searcher, text) = work(searcher, &thread_signals, &thread_draw_offer);
            if let Some((from, to)) = cpu.zip(crate::host::thread_cpu_time()) {
                thread_signals.ran(to.saturating_sub(from), wall.elapsed());
            }
            // Set before the answer goes out: whatever the GUI sends once it has read the
            // answer must find the work finished.
            thread_finished.store(true, Ordering::SeqCst);
            if !text.is_empty() {
                out.line(&text);
                thread_signals.answer_written();
            }
            let _ = events.send(Event::Done(id));
            searcher
        });
        self.running = Some(Running {
            id,
            finished,
            signals,
            handle,
            draw_offer,
            bounded,
            tables: false,
        });
    }

    /// `go`: perft, UCCI's quiescence score, or a search of the allowed root moves.
    fn go(&mut self, args: GoArgs) {
        if args.depth == Some(0) && args.perft.is_none() && self.dialect() == Dialect::Uci {
            // UCCI's `go depth 0` asks for the quiescence score; UCI has no such thing.
            return self.out.info_string(
                "invalid go: depth 0 (depths start at 1; UCCI's depth 0 is the quiescence score)",
            );
        }
        for w in &args.warnings {
            self.out.info_string(w);
        }
        if let Some(depth) = args.perft {
            return self.perft(depth);
        }
        let root = self.game.position().clone();
        let legal: Vec<Move> = root.legal_moves().iter().collect();
        if legal.is_empty() {
            return self.print_no_move();
        }
        if args.depth == Some(0) && self.dialect() == Dialect::Ucci && !args.infinite {
            return self.quiescence_only();
        }
        let allowed = self.root_moves(&root, &legal, &args.searchmoves);
        // Empty: every legal move (the search need not filter).
        let restricted = if allowed.len() == legal.len() {
            Vec::new()
        } else {
            allowed.clone()
        };
        self.search(&args, root, allowed, restricted);
    }

    /// `go perft N`: leaf counts per root move, no search.
    fn perft(&mut self, depth: u64) {
        let root = self.game.position().clone();
        let depth = depth.min(12) as u32;
        self.spawn(Signals::new(false), false, true, move |s, signals, _| {
            let mut buf = Vec::new();
            let mut timing = Vec::new();
            let stop = || signals.stopped();
            let _ = crate::board::perft::run_until(&root, depth, 1, &stop, &mut buf, &mut timing);
            for l in String::from_utf8_lossy(&timing).lines() {
                buf.extend_from_slice(format!("info string {l}\n").as_bytes());
            }
            (s, lines_of(&buf))
        });
    }

    /// UCCI `go depth 0`: the quiescence score, then `nobestmove` (the UCCI spec's `go`).
    fn quiescence_only(&mut self) {
        let dialect = self.dialect();
        let game = self.game.clone();
        if let Some(s) = &mut self.searcher {
            let v = s.quiescence_score(&game);
            self.out
                .line(&format!("info depth 0 {}", score_text(dialect, v)));
        }
        self.out.line("nobestmove");
    }

    /// The moves a search may play: the legal ones less the bans (all of them, with a word,
    /// if the bans leave none), then only those of `searchmoves` if it names any of them.
    fn root_moves(&self, root: &Position, legal: &[Move], searchmoves: &[String]) -> Vec<Move> {
        let mut allowed: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|m| !self.bans.contains(m))
            .collect();
        if allowed.is_empty() {
            self.out.info_string("all moves banned; ban list ignored");
            allowed = legal.to_vec();
        }
        let wanted: Vec<Move> = searchmoves
            .iter()
            .filter_map(|t| root.parse_move(t).ok())
            .filter(|m| allowed.contains(m))
            .collect();
        if wanted.is_empty() {
            allowed
        } else {
            wanted
        }
    }

    /// Starts the search of `root` on its own thread; it writes its final `info` line and its
    /// terminal line itself. `allowed`: the moves it may play; `restricted`: the same, or
    /// empty when they are all the legal moves.
    fn search(&mut self, args: &GoArgs, root: Position, allowed: Vec<Move>, restricted: Vec<Move>) {
        let dialect = self.dialect();
        let mut limits = limits(args, root.side_to_move(), &self.options, restricted);
        limits.lag = self.lag.go(&self.game, limits.clock);
        let params = &self.options.params;
        if let Some((c, b)) = limits
            .clock
            .zip(crate::search::time::budget(&limits, params))
        {
            self.lag.started(&root, c, b.hard);
        }
        let (multi, wdl) = (self.options.multipv > 1, self.options.show_wdl);
        let mut sink = ProtocolSink {
            out: self.out.clone(),
            dialect,
            multi,
            wdl,
        };
        let skill = self.options.skill();
        let lines = skill.lines(self.options.multipv as usize);
        let game = self.game.clone();
        let bounded = !limits.infinite
            && (limits.depth.is_some()
                || limits.nodes.is_some()
                || limits.movetime.is_some()
                || limits.mate.is_some()
                || limits.clock.is_some());
        let signals = Signals::started_at(args.ponder, self.received);
        self.spawn(
            signals,
            args.draw,
            bounded,
            move |mut searcher, signals, draw_offer| {
                searcher.set_multipv(lines);
                let mut result = searcher.search(&game, &limits, signals, &mut sink);
                skill.choose(&mut result, &mut rand::rng());
                skill.take_win(&root, &allowed, &mut result);
                // Written by this thread, not the controller: the move goes out the moment the
                // search ends, with no thread hand-over on the clock's critical path. The final
                // score and counts, then the move, in one write.
                let offer = draw_offer.load(Ordering::SeqCst);
                let mut text = final_info(dialect, &result, multi, wdl);
                text.push(bestmove_text(dialect, &root, &allowed, &result, offer));
                (searcher, text.join("\n"))
            },
        );
    }
}

/// The lines of a task's output as one message (no final newline).
fn lines_of(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes)
        .lines()
        .collect::<Vec<_>>()
        .join("\n")
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
