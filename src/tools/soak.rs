//! `chariot soak`: self-play under a restless GUI. Two engine processes play game after game at
//! a short clock while the driver changes their options at random moments, between moves and in
//! the middle of searches (`Threads` 1↔2, `Hash`, `MultiPV`, `Ponder` with `go ponder` /
//! `ponderhit` / `stop`, `Skill Level`, `UCI_LimitStrength`, `Clear Hash`, `UCI_ShowWDL`,
//! `EvalFile` and `Use NNUE`), in either dialect and either `setoption` syntax.
//!
//! Everything the engine says is checked: every `isready` is answered within a deadline (also
//! in mid-search), every move is legal (the crate's referee, `board::Game`) and so is every
//! `ponder` move, no side oversteps its clock, `info` lines carry `wdl` exactly when
//! `UCI_ShowWDL` was on at `go`, no more `multipv` lines than asked at full strength, `eval`
//! reports the network the options chose (a bad `EvalFile` is refused with an `info string` and
//! the network in use stays; an empty one brings back the built-in network), output is ASCII,
//! and after every game each process is alive, answers `isready` and stays within `Hash` plus
//! a slack of resident memory (`VmRSS`; `VmHWM` against the largest `Hash` it had). A process
//! restarted between games must leave within 500 ms of `quit` (with `bye` in UCCI).
//!
//! The driver's choices come from a seeded generator, one stream per game (`seed`, game
//! number), so a run can be repeated; the engines' moves depend on timing, so games differ.
//! The `eval` check compares the engine's network value with the driver's own evaluation: the
//! engine must be this build. A fault ends its game (counted as abandoned) and both processes
//! are replaced.

use crate::board::{Color, Game, Move, Position};
use crate::eval::nnue::{accumulator, default_network, Network};
use crate::protocol::Dialect;
use crate::tools::matches::engine::{position_line, read_lines, split_command, Go};
use crate::tools::openings::{self, Opening, DEFAULT_OPENINGS};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use std::collections::{BTreeMap, VecDeque};
use std::io::Write;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A soak run.
#[derive(Clone, Debug)]
pub struct Config {
    /// The engine's command line (both sides run it); it must be this build (see the module).
    pub engine: String,
    /// Games to play.
    pub games: usize,
    /// Seed of the driver's choices.
    pub seed: u64,
    /// Each side's starting clock (ms).
    pub base_ms: u64,
    /// Increment per move (ms).
    pub inc_ms: u64,
    /// Length cap in plies (opening moves included): a draw.
    pub maxplies: usize,
    /// Milliseconds a side may overstep its clock before it counts as lost on time.
    pub margin_ms: u64,
    /// Longest wait for `readyok` (and for a handshake or a stopped ponder search), ms.
    pub ready_ms: u64,
    /// Resident memory allowed beyond `Hash`, MiB.
    pub memory_slack_mb: u64,
    /// The dialect of every process, or `None` for a random one per process.
    pub dialect: Option<Dialect>,
    /// Probability, at each ply, of one option change before the move and, independently, of
    /// one during the search.
    pub toggle_rate: f64,
    /// Largest `Hash` set (MiB).
    pub max_hash_mb: u32,
    /// Probability of replacing both processes between two games (which checks `quit`).
    pub restart_rate: f64,
    /// A valid network file other than the built-in one, for `EvalFile`; `None`: the driver
    /// writes one (the built-in network with its output biases shifted) to the temporary
    /// directory and removes it at the end.
    pub eval_file: Option<String>,
    /// Games played at once, each with its own pair of processes.
    pub concurrency: usize,
    /// One line per game on stderr.
    pub progress: bool,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            engine: String::new(),
            games: 20,
            seed: 1,
            base_ms: 1000,
            inc_ms: 10,
            maxplies: 300,
            margin_ms: 100,
            ready_ms: 3000,
            memory_slack_mb: 40,
            dialect: None,
            toggle_rate: 0.1,
            max_hash_mb: 64,
            restart_rate: 0.05,
            eval_file: None,
            concurrency: 1,
            progress: false,
        }
    }
}

/// The option changes the driver makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Toggle {
    /// `Threads` 1 ↔ 2.
    Threads,
    /// `Hash` to another size.
    Hash,
    /// `MultiPV` 1–4.
    MultiPv,
    /// `Ponder` on or off (on: the driver sends `go ponder` after the engine's moves).
    Ponder,
    /// `Skill Level` 0–20.
    Skill,
    /// `UCI_LimitStrength` on (with a random `UCI_Elo`) or off.
    LimitStrength,
    /// `Clear Hash`.
    ClearHash,
    /// `UCI_ShowWDL` on or off.
    ShowWdl,
    /// `EvalFile` naming a missing file or one that is not a network: must be refused.
    EvalFileBad,
    /// `EvalFile` empty: the built-in network.
    EvalFileBuiltIn,
    /// `EvalFile` naming another valid network.
    EvalFileOther,
    /// `Use NNUE` on or off.
    UseNnue,
}

impl Toggle {
    /// Every kind, in report order.
    pub const ALL: [Toggle; 12] = [
        Toggle::Threads,
        Toggle::Hash,
        Toggle::MultiPv,
        Toggle::Ponder,
        Toggle::Skill,
        Toggle::LimitStrength,
        Toggle::ClearHash,
        Toggle::ShowWdl,
        Toggle::EvalFileBad,
        Toggle::EvalFileBuiltIn,
        Toggle::EvalFileOther,
        Toggle::UseNnue,
    ];

    /// The name in the report.
    pub fn name(self) -> &'static str {
        match self {
            Toggle::Threads => "Threads",
            Toggle::Hash => "Hash",
            Toggle::MultiPv => "MultiPV",
            Toggle::Ponder => "Ponder",
            Toggle::Skill => "Skill Level",
            Toggle::LimitStrength => "UCI_LimitStrength",
            Toggle::ClearHash => "Clear Hash",
            Toggle::ShowWdl => "UCI_ShowWDL",
            Toggle::EvalFileBad => "EvalFile refused",
            Toggle::EvalFileBuiltIn => "EvalFile built-in",
            Toggle::EvalFileOther => "EvalFile other",
            Toggle::UseNnue => "Use NNUE",
        }
    }
}

/// What a soak run counted and found.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// Games finished by the rules.
    pub games: usize,
    /// Games abandoned because of a fault.
    pub abandoned: usize,
    /// Moves played by the engines.
    pub plies: u64,
    /// How the finished games ended.
    pub endings: BTreeMap<String, u64>,
    /// Option changes made, by kind.
    pub toggles: BTreeMap<Toggle, u64>,
    /// Of those, made while the engine was searching or pondering.
    pub toggles_in_search: u64,
    /// `go ponder` sent.
    pub ponders: u64,
    /// `ponderhit` sent.
    pub ponderhits: u64,
    /// `stop` sent to a ponder search whose move was not played.
    pub ponder_stops: u64,
    /// `isready` sent.
    pub isready_sent: u64,
    /// `readyok` received.
    pub isready_answered: u64,
    /// The slowest `readyok`, ms (one after a `Hash` change waits for the new table).
    pub slowest_ready_ms: f64,
    /// The slowest `readyok` to an `isready` sent during a search, ms.
    pub slowest_ready_in_search_ms: f64,
    /// `eval` answers checked against the network the options chose.
    pub eval_checks: u64,
    /// Processes started, UCI and UCCI.
    pub processes: [u64; 2],
    /// Processes that were told `quit` and checked to leave.
    pub quits: u64,
    /// Memory readings checked.
    pub memory_checks: u64,
    /// The largest `VmRSS` − `Hash` seen (MiB).
    pub rss_over_hash_mb: f64,
    /// The largest `VmHWM` − the largest `Hash` of that process (MiB).
    pub hwm_over_hash_mb: f64,
    /// Every fault: the game, the move, what went wrong and the last lines sent.
    pub faults: Vec<String>,
}

impl Report {
    fn merge(&mut self, o: &Report) {
        self.games += o.games;
        self.abandoned += o.abandoned;
        self.plies += o.plies;
        for (k, v) in &o.endings {
            *self.endings.entry(k.clone()).or_default() += v;
        }
        for (k, v) in &o.toggles {
            *self.toggles.entry(*k).or_default() += v;
        }
        self.toggles_in_search += o.toggles_in_search;
        self.ponders += o.ponders;
        self.ponderhits += o.ponderhits;
        self.ponder_stops += o.ponder_stops;
        self.isready_sent += o.isready_sent;
        self.isready_answered += o.isready_answered;
        self.slowest_ready_ms = self.slowest_ready_ms.max(o.slowest_ready_ms);
        self.slowest_ready_in_search_ms = self
            .slowest_ready_in_search_ms
            .max(o.slowest_ready_in_search_ms);
        self.eval_checks += o.eval_checks;
        self.processes[0] += o.processes[0];
        self.processes[1] += o.processes[1];
        self.quits += o.quits;
        self.memory_checks += o.memory_checks;
        self.rss_over_hash_mb = self.rss_over_hash_mb.max(o.rss_over_hash_mb);
        self.hwm_over_hash_mb = self.hwm_over_hash_mb.max(o.hwm_over_hash_mb);
        self.faults.extend(o.faults.iter().cloned());
    }

    /// All option changes.
    pub fn total_toggles(&self) -> u64 {
        self.toggles.values().sum()
    }
}

/// The counts, one topic a line, then the faults.
impl std::fmt::Display for Report {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(
            f,
            "games: {} finished, {} abandoned after a fault; {} moves",
            self.games, self.abandoned, self.plies
        )?;
        let endings: Vec<String> = self
            .endings
            .iter()
            .map(|(k, v)| format!("{k}: {v}"))
            .collect();
        writeln!(f, "endings: {}", endings.join(", "))?;
        let toggles: Vec<String> = Toggle::ALL
            .iter()
            .map(|t| {
                format!(
                    "{}: {}",
                    t.name(),
                    self.toggles.get(t).copied().unwrap_or(0)
                )
            })
            .collect();
        writeln!(
            f,
            "toggles: {} ({} during a search): {}",
            self.total_toggles(),
            self.toggles_in_search,
            toggles.join(", ")
        )?;
        writeln!(
            f,
            "ponder: go ponder {}, ponderhit {}, stop {}",
            self.ponders, self.ponderhits, self.ponder_stops
        )?;
        writeln!(
            f,
            "isready: {} sent, {} answered, slowest {:.1} ms ({:.1} ms during a search)",
            self.isready_sent,
            self.isready_answered,
            self.slowest_ready_ms,
            self.slowest_ready_in_search_ms
        )?;
        writeln!(
            f,
            "processes: {} uci, {} ucci, {} quit checked; eval checks: {}",
            self.processes[0], self.processes[1], self.quits, self.eval_checks
        )?;
        writeln!(
            f,
            "memory: {} checks, VmRSS at most Hash + {:.1} MiB, VmHWM at most largest Hash + {:.1} MiB",
            self.memory_checks, self.rss_over_hash_mb, self.hwm_over_hash_mb
        )?;
        write!(f, "faults: {}", self.faults.len())?;
        for fault in &self.faults {
            write!(f, "\n  {fault}")?;
        }
        Ok(())
    }
}

/// Why a soak could not start.
#[derive(Debug, thiserror::Error)]
pub enum SoakError {
    /// The engine command line is empty or cannot be split.
    #[error("bad engine command: {0}")]
    Command(String),
    /// The engine cannot be started at all.
    #[error("engine cannot be started: {0}")]
    Spawn(String),
    /// The other network file cannot be written.
    #[error("cannot write the network file {0}")]
    Network(String),
    /// The other network file cannot be read.
    #[error(transparent)]
    Load(#[from] crate::eval::nnue::NetworkError),
}

/// What the driver shares between workers.
struct Shared {
    cfg: Config,
    program: Vec<String>,
    openings: Vec<Opening>,
    /// The built-in network and the other one.
    nets: [Arc<Network>; 2],
    other_path: String,
    /// A file that exists but is not a network (the engine program itself).
    not_a_network: String,
}

/// The built-in network with every output bias shifted: evaluates differently, loads fine.
pub fn shifted_network() -> Network {
    let net = default_network();
    let (qa, qb, scale) = net.scales();
    let (out_weights, out_bias) = net.output_layer();
    let shift = i32::from(qa) * i32::from(qb);
    Network::from_parts(
        net.features(),
        net.hidden(),
        net.buckets(),
        (qa, qb, scale),
        net.ft_weights().to_vec(),
        net.ft_bias().to_vec(),
        out_weights.to_vec(),
        out_bias.iter().map(|b| b + shift).collect(),
    )
    .unwrap_or_else(|_| (*net).clone())
}

/// Runs the soak and returns what it counted; faults are in the report, not errors.
pub fn run(cfg: &Config) -> Result<Report, SoakError> {
    let program = split_command(&cfg.engine).map_err(|e| SoakError::Command(e.to_string()))?;
    if program.is_empty() {
        return Err(SoakError::Command("empty".into()));
    }
    let mut written = None;
    let (other_path, other) = match &cfg.eval_file {
        Some(p) => (p.clone(), Network::load(std::path::Path::new(p))?),
        None => {
            let net = shifted_network();
            // One file per run: runs in one process (tests) must not rewrite or delete each
            // other's file while an engine loads it.
            static RUNS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
            let run = RUNS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let path = std::env::temp_dir()
                .join(format!("chariot-soak-{}-{run}.nnue", std::process::id()));
            std::fs::write(&path, net.to_bytes())
                .map_err(|e| SoakError::Network(format!("{}: {e}", path.display())))?;
            written = Some(path.clone());
            (path.display().to_string(), net)
        }
    };
    let shared = Shared {
        cfg: cfg.clone(),
        not_a_network: program[0].clone(),
        program,
        openings: openings::parse(DEFAULT_OPENINGS).unwrap_or_default(),
        nets: [default_network(), Arc::new(other)],
        other_path,
    };
    // One engine start up front: a command that cannot run stops the soak at once.
    match Proc::start(&shared, Dialect::Uci, &mut Report::default()) {
        Ok(p) => p.kill(),
        Err(e) => {
            if let Some(p) = written {
                let _ = std::fs::remove_file(p);
            }
            return Err(SoakError::Spawn(e));
        }
    }
    let next = AtomicUsize::new(0);
    let total = Mutex::new(Report::default());
    std::thread::scope(|s| {
        for _ in 0..cfg.concurrency.max(1) {
            s.spawn(|| {
                let mut procs: [Option<Proc>; 2] = [None, None];
                loop {
                    let index = next.fetch_add(1, Ordering::SeqCst);
                    if index >= cfg.games {
                        break;
                    }
                    let mut rep = Report::default();
                    game(&shared, index, &mut procs, &mut rep);
                    if cfg.progress {
                        let t = total.lock().map(|t| t.faults.len()).unwrap_or(0);
                        eprintln!(
                            "game {}: {} | moves {}, toggles {}, isready {}/{} | faults {}",
                            index + 1,
                            rep.endings
                                .keys()
                                .next()
                                .map_or("abandoned", |s| s.as_str()),
                            rep.plies,
                            rep.total_toggles(),
                            rep.isready_answered,
                            rep.isready_sent,
                            t + rep.faults.len()
                        );
                        for f in &rep.faults {
                            eprintln!("  fault: {f}");
                        }
                    }
                    if let Ok(mut t) = total.lock() {
                        t.merge(&rep);
                    }
                }
                for p in procs.iter_mut().filter_map(Option::take) {
                    p.kill();
                }
            });
        }
    });
    if let Some(p) = written {
        let _ = std::fs::remove_file(p);
    }
    Ok(total.into_inner().unwrap_or_else(|e| e.into_inner()))
}

/// The option values a process has, as the driver set them.
#[derive(Clone, Debug)]
struct Opts {
    threads: u32,
    hash: u32,
    max_hash: u32,
    multipv: u32,
    ponder: bool,
    skill: u32,
    limit: bool,
    wdl: bool,
    nnue: bool,
    /// 0: the built-in network, 1: the other one.
    net: usize,
}

impl Default for Opts {
    fn default() -> Self {
        Opts {
            threads: 1,
            hash: 16,
            max_hash: 16,
            multipv: 1,
            ponder: false,
            skill: 20,
            limit: false,
            wdl: false,
            nnue: true,
            net: 0,
        }
    }
}

/// What the running search was started with (checked against its `info` lines).
#[derive(Clone, Debug)]
struct Started {
    wdl: bool,
    /// The most `multipv` lines allowed, when the engine is at full strength.
    multipv: Option<u32>,
    /// `go ponder` on this predicted move, not yet hit.
    ponder: Option<Move>,
    /// The position searched.
    root: Position,
}

/// One engine process and what the driver knows of it.
struct Proc {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<(String, Instant)>,
    dialect: Dialect,
    opts: Opts,
    /// The position last sent.
    pos: Position,
    sent: VecDeque<String>,
    /// `isready` owed an answer: when sent, and whether a search was running then.
    ready: VecDeque<(Instant, bool)>,
    search: Option<Started>,
    terminal: Option<(String, Instant)>,
    infos: Vec<String>,
    notes: Vec<String>,
    evals: Vec<(i32, bool)>,
    saw_bye: bool,
    /// A fault found while reading (unexpected or non-ASCII output).
    bad: Option<String>,
    ready_ms: u64,
}

type Fault = String;

const HASHES: [u32; 8] = [1, 2, 4, 8, 16, 24, 32, 64];

impl Proc {
    fn start(shared: &Shared, dialect: Dialect, rep: &mut Report) -> Result<Proc, Fault> {
        let (program, args) = shared.program.split_first().ok_or("empty command")?;
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("{program}: {e}"))?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err("no pipes".into());
        };
        let rx = read_lines(stdout, |line| (line, Instant::now()));
        let mut p = Proc {
            child,
            stdin,
            lines: rx,
            dialect,
            opts: Opts::default(),
            pos: Position::startpos(),
            sent: VecDeque::new(),
            ready: VecDeque::new(),
            search: None,
            terminal: None,
            infos: Vec::new(),
            notes: Vec::new(),
            evals: Vec::new(),
            saw_bye: false,
            bad: None,
            ready_ms: shared.cfg.ready_ms,
        };
        rep.processes[(dialect == Dialect::Ucci) as usize] += 1;
        let (hello, ok) = match dialect {
            Dialect::Uci => ("uci", "uciok"),
            Dialect::Ucci => ("ucci", "ucciok"),
        };
        p.send(hello)?;
        let deadline = Instant::now() + Duration::from_millis(3 * shared.cfg.ready_ms);
        let mut seen = false;
        while !seen {
            match p
                .lines
                .recv_timeout(deadline.saturating_duration_since(Instant::now()))
            {
                Ok((l, _)) => seen = l == ok,
                Err(_) => return Err(p.fault(&format!("no {ok}"))),
            }
        }
        if dialect == Dialect::Ucci {
            p.send("setoption usemillisec true")?;
        }
        p.isready(rep)?;
        Ok(p)
    }

    fn fault(&self, what: &str) -> Fault {
        let sent: Vec<&str> = self.sent.iter().map(String::as_str).collect();
        format!(
            "{} (pid {}, {}); last sent: {}",
            what,
            self.child.id(),
            self.dialect,
            sent.join(" | ")
        )
    }

    fn send(&mut self, line: &str) -> Result<(), Fault> {
        if self.sent.len() == 10 {
            self.sent.pop_front();
        }
        self.sent.push_back(if line.len() > 120 {
            format!("{}...", line.chars().take(117).collect::<String>())
        } else {
            line.to_string()
        });
        writeln!(self.stdin, "{line}")
            .and_then(|_| self.stdin.flush())
            .map_err(|_| self.fault("cannot write (engine gone)"))
    }

    /// Reads one line (or waits until `deadline`); `Err` when the engine closed its output.
    fn pump(&mut self, deadline: Instant, rep: &mut Report) -> Result<(), Fault> {
        let (line, at) = match self
            .lines
            .recv_timeout(deadline.saturating_duration_since(Instant::now()))
        {
            Ok(x) => x,
            Err(RecvTimeoutError::Timeout) => return Ok(()),
            Err(RecvTimeoutError::Disconnected) => {
                return Err(self.fault("engine closed its output (crashed?)"))
            }
        };
        if !line.is_ascii() && self.bad.is_none() {
            self.bad = Some(self.fault(&format!("non-ASCII output {line:?}")));
        }
        if line == "readyok" {
            match self.ready.pop_front() {
                Some((t, searching)) => {
                    rep.isready_answered += 1;
                    let ms = at.saturating_duration_since(t).as_secs_f64() * 1000.0;
                    rep.slowest_ready_ms = rep.slowest_ready_ms.max(ms);
                    if searching {
                        rep.slowest_ready_in_search_ms = rep.slowest_ready_in_search_ms.max(ms);
                    }
                }
                None if self.bad.is_none() => {
                    self.bad = Some(self.fault("readyok without isready"))
                }
                None => {}
            }
        } else if line.starts_with("bestmove") || line == "nobestmove" {
            if self.search.is_none() || self.terminal.is_some() {
                if self.bad.is_none() {
                    self.bad = Some(self.fault(&format!("unexpected '{line}'")));
                }
            } else {
                self.terminal = Some((line, at));
            }
        } else if line == "bye" {
            self.saw_bye = true;
        } else if let Some(note) = line.strip_prefix("info string ") {
            self.notes.push(note.to_string());
        } else if line.starts_with("info ") {
            self.infos.push(line);
        } else if let Some(rest) = line.strip_prefix("classical ") {
            // `classical C network V (side to move; network|classical in use)`
            let w: Vec<&str> = rest.split_whitespace().collect();
            if let (Some(&"network"), Some(v)) = (w.get(1), w.get(2).and_then(|v| v.parse().ok())) {
                self.evals.push((v, rest.contains("network in use")));
            }
        } else if (line.contains("readyok") || line.contains("bestmove") || line.contains("uciok"))
            && self.bad.is_none()
        {
            self.bad = Some(self.fault(&format!("keyword inside another line: {line:?}")));
        }
        Ok(())
    }

    /// Sends `isready` and waits for every `readyok` owed.
    fn isready(&mut self, rep: &mut Report) -> Result<(), Fault> {
        self.send("isready")?;
        rep.isready_sent += 1;
        let now = Instant::now();
        let searching = self.search.is_some() && self.terminal.is_none();
        self.ready.push_back((now, searching));
        let deadline = now + Duration::from_millis(self.ready_ms);
        while !self.ready.is_empty() {
            if Instant::now() >= deadline {
                return Err(self.fault(&format!("no readyok within {} ms", self.ready_ms)));
            }
            self.pump(deadline, rep)?;
        }
        self.check_bad()
    }

    fn check_bad(&mut self) -> Result<(), Fault> {
        match self.bad.take() {
            Some(f) => Err(f),
            None => Ok(()),
        }
    }

    /// Waits for the running search's terminal line until `deadline`.
    fn terminal(
        &mut self,
        deadline: Instant,
        rep: &mut Report,
    ) -> Result<Option<(String, Instant)>, Fault> {
        while self.terminal.is_none() && Instant::now() < deadline {
            self.pump(deadline, rep)?;
        }
        self.check_bad()?;
        Ok(self.terminal.take())
    }

    fn setoption(
        &mut self,
        rng: &mut StdRng,
        uci: &str,
        ucci: &str,
        value: Option<&str>,
    ) -> Result<(), Fault> {
        let uci_form = rng.random_bool(0.5);
        let line = if uci_form {
            let name = if (self.dialect == Dialect::Uci) == rng.random_bool(0.8) {
                uci
            } else {
                ucci
            };
            match value {
                Some(v) => format!("setoption name {name} value {v}"),
                None => format!("setoption name {name}"),
            }
        } else {
            let name = if rng.random_bool(0.7) {
                ucci.to_string()
            } else {
                uci.replace(' ', "_")
            };
            match value {
                Some(v) => format!("setoption {name} {v}"),
                None => format!("setoption {name}"),
            }
        };
        self.send(&line)
    }

    /// Makes one option change, then checks `eval` when the change concerns the evaluation
    /// (and now and then otherwise) and that `isready` is answered.
    fn toggle(
        &mut self,
        kind: Toggle,
        shared: &Shared,
        rng: &mut StdRng,
        rep: &mut Report,
    ) -> Result<(), Fault> {
        *rep.toggles.entry(kind).or_default() += 1;
        if self.search.is_some() {
            rep.toggles_in_search += 1;
        }
        let mark = self.notes.len();
        let o = self.opts.clone();
        match kind {
            Toggle::Threads => {
                let v = if o.threads == 1 { 2 } else { 1 };
                self.setoption(rng, "Threads", "threads", Some(&v.to_string()))?;
                self.opts.threads = v;
            }
            Toggle::Hash => {
                let sizes: Vec<u32> = HASHES
                    .iter()
                    .copied()
                    .filter(|&h| h <= shared.cfg.max_hash_mb.max(1) && h != o.hash)
                    .collect();
                let v = sizes
                    .get(rng.random_range(0..sizes.len().max(1)))
                    .copied()
                    .unwrap_or(1);
                self.setoption(rng, "Hash", "hashsize", Some(&v.to_string()))?;
                self.opts.hash = v;
                self.opts.max_hash = o.max_hash.max(v);
            }
            Toggle::MultiPv => {
                let v = if o.multipv == 1 {
                    rng.random_range(2..=4)
                } else {
                    1
                };
                self.setoption(rng, "MultiPV", "multipv", Some(&v.to_string()))?;
                self.opts.multipv = v;
            }
            Toggle::Ponder => {
                let w = bool_word(rng, !o.ponder);
                self.setoption(rng, "Ponder", "ponder", Some(w))?;
                self.opts.ponder = !o.ponder;
            }
            Toggle::Skill => {
                let v = if o.skill == 20 {
                    rng.random_range(0..20)
                } else {
                    20
                };
                self.setoption(rng, "Skill Level", "skilllevel", Some(&v.to_string()))?;
                self.opts.skill = v;
            }
            Toggle::LimitStrength => {
                if !o.limit {
                    let elo = rng.random_range(540..=2870).to_string();
                    self.setoption(rng, "UCI_Elo", "ucielo", Some(&elo))?;
                }
                let w = bool_word(rng, !o.limit);
                self.setoption(rng, "UCI_LimitStrength", "ucilimitstrength", Some(w))?;
                self.opts.limit = !o.limit;
            }
            Toggle::ClearHash => self.setoption(rng, "Clear Hash", "clearhash", None)?,
            Toggle::ShowWdl => {
                let w = bool_word(rng, !o.wdl);
                self.setoption(rng, "UCI_ShowWDL", "ucishowwdl", Some(w))?;
                self.opts.wdl = !o.wdl;
            }
            Toggle::EvalFileBad => {
                let v = if rng.random_bool(0.5) {
                    "no-such-network.nnue".to_string()
                } else {
                    shared.not_a_network.clone()
                };
                self.setoption(rng, "EvalFile", "evalfile", Some(&v))?;
            }
            Toggle::EvalFileBuiltIn => {
                let v = if rng.random_bool(0.5) {
                    Some("<empty>")
                } else {
                    None
                };
                self.setoption(rng, "EvalFile", "evalfile", v)?;
                self.opts.net = 0;
            }
            Toggle::EvalFileOther => {
                self.setoption(rng, "EvalFile", "evalfile", Some(&shared.other_path))?;
                self.opts.net = 1;
            }
            Toggle::UseNnue => {
                let w = bool_word(rng, !o.nnue);
                self.setoption(rng, "Use NNUE", "usennue", Some(w))?;
                self.opts.nnue = !o.nnue;
            }
        }
        let about_eval = matches!(
            kind,
            Toggle::EvalFileBad | Toggle::EvalFileBuiltIn | Toggle::EvalFileOther | Toggle::UseNnue
        );
        let check_eval = about_eval || rng.random_bool(0.1);
        let evals = self.evals.len();
        if check_eval {
            self.send("eval")?;
        }
        self.isready(rep)?;
        if check_eval {
            rep.eval_checks += 1;
            let Some(&(v, nnue)) = self.evals.get(evals) else {
                return Err(self.fault("no network value from eval"));
            };
            let want = accumulator::evaluate(&shared.nets[self.opts.net], &self.pos);
            if v != want || nnue != self.opts.nnue {
                return Err(self.fault(&format!(
                    "eval says network {v} ({} in use), expected {want} from the {} network ({} in use)",
                    if nnue { "network" } else { "classical" },
                    if self.opts.net == 0 { "built-in" } else { "other" },
                    if self.opts.nnue { "network" } else { "classical" }
                )));
            }
        }
        if kind == Toggle::EvalFileBad && !self.notes[mark..].iter().any(|n| n.contains("EvalFile"))
        {
            return Err(self.fault("bad EvalFile refused without an info string"));
        }
        Ok(())
    }

    /// Sends a position; the driver's idea of the engine's position follows.
    fn position(&mut self, game: &Game) -> Result<(), Fault> {
        self.pos = game.position().clone();
        self.send(&position_line(game, self.dialect))
    }

    /// Sends a `go` line and notes what the search was started with.
    fn go(&mut self, line: &str, ponder: Option<Move>) -> Result<(), Fault> {
        self.infos.clear();
        self.terminal = None;
        let full = self.opts.skill == 20 && !self.opts.limit;
        self.search = Some(Started {
            wdl: self.opts.wdl,
            multipv: full.then_some(self.opts.multipv),
            ponder,
            root: self.pos.clone(),
        });
        self.send(line)
    }

    /// Checks the `info` lines of the search that just ended.
    fn check_infos(&self, started: &Started) -> Result<(), Fault> {
        if self.dialect == Dialect::Uci {
            let scored: Vec<&String> = self
                .infos
                .iter()
                .filter(|l| l.contains(" score "))
                .collect();
            if started.wdl {
                if let Some(last) = scored.last() {
                    if !last.contains(" wdl ") {
                        return Err(self.fault(&format!("UCI_ShowWDL on but no wdl: {last}")));
                    }
                }
            } else if let Some(l) = scored.iter().find(|l| l.contains(" wdl ")) {
                return Err(self.fault(&format!("UCI_ShowWDL off but wdl: {l}")));
            }
        }
        if let Some(n) = started.multipv {
            for l in &self.infos {
                let w: Vec<&str> = l.split_whitespace().collect();
                if let Some(i) = w.iter().position(|&t| t == "multipv") {
                    if w.get(i + 1)
                        .and_then(|k| k.parse::<u32>().ok())
                        .is_some_and(|k| k > n)
                    {
                        return Err(self.fault(&format!("MultiPV {n} but: {l}")));
                    }
                }
            }
        }
        Ok(())
    }

    /// Stops a ponder search whose move was not played (or at the end of a game) and checks its
    /// answer: a legal move of the ponder position, soon.
    fn stop_ponder(&mut self, rep: &mut Report) -> Result<(), Fault> {
        let Some(started) = self.search.clone() else {
            return Ok(());
        };
        self.send("stop")?;
        rep.ponder_stops += 1;
        let deadline = Instant::now() + Duration::from_millis(self.ready_ms);
        let Some((line, _)) = self.terminal(deadline, rep)? else {
            return Err(self.fault(&format!("no answer to stop within {} ms", self.ready_ms)));
        };
        self.search = None;
        self.check_infos(&started)?;
        check_answer(&line, &started.root).map_err(|e| self.fault(&e))?;
        Ok(())
    }

    fn memory(&mut self, slack: u64, rep: &mut Report) -> Result<(), Fault> {
        let Ok(status) = std::fs::read_to_string(format!("/proc/{}/status", self.child.id()))
        else {
            return Ok(());
        };
        let field = |name: &str| {
            status
                .lines()
                .find_map(|l| l.strip_prefix(name))
                .and_then(|r| r.split_whitespace().next())
                .and_then(|v| v.parse::<f64>().ok())
                .map(|kb| kb / 1024.0)
        };
        let (Some(rss), Some(hwm)) = (field("VmRSS:"), field("VmHWM:")) else {
            return Ok(());
        };
        rep.memory_checks += 1;
        let over = rss - f64::from(self.opts.hash);
        let hwm_over = hwm - f64::from(self.opts.max_hash);
        rep.rss_over_hash_mb = rep.rss_over_hash_mb.max(over);
        rep.hwm_over_hash_mb = rep.hwm_over_hash_mb.max(hwm_over);
        if over > slack as f64 || hwm_over > slack as f64 {
            return Err(self.fault(&format!(
                "memory: VmRSS {rss:.1} MiB with Hash {}, VmHWM {hwm:.1} MiB with Hash at most {} (slack {slack})",
                self.opts.hash, self.opts.max_hash
            )));
        }
        Ok(())
    }

    /// `quit`: the process must leave within 500 ms, after `bye` in UCCI.
    fn quit(mut self, rep: &mut Report) -> Result<(), Fault> {
        rep.quits += 1;
        self.send("quit")?;
        let t = Instant::now();
        let deadline = t + Duration::from_millis(500);
        loop {
            if let Ok(Some(_)) = self.child.try_wait() {
                break;
            }
            if Instant::now() >= deadline {
                let f = self.fault("still running 500 ms after quit");
                self.kill();
                return Err(f);
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        // Whatever it wrote before leaving.
        while let Ok((l, _)) = self.lines.recv_timeout(Duration::from_millis(100)) {
            self.saw_bye |= l == "bye";
        }
        if self.dialect == Dialect::Ucci && !self.saw_bye {
            return Err(self.fault("no bye after quit"));
        }
        Ok(())
    }

    fn kill(mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn bool_word(rng: &mut StdRng, v: bool) -> &'static str {
    let words: [&str; 4] = if v {
        ["true", "on", "1", "yes"]
    } else {
        ["false", "off", "0", "no"]
    };
    if rng.random_bool(0.7) {
        words[0]
    } else {
        words[rng.random_range(0..4)]
    }
}

/// Checks a terminal line against the position searched: a legal move (never a missing one
/// while moves exist), a legal ponder move, and no `draw`/`resign` (no offer was made).
/// Returns the move.
fn check_answer(line: &str, root: &Position) -> Result<Move, String> {
    let w: Vec<&str> = line.split_whitespace().collect();
    let Some(&text) = w.get(1).filter(|_| w[0] == "bestmove") else {
        return Err(format!("no move ('{line}') with legal moves on the board"));
    };
    let m = root
        .parse_move(text)
        .map_err(|e| format!("'{line}': {e} in {}", root.fen()))?;
    let mut rest = &w[2..];
    if let ["ponder", p, tail @ ..] = rest {
        let after = root.play(m);
        if after.parse_move(p).is_err() {
            return Err(format!(
                "'{line}': ponder move {p} illegal after {m} in {}",
                root.fen()
            ));
        }
        rest = tail;
    }
    if !rest.is_empty() {
        return Err(format!("'{line}': unexpected words after the move"));
    }
    Ok(m)
}

/// A deck of option changes: every kind once, shuffled, then again, so that every kind is
/// made as often as the others.
struct Deck(Vec<Toggle>);

impl Deck {
    fn draw(&mut self, rng: &mut StdRng) -> Toggle {
        if self.0.is_empty() {
            self.0 = Toggle::ALL.to_vec();
            self.0.shuffle(rng);
        }
        self.0.pop().unwrap_or(Toggle::ClearHash)
    }
}

fn game(shared: &Shared, index: usize, procs: &mut [Option<Proc>; 2], rep: &mut Report) {
    let seed = shared.cfg.seed;
    let mut rng = StdRng::seed_from_u64(seed ^ (index as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    match play(shared, index, procs, rep, &mut rng) {
        Ok(()) => rep.games += 1,
        Err(f) => {
            rep.abandoned += 1;
            rep.faults
                .push(format!("game {} (seed {seed}): {f}", index + 1));
            for p in procs.iter_mut().filter_map(Option::take) {
                p.kill();
            }
        }
    }
}

fn play(
    shared: &Shared,
    index: usize,
    procs: &mut [Option<Proc>; 2],
    rep: &mut Report,
    rng: &mut StdRng,
) -> Result<(), Fault> {
    let cfg = &shared.cfg;
    let restart = rng.random_bool(cfg.restart_rate.clamp(0.0, 1.0));
    for slot in procs.iter_mut() {
        if restart {
            if let Some(p) = slot.take() {
                p.quit(rep)?;
            }
        }
        if slot.is_none() {
            let d = cfg.dialect.unwrap_or(if rng.random_bool(0.5) {
                Dialect::Uci
            } else {
                Dialect::Ucci
            });
            *slot = Some(Proc::start(shared, d, rep)?);
        }
        let p = slot.as_mut().ok_or("no process")?;
        let line = match p.dialect {
            Dialect::Uci => "ucinewgame",
            Dialect::Ucci => {
                ["setoption newgame", "newgame", "uccinewgame"][rng.random_range(0..3)]
            }
        };
        p.send(line)?;
        p.isready(rep)?;
    }
    let mut decks = [Deck(Vec::new()), Deck(Vec::new())];
    let opening = &shared.openings[(index / 2) % shared.openings.len().max(1)];
    let mut game = opening.game();
    // Process of Red, of Black.
    let order = if index.is_multiple_of(2) {
        [0, 1]
    } else {
        [1, 0]
    };
    let mut clocks = [cfg.base_ms as f64; 2];
    let inc = cfg.inc_ms as f64;
    let ending = loop {
        if let Some(out) = game.outcome(cfg.maxplies) {
            break match out {
                crate::board::rules::Outcome::Win(c, r) => format!("{} won: {r}", colour(c)),
                crate::board::rules::Outcome::Draw(r) => format!("draw: {r}"),
            };
        }
        let side = game.position().side_to_move();
        let si = side.index();
        let mover = order[si];
        // An option change between moves, to either process (the other may be pondering).
        if rng.random_bool(cfg.toggle_rate) {
            let k = rng.random_range(0..2);
            let kind = decks[k].draw(rng);
            procs[k]
                .as_mut()
                .ok_or("no process")?
                .toggle(kind, shared, rng, rep)?;
        }
        let p = procs[mover].as_mut().ok_or("no process")?;
        let clock_go = |clocks: &[f64; 2]| Go::Clock {
            red: clocks[0].max(1.0) as u64,
            black: clocks[1].max(1.0) as u64,
            incs: [cfg.inc_ms; 2],
            movestogo: None,
            side,
        };
        let last = game.moves().last().copied();
        let pondered = p.search.as_ref().and_then(|s| s.ponder);
        let go_at = match pondered {
            Some(m) if Some(m) == last => {
                p.send("ponderhit")?;
                rep.ponderhits += 1;
                if let Some(s) = p.search.as_mut() {
                    s.ponder = None;
                }
                Instant::now()
            }
            _ => {
                if pondered.is_some() {
                    p.stop_ponder(rep)?;
                }
                p.position(&game)?;
                p.isready(rep)?;
                p.go(&clock_go(&clocks).line(p.dialect), None)?;
                Instant::now()
            }
        };
        let hard = go_at + Duration::from_millis(clocks[si].max(0.0) as u64 + cfg.margin_ms + 1000);
        let mut toggle_at = rng.random_bool(cfg.toggle_rate).then(|| {
            let budget = (clocks[si] / 30.0 + inc).max(1.0);
            go_at + Duration::from_micros((rng.random_range(0.0..budget) * 1000.0) as u64)
        });
        let (line, at) = loop {
            if let Some(t) = p.terminal.take() {
                break t;
            }
            let now = Instant::now();
            if now >= hard {
                return Err(p.fault(&format!(
                    "no bestmove within {:.0} ms ({:.0} ms on its clock)",
                    (now - go_at).as_secs_f64() * 1000.0,
                    clocks[si]
                )));
            }
            match toggle_at {
                Some(t) if now >= t => {
                    toggle_at = None;
                    let kind = decks[mover].draw(rng);
                    p.toggle(kind, shared, rng, rep)?;
                }
                _ => {
                    p.pump(toggle_at.map_or(hard, |t| t.min(hard)), rep)?;
                    p.check_bad()?;
                }
            }
        };
        let started = p.search.take().ok_or("no search")?;
        let used = at.saturating_duration_since(go_at).as_secs_f64() * 1000.0;
        if used > clocks[si] + cfg.margin_ms as f64 {
            return Err(p.fault(&format!(
                "lost on time: {used:.0} ms used with {:.0} ms on its clock",
                clocks[si]
            )));
        }
        clocks[si] = (clocks[si] - used).max(0.0) + inc;
        p.check_infos(&started)?;
        let m = check_answer(&line, game.position()).map_err(|e| p.fault(&e))?;
        game.play(m)
            .map_err(|e| p.fault(&format!("referee refused {m}: {e}")))?;
        rep.plies += 1;
        // Ponder on the expected reply.
        if p.opts.ponder {
            let predicted = line
                .split_whitespace()
                .skip_while(|&w| w != "ponder")
                .nth(1)
                .and_then(|t| game.position().parse_move(t).ok());
            if let Some(reply) = predicted {
                let mut g = game.clone();
                if g.play(reply).is_ok() && g.outcome(cfg.maxplies).is_none() {
                    p.position(&g)?;
                    p.isready(rep)?;
                    let go = clock_go(&clocks).line(p.dialect);
                    p.go(&go.replacen("go ", "go ponder ", 1), Some(reply))?;
                    rep.ponders += 1;
                }
            }
        }
    };
    *rep.endings.entry(ending).or_default() += 1;
    for p in procs.iter_mut().flatten() {
        if p.search.is_some() {
            p.stop_ponder(rep)?;
        }
        p.isready(rep)?;
        if !matches!(p.child.try_wait(), Ok(None)) {
            return Err(p.fault("engine process gone"));
        }
        p.memory(cfg.memory_slack_mb, rep)?;
    }
    Ok(())
}

fn colour(c: Color) -> &'static str {
    match c {
        Color::Red => "red",
        Color::Black => "black",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_are_checked() {
        let start = Position::startpos();
        assert!(check_answer("bestmove h2e2 ponder h9g7", &start).is_ok());
        assert!(check_answer("bestmove h2e2", &start).is_ok());
        assert!(check_answer("bestmove a0a9", &start).is_err());
        assert!(check_answer("bestmove h2e2 ponder h2e2", &start).is_err());
        assert!(check_answer("nobestmove", &start).is_err());
        assert!(check_answer("bestmove (none)", &start).is_err());
        assert!(check_answer("bestmove h2e2 resign", &start).is_err());
    }

    #[test]
    fn the_shifted_network_evaluates_differently() {
        let other = Arc::new(shifted_network());
        let pos = Position::startpos();
        assert_ne!(
            accumulator::evaluate(&other, &pos),
            accumulator::evaluate(&default_network(), &pos)
        );
        let back = Network::from_bytes(&other.to_bytes()).expect("loads");
        assert_eq!(back, *other);
    }

    #[test]
    fn the_deck_deals_every_kind() {
        let mut rng = StdRng::seed_from_u64(3);
        let mut deck = Deck(Vec::new());
        let mut seen: Vec<Toggle> = (0..Toggle::ALL.len())
            .map(|_| deck.draw(&mut rng))
            .collect();
        seen.sort();
        assert_eq!(seen, Toggle::ALL.to_vec());
    }
}
