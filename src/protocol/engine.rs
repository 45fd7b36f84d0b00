//! The controller: a state machine that owns the game, the options and (when idle) the
//! `Searcher`, and runs each command in order.
//!
//! Idle, it runs every command at once. While a search (or a bench/perft task) runs on its own
//! thread, `isready`, `stop`, `ponderhit` and `quit` act at once and every other command is
//! queued, first stopping an open-ended search (infinite, or pondering). Every `go` yields
//! exactly one terminal line, and the move it names is legal in the position searched.

use super::command::{self, Command, GoArgs, PositionSpec};
use super::options::{Effect, Options};
use super::output::{score_text, Out, ProtocolSink};
use super::Dialect;
use crate::board::{fen, Game, Move, Position};
use crate::eval::nnue::Network;
use crate::score::Score;
use crate::search::{Bound, Clock, Control, Limits, SearchResult, Searcher};
use std::collections::VecDeque;
use std::sync::mpsc::Sender;
use std::sync::Arc;
use std::thread::JoinHandle;

/// Engine name and version as announced.
pub const NAME: &str = concat!("Chariot ", env!("CARGO_PKG_VERSION"));
/// Authors as announced.
pub const AUTHOR: &str = "the Chariot developers";

/// What reaches the controller.
#[derive(Debug)]
pub enum Event {
    /// One input line (line end stripped, decoded lossily).
    Line(String),
    /// An input line over the length limit, discarded.
    TooLong,
    /// End of input.
    Eof,
    /// The running search or task finished.
    Done,
}

enum Outcome {
    Search(Searcher, SearchResult),
    Task(Searcher),
}

struct Running {
    control: Arc<Control>,
    handle: JoinHandle<Outcome>,
    infinite: bool,
    root: Option<Position>,
    draw_offer: bool,
    allowed: Vec<Move>,
}

/// The protocol state machine.
pub struct Controller {
    out: Out,
    events: Sender<Event>,
    dialect: Option<Dialect>,
    options: Options,
    game: Game,
    bans: Vec<Move>,
    searcher: Option<Searcher>,
    running: Option<Running>,
    queue: VecDeque<String>,
    quitting: bool,
    warned_dialect: bool,
    /// The network `Use NNUE` evaluates with (the embedded one unless `EvalFile` loaded another).
    network: Arc<Network>,
}

const HELP: &str = "\
Chariot speaks UCI (after `uci`, or with no handshake) and UCCI (after `ucci`).
  uci | ucci                   handshake: id, options, uciok/ucciok
  isready                      readyok
  setoption name N [value V]   or UCCI `setoption N V` (Hash, Clear Hash, Ponder, Move Overhead,
                               Use NNUE, EvalFile)
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
        Controller {
            out,
            events,
            dialect: None,
            searcher: Some(Searcher::new(options.hash_mb as usize)),
            options,
            game: Game::default(),
            bans: Vec::new(),
            running: None,
            queue: VecDeque::new(),
            quitting: false,
            warned_dialect: false,
            network: crate::eval::nnue::default_network(),
        }
    }

    fn dialect(&self) -> Dialect {
        self.dialect.unwrap_or(Dialect::Uci)
    }

    /// Handles one event. Returns `false` when the process should exit.
    pub fn handle(&mut self, event: Event) -> bool {
        match event {
            Event::Done => self.finish_running(),
            Event::Eof => self.quit(),
            Event::TooLong => {
                self.out.info_string("line too long, ignored");
                true
            }
            Event::Line(line) => {
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
            r.control.stop();
            self.quitting = true;
            return true;
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
        match command::parse(&line) {
            Ok(Command::IsReady) => self.out.line("readyok"),
            Ok(Command::Stop) => r.control.stop(),
            Ok(Command::PonderHit { draw }) => {
                if r.control.pondering() {
                    r.control.ponderhit();
                    if draw {
                        if let Some(r) = &mut self.running {
                            r.draw_offer = true;
                        }
                    }
                }
            }
            Ok(Command::Quit) => return self.quit(),
            Ok(Command::Nothing) => {}
            Ok(Command::Path(args)) => self.path(&args),
            // The table is with the search thread: answer without its data.
            Ok(Command::Probe(_)) => self.out.line("pophash"),
            _ => {
                if r.infinite || r.control.pondering() {
                    r.control.stop();
                }
                self.queue.push_back(line);
            }
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
                s.set_network(self.options.use_nnue.then(|| Arc::clone(&self.network)));
                Outcome::Task(s)
            }
        };
        match outcome {
            Outcome::Task(s) => self.searcher = Some(s),
            Outcome::Search(s, result) => {
                self.searcher = Some(s);
                if let Some(root) = &r.root {
                    self.print_bestmove(root, &r.allowed, &result, r.draw_offer);
                }
            }
        }
        if self.quitting {
            self.quitting = false;
            return self.quit();
        }
        while self.running.is_none() {
            let Some(line) = self.queue.pop_front() else {
                break;
            };
            if !self.execute(&line) {
                return false;
            }
        }
        true
    }

    fn print_bestmove(
        &self,
        root: &Position,
        allowed: &[Move],
        result: &SearchResult,
        draw_offer: bool,
    ) {
        let best = result
            .best
            .filter(|&m| root.is_legal(m))
            .or_else(|| allowed.first().copied())
            .or_else(|| root.legal_moves().iter().next());
        let Some(best) = best else {
            self.print_no_move();
            return;
        };
        let mut line = format!("bestmove {best}");
        if let Some(p) = result.ponder {
            if root.play(best).is_legal(p) {
                line.push_str(&format!(" ponder {p}"));
            }
        }
        if self.dialect() == Dialect::Ucci && draw_offer && result.score <= Score::cp(-50) {
            line.push_str(" draw");
        }
        self.out.line(&line);
    }

    fn print_no_move(&self) {
        match self.dialect() {
            Dialect::Uci => {
                self.out.line("info depth 0 score mate 0");
                self.out.line("bestmove (none)");
            }
            Dialect::Ucci => self.out.line("nobestmove"),
        }
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
                for l in crate::eval::breakdown(pos).lines() {
                    self.out.line(l);
                }
                let v = crate::eval::nnue::accumulator::evaluate(&self.network, pos);
                self.out.line(&format!(
                    "classical {} network {v} (side to move; {} in use)",
                    crate::eval::evaluate(pos),
                    if self.options.use_nnue {
                        "network"
                    } else {
                        "classical"
                    }
                ));
            }
            Command::Bench(depth) => self.spawn_task(move |s| {
                let mut buf = Vec::new();
                let _ = crate::tools::bench::run(depth, &mut buf);
                (s, buf)
            }),
            Command::Path(args) => self.path(&args),
            Command::Help => {
                for l in HELP.lines() {
                    self.out.line(l);
                }
            }
        }
        true
    }

    /// `path …` runs at once, idle or searching: it touches no game or search state.
    fn path(&self, args: &[String]) {
        match crate::path::command(args) {
            Ok(text) => {
                for l in text.lines() {
                    self.out.line(l);
                }
            }
            Err(e) => self
                .out
                .info_string(&format!("path: {}", command::echo_text(&e))),
        }
    }

    fn with_searcher(&mut self, f: impl FnOnce(&mut Searcher)) {
        if let Some(s) = &mut self.searcher {
            f(s);
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
                self.with_searcher(|s| s.set_hash_mb(mb));
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
            Err(Some(msg)) => self.out.info_string(&msg),
            Err(None) => {}
        }
    }

    /// Gives the searcher the network or the classical evaluation, per `Use NNUE`.
    fn choose_evaluation(&mut self) {
        let net = self.options.use_nnue.then(|| Arc::clone(&self.network));
        self.with_searcher(|s| s.set_network(net));
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
        let handle = std::thread::spawn(move || {
            let (s, text) = f(searcher);
            for l in String::from_utf8_lossy(&text).lines() {
                out.line(l);
            }
            let _ = events.send(Event::Done);
            Outcome::Task(s)
        });
        self.running = Some(Running {
            control: Arc::new(Control::new(false)),
            handle,
            infinite: false,
            root: None,
            draw_offer: false,
            allowed: Vec::new(),
        });
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
                let _ = crate::tools::perft::run(&root, depth, 1, &mut buf, &mut timing);
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
        let limits = self.limits(&args, &root, &allowed, legal.len());
        let control = Arc::new(Control::new(args.ponder));
        let Some(mut searcher) = self.searcher.take() else {
            return;
        };
        let mut sink = ProtocolSink {
            out: self.out.clone(),
            dialect,
        };
        let game = self.game.clone();
        let events = self.events.clone();
        let thread_control = Arc::clone(&control);
        let handle = std::thread::spawn(move || {
            let result = searcher.search(&game, &limits, &thread_control, &mut sink);
            let _ = events.send(Event::Done);
            Outcome::Search(searcher, result)
        });
        self.running = Some(Running {
            control,
            handle,
            infinite: args.infinite,
            root: Some(root),
            draw_offer: args.draw,
            allowed,
        });
    }

    fn limits(&self, args: &GoArgs, root: &Position, allowed: &[Move], legal: usize) -> Limits {
        let ucci_scale = |v: u64| {
            if self.options.usemillisec {
                v
            } else {
                v.saturating_mul(1000)
            }
        };
        let red = root.side_to_move() == crate::board::Color::Red;
        let clock = if let Some(t) = args.time {
            Some(Clock {
                time: ucci_scale(t),
                inc: args.increment.map(ucci_scale).unwrap_or(0),
                movestogo: args.movestogo.map(|m| m.min(u32::MAX as u64) as u32),
            })
        } else {
            let (t, i) = if red {
                (args.wtime, args.winc)
            } else {
                (args.btime, args.binc)
            };
            t.map(|time| Clock {
                time,
                inc: i.unwrap_or(0),
                movestogo: args.movestogo.map(|m| m.min(u32::MAX as u64) as u32),
            })
        };
        let to_u32 = |v: u64| v.min(u32::MAX as u64) as u32;
        Limits {
            depth: args.depth.map(|d| to_u32(d).max(1)),
            nodes: args.nodes,
            movetime: args.movetime,
            mate: args.mate.map(to_u32),
            clock,
            infinite: args.infinite,
            move_overhead: self.options.move_overhead.max(0) as u64,
            root_moves: if allowed.len() == legal {
                Vec::new()
            } else {
                allowed.to_vec()
            },
        }
    }
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

/// Builds a game from a position spec, all or nothing.
fn build_game(spec: &PositionSpec) -> Result<Game, String> {
    let start = match &spec.fen {
        None => Position::startpos(),
        Some(f) => f.parse::<Position>().map_err(|e| e.to_string())?,
    };
    Game::from_moves(start, &spec.moves).map_err(|e| e.to_string())
}
