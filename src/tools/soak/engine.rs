//! One engine process as the soak drives it: the shared `Process` underneath, and on top what
//! the driver knows of it (the options it set, the position it sent, the search it started)
//! and what it checks in every line read: `readyok` owed and on time, a terminal line only to
//! a running search, `info` lines kept for the checks at its end, ASCII only, no keyword inside
//! another line. Also `isready`, stopping a ponder search, memory and `quit`.

use super::deck::Toggle;
use super::game::check_answer;
use super::{Report, Shared};
use crate::board::{Game, Move, Position};
use crate::protocol::Dialect;
use crate::search::skill;
use crate::tools::matches::engine::position_line;
use crate::tools::process::{EngineError, Line, Process};
use std::collections::VecDeque;
use std::time::{Duration, Instant};

/// What went wrong with an engine process: the game in which it happened is abandoned.
#[derive(Debug, thiserror::Error)]
pub enum Fault {
    /// The process could not be started.
    #[error("engine cannot be started: {0}")]
    Start(EngineError),
    /// The process broke a rule: what, which process, and the last lines it was sent.
    #[error("{what} (pid {pid}, {dialect}); last sent: {sent}")]
    Process {
        /// What went wrong.
        what: String,
        /// The process id.
        pid: u32,
        /// Its dialect.
        dialect: Dialect,
        /// The last lines it was sent, ` | ` between them.
        sent: String,
    },
}

/// How long a process has to leave after `quit`.
const QUIT_MS: u64 = 500;

/// The option values a process has, as the driver set them.
#[derive(Clone, Debug)]
pub(super) struct Opts {
    pub(super) threads: u32,
    pub(super) hash: u32,
    pub(super) max_hash: u32,
    pub(super) multipv: u32,
    pub(super) ponder: bool,
    pub(super) skill: u32,
    pub(super) limit: bool,
    pub(super) wdl: bool,
    pub(super) nnue: bool,
    /// 0: the built-in network, 1: the other one.
    pub(super) net: usize,
}

impl Default for Opts {
    /// The engine's defaults, from `OPTIONS`.
    fn default() -> Self {
        Opts {
            threads: Toggle::Threads.option().spin_default(),
            hash: Toggle::Hash.option().spin_default(),
            max_hash: Toggle::Hash.option().spin_default(),
            multipv: Toggle::MultiPv.option().spin_default(),
            ponder: Toggle::Ponder.option().check_default(),
            skill: Toggle::Skill.option().spin_default(),
            limit: Toggle::LimitStrength.option().check_default(),
            wdl: Toggle::ShowWdl.option().check_default(),
            nnue: Toggle::UseNnue.option().check_default(),
            net: 0,
        }
    }
}

/// What the running search was started with (checked against its `info` lines).
#[derive(Clone, Debug)]
pub(super) struct Started {
    wdl: bool,
    /// The most `multipv` lines allowed, when the engine is at full strength.
    multipv: Option<u32>,
    /// `go ponder` on this predicted move, not yet hit.
    pub(super) ponder: Option<Move>,
    /// The position searched.
    root: Position,
}

/// One engine process and what the driver knows of it.
pub(super) struct Proc {
    process: Process,
    pub(super) dialect: Dialect,
    pub(super) opts: Opts,
    /// The position last sent.
    pub(super) pos: Position,
    /// `isready` owed an answer: when sent, and whether a search was running then.
    ready: VecDeque<(Instant, bool)>,
    pub(super) search: Option<Started>,
    pub(super) terminal: Option<(String, Instant)>,
    infos: Vec<String>,
    /// `info string` texts.
    pub(super) notes: Vec<String>,
    /// Answers to `eval`: the network's value and whether the network is in use.
    pub(super) evals: Vec<(i32, bool)>,
    saw_bye: bool,
    /// A fault found while reading (unexpected or non-ASCII output).
    bad: Option<Fault>,
    ready_ms: u64,
}

impl Proc {
    /// Starts a process in `dialect`, completes the handshake and waits until it is ready.
    pub(super) fn start(
        shared: &Shared,
        dialect: Dialect,
        rep: &mut Report,
    ) -> Result<Proc, Fault> {
        let process = Process::spawn(&shared.program, None).map_err(Fault::Start)?;
        let mut p = Proc {
            process,
            dialect,
            opts: Opts::default(),
            pos: Position::startpos(),
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
        let deadline = Instant::now() + Duration::from_millis(3 * shared.cfg.ready_ms);
        p.process
            .handshake(dialect, deadline)
            .map_err(|e| p.fault(e))?;
        p.isready(rep)?;
        Ok(p)
    }

    /// A fault of this process.
    pub(super) fn fault(&self, what: impl std::fmt::Display) -> Fault {
        Fault::Process {
            what: what.to_string(),
            pid: self.process.id(),
            dialect: self.dialect,
            sent: self.process.sent(),
        }
    }

    /// Sends one line.
    pub(super) fn send(&mut self, line: &str) -> Result<(), Fault> {
        self.process
            .send(line)
            .map_err(|_| self.fault("cannot write (engine gone)"))
    }

    /// Reads one line (or waits until `deadline`) and files it; `Err` when the engine closed
    /// its output. A line breaking a rule is kept in `bad` for `check_bad`.
    pub(super) fn pump(&mut self, deadline: Instant, rep: &mut Report) -> Result<(), Fault> {
        let (line, at) = match self.process.recv(deadline) {
            Ok(x) => x,
            Err(EngineError::Crash) => {
                return Err(self.fault("engine closed its output (crashed?)"))
            }
            Err(_) => return Ok(()),
        };
        if !line.is_ascii() {
            self.found(format!("non-ASCII output {line:?}"));
        }
        match Line::classify(&line) {
            Line::ReadyOk => self.answered(at, rep),
            Line::Terminal if self.search.is_none() || self.terminal.is_some() => {
                self.found(format!("unexpected '{line}'"))
            }
            Line::Terminal => self.terminal = Some((line, at)),
            Line::Bye => self.saw_bye = true,
            Line::Note(note) => self.notes.push(note.to_string()),
            Line::Info => self.infos.push(line),
            Line::Eval { network, in_use } => self.evals.push((network, in_use)),
            Line::Garbled => self.found(format!("keyword inside another line: {line:?}")),
            Line::Other => {}
        }
        Ok(())
    }

    /// Notes the first rule broken while reading.
    fn found(&mut self, what: String) {
        if self.bad.is_none() {
            self.bad = Some(self.fault(what));
        }
    }

    /// A `readyok` arrived at `at`: the oldest `isready` owed is answered.
    fn answered(&mut self, at: Instant, rep: &mut Report) {
        let Some((t, searching)) = self.ready.pop_front() else {
            return self.found("readyok without isready".into());
        };
        rep.isready_answered += 1;
        let ms = at.saturating_duration_since(t).as_secs_f64() * 1000.0;
        rep.slowest_ready_ms = rep.slowest_ready_ms.max(ms);
        if searching {
            rep.slowest_ready_in_search_ms = rep.slowest_ready_in_search_ms.max(ms);
        }
    }

    /// Sends `isready` and waits for every `readyok` owed.
    pub(super) fn isready(&mut self, rep: &mut Report) -> Result<(), Fault> {
        self.send("isready")?;
        rep.isready_sent += 1;
        let now = Instant::now();
        let searching = self.search.is_some() && self.terminal.is_none();
        self.ready.push_back((now, searching));
        let deadline = now + Duration::from_millis(self.ready_ms);
        while !self.ready.is_empty() {
            if Instant::now() >= deadline {
                return Err(self.fault(format!("no readyok within {} ms", self.ready_ms)));
            }
            self.pump(deadline, rep)?;
        }
        self.check_bad()
    }

    /// The rule broken while reading, if any.
    pub(super) fn check_bad(&mut self) -> Result<(), Fault> {
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

    /// Sends a position; the driver's idea of the engine's position follows.
    pub(super) fn position(&mut self, game: &Game) -> Result<(), Fault> {
        self.pos = game.position().clone();
        self.send(&position_line(game, self.dialect))
    }

    /// Sends a `go` line and notes what the search was started with.
    pub(super) fn go(&mut self, line: &str, ponder: Option<Move>) -> Result<(), Fault> {
        self.infos.clear();
        self.terminal = None;
        let full = self.opts.skill == skill::MAX_LEVEL && !self.opts.limit;
        self.search = Some(Started {
            wdl: self.opts.wdl,
            multipv: full.then_some(self.opts.multipv),
            ponder,
            root: self.pos.clone(),
        });
        self.send(line)
    }

    /// Checks the `info` lines of the search that just ended.
    pub(super) fn check_infos(&self, started: &Started) -> Result<(), Fault> {
        if self.dialect == Dialect::Uci {
            let scored: Vec<&String> = self
                .infos
                .iter()
                .filter(|l| l.contains(" score "))
                .collect();
            if started.wdl {
                if let Some(last) = scored.last() {
                    if !last.contains(" wdl ") {
                        return Err(self.fault(format!("UCI_ShowWDL on but no wdl: {last}")));
                    }
                }
            } else if let Some(l) = scored.iter().find(|l| l.contains(" wdl ")) {
                return Err(self.fault(format!("UCI_ShowWDL off but wdl: {l}")));
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
                        return Err(self.fault(format!("MultiPV {n} but: {l}")));
                    }
                }
            }
        }
        Ok(())
    }

    /// Stops a ponder search whose move was not played (or at the end of a game) and checks its
    /// answer: a legal move of the ponder position, soon.
    pub(super) fn stop_ponder(&mut self, rep: &mut Report) -> Result<(), Fault> {
        let Some(started) = self.search.clone() else {
            return Ok(());
        };
        self.send("stop")?;
        rep.ponder_stops += 1;
        let deadline = Instant::now() + Duration::from_millis(self.ready_ms);
        let Some((line, _)) = self.terminal(deadline, rep)? else {
            return Err(self.fault(format!("no answer to stop within {} ms", self.ready_ms)));
        };
        self.search = None;
        self.check_infos(&started)?;
        check_answer(&line, &started.root).map_err(|e| self.fault(e))?;
        Ok(())
    }

    /// Checks the resident memory against `Hash` plus `slack` MiB (and the peak against the
    /// largest `Hash` the process had).
    pub(super) fn memory(&mut self, slack: u64, rep: &mut Report) -> Result<(), Fault> {
        let Some(m) = self.process.memory() else {
            return Ok(());
        };
        let [rss, hwm] = crate::tools::process::MEMORY_NAMES;
        rep.memory_checks += 1;
        let over = m.rss_mb - f64::from(self.opts.hash);
        let hwm_over = m.hwm_mb - f64::from(self.opts.max_hash);
        rep.rss_over_hash_mb = rep.rss_over_hash_mb.max(over);
        rep.hwm_over_hash_mb = rep.hwm_over_hash_mb.max(hwm_over);
        if over > slack as f64 || hwm_over > slack as f64 {
            return Err(self.fault(format!(
                "memory: {rss} {:.1} MiB with Hash {}, {hwm} {:.1} MiB with Hash at most {} (slack {slack})",
                m.rss_mb, self.opts.hash, m.hwm_mb, self.opts.max_hash
            )));
        }
        Ok(())
    }

    /// Whether the process is still running.
    pub(super) fn alive(&mut self) -> bool {
        self.process.alive()
    }

    /// `quit`: the process must leave within 500 ms, after `bye` in UCCI.
    pub(super) fn quit(mut self, rep: &mut Report) -> Result<(), Fault> {
        rep.quits += 1;
        if !self.process.quit(Duration::from_millis(QUIT_MS)) {
            // Dropping the process kills it.
            return Err(self.fault(format!("still running {QUIT_MS} ms after quit")));
        }
        // Whatever it wrote before leaving.
        while let Ok((l, _)) = self
            .process
            .recv(Instant::now() + Duration::from_millis(100))
        {
            self.saw_bye |= Line::classify(&l) == Line::Bye;
        }
        if self.dialect == Dialect::Ucci && !self.saw_bye {
            return Err(self.fault("no bye after quit"));
        }
        Ok(())
    }
}
