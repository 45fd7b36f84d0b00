//! Lazy SMP: a pool of helper threads, made once and kept between searches, each with a
//! `Searcher` of its own (histories, killers, stack) sharing the main searcher's hash table.
//!
//! During a search every helper searches the same root as the main thread with no limit of
//! its own; what it finds reaches the main thread only through the table. Helpers stop when
//! the search's `Signals` is stopped (a GUI `stop`/`quit` reaches them at once) or when the
//! main thread raises the pool's halt flag as its own search ends; the main thread then waits
//! until every helper is idle, so no helper outlives the search it belongs to. The main
//! thread's result is the answer; helpers only publish their node counts.

use super::tt::Table;
use super::{Limits, NullSink, Params, Searcher, Signals};
use crate::board::Game;
use crate::eval::nnue::Network;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::Arc;
use std::thread::JoinHandle;

/// Largest `Threads` value (helpers + the main thread).
pub const MAX_THREADS: usize = 1024;

/// What a helper needs for one search: the main searcher's root, limits, table and settings.
#[derive(Clone)]
pub(super) struct Job {
    pub game: Game,
    pub limits: Limits,
    pub signals: Arc<Signals>,
    pub tt: Arc<Table>,
    pub multipv: usize,
    pub network: Option<Arc<Network>>,
    pub params: Params,
}

enum Message {
    Search(Box<Job>),
    Clear,
    Quit,
}

struct Worker {
    to: Sender<Message>,
    idle: Receiver<()>,
    nodes: Arc<AtomicU64>,
    handle: Option<JoinHandle<()>>,
}

/// The helper threads (none when `Threads` is 1).
#[derive(Default)]
pub struct Pool {
    workers: Vec<Worker>,
    halt: Arc<AtomicBool>,
    searching: bool,
}

impl Pool {
    /// Number of helper threads.
    pub fn helpers(&self) -> usize {
        self.workers.len()
    }

    /// Makes the pool `helpers` threads strong, keeping existing threads.
    pub fn resize(&mut self, helpers: usize) {
        self.workers.truncate(helpers); // dropped workers quit and are joined
        while self.workers.len() < helpers {
            let id = self.workers.len() + 1;
            let (to, from) = channel::<Message>();
            let (idle_tx, idle) = channel::<()>();
            let nodes = Arc::new(AtomicU64::new(0));
            let mut s = Searcher::helper(id, Arc::clone(&nodes), &self.halt);
            let spawned = std::thread::Builder::new()
                .name(format!("helper {id}"))
                .spawn(move || {
                    while let Ok(msg) = from.recv() {
                        match msg {
                            Message::Search(job) => {
                                s.tables.tt = job.tt;
                                s.multipv = job.multipv;
                                s.params = job.params;
                                s.use_network(job.network);
                                s.search(&job.game, &job.limits, &job.signals, &mut NullSink);
                                // Hold no table between searches: a resize frees it at once.
                                s.tables.tt = Arc::new(Table::empty());
                            }
                            Message::Clear => s.tables.heur.clear(),
                            Message::Quit => break,
                        }
                        if idle_tx.send(()).is_err() {
                            break;
                        }
                    }
                });
            match spawned {
                Ok(handle) => self.workers.push(Worker {
                    to,
                    idle,
                    nodes,
                    handle: Some(handle),
                }),
                Err(e) => {
                    log::error!("cannot start helper thread {id}: {e}");
                    break;
                }
            }
        }
    }

    /// Starts every helper on `job` (helpers ignore the clock and node limits: the main
    /// thread ends the search).
    pub(super) fn start(&mut self, job: Job) {
        if self.workers.is_empty() {
            return;
        }
        self.halt.store(false, Ordering::SeqCst);
        let job = Job {
            limits: Limits {
                depth: job.limits.depth,
                root_moves: job.limits.root_moves.clone(),
                ..Limits::default()
            },
            ..job
        };
        for w in &self.workers {
            w.nodes.store(0, Ordering::Relaxed);
            let _ = w.to.send(Message::Search(Box::new(job.clone())));
        }
        self.searching = true;
    }

    /// Halts every helper and waits until all are idle.
    pub(super) fn stop(&mut self) {
        if !self.searching {
            return;
        }
        self.halt.store(true, Ordering::SeqCst);
        for w in &self.workers {
            let _ = w.idle.recv();
        }
        self.searching = false;
    }

    /// Nodes searched by the helpers in the current (or last) search.
    pub fn nodes(&self) -> u64 {
        self.workers
            .iter()
            .map(|w| w.nodes.load(Ordering::Relaxed))
            .sum()
    }

    /// Clears every helper's histories.
    pub fn clear(&mut self) {
        for w in &self.workers {
            let _ = w.to.send(Message::Clear);
        }
        for w in &self.workers {
            let _ = w.idle.recv();
        }
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        let _ = self.to.send(Message::Quit);
        if let Some(h) = self.handle.take() {
            let _ = h.join();
        }
    }
}

/// Whether helper `id` skips iteration `depth` (the classic Lazy SMP pattern: helpers spread
/// over neighbouring depths rather than all searching the same one).
pub(super) fn skips(id: usize, depth: u32) -> bool {
    const SIZE: [u32; 20] = [1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4];
    const PHASE: [u32; 20] = [0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7];
    if id == 0 {
        return false;
    }
    let i = (id - 1) % 20;
    ((depth + PHASE[i]) / SIZE[i]) % 2 == 1
}
