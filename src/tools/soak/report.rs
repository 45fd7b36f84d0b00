//! What a soak run counted and found: one `Report` per game, merged into the run's, and its
//! text, one topic a line, then the faults.

use super::Toggle;
use std::collections::BTreeMap;

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
    /// Adds another report's counts (a worker's game) to this one.
    pub(super) fn merge(&mut self, o: &Report) {
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
        if crate::tools::process::MEMORY_READABLE {
            let [rss, hwm] = crate::tools::process::MEMORY_NAMES;
            writeln!(
                f,
                "memory: {} checks, {rss} at most Hash + {:.1} MiB, {hwm} at most largest Hash + {:.1} MiB",
                self.memory_checks, self.rss_over_hash_mb, self.hwm_over_hash_mb
            )?;
        } else {
            writeln!(f, "memory: not checked on this platform")?;
        }
        write!(f, "faults: {}", self.faults.len())?;
        for fault in &self.faults {
            write!(f, "\n  {fault}")?;
        }
        Ok(())
    }
}
