//! Threads kept for the next piece of work: `spawn` and `JoinHandle` as the standard library's,
//! but a thread that has done its work waits for the next instead of ending.
//!
//! Why: every `go` runs its search on a thread of its own (so that `stop`, `isready` and
//! `quit` are answered at once). A new thread is a stranger to the scheduler: Linux starts it
//! behind the threads already waiting, which on a busy machine costs a move a few
//! milliseconds before its first node, at a thirtieth of a peer's clock as much as the whole
//! increment. A thread woken from a wait is served first. `rayon`'s pools would do, but they
//! are a feature of the tools, and a job here must be joined on its own, as a thread is.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::{Arc, Mutex};

/// A piece of work, told which worker runs it (to put it back on the idle list).
struct Job(Box<Work>);

/// What a job runs.
type Work = dyn FnOnce(&Sender<Job>) + Send;

/// Workers waiting for work, each by the sender of its queue.
static IDLE: Mutex<Vec<Sender<Job>>> = Mutex::new(Vec::new());

/// The result of work handed to `spawn`.
pub struct JoinHandle<T> {
    result: Receiver<std::thread::Result<T>>,
    finished: Arc<AtomicBool>,
}

impl<T> JoinHandle<T> {
    /// Waits for the work's result: `Err` with the payload if it panicked.
    pub fn join(self) -> std::thread::Result<T> {
        self.result
            .recv()
            .unwrap_or_else(|_| Err(Box::new("the worker thread ended")))
    }

    /// Whether the work is done (its result waits for `join`).
    pub fn is_finished(&self) -> bool {
        self.finished.load(Ordering::Acquire)
    }
}

/// Runs `f` on a worker thread: an idle one, or a new one if none is idle.
pub fn spawn<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> JoinHandle<T> {
    let (tx, result) = channel();
    let finished = Arc::new(AtomicBool::new(false));
    let done = Arc::clone(&finished);
    let mut job = Job(Box::new(move |me: &Sender<Job>| {
        let r = catch_unwind(AssertUnwindSafe(f));
        // Idle again before the result is out: whoever waits for it and hands out the next
        // piece of work finds this thread free.
        idle().push(me.clone());
        done.store(true, Ordering::Release);
        let _ = tx.send(r);
    }));
    // A worker on the list may have ended (its queue then refuses): try the next.
    while let Some(worker) = idle().pop() {
        match worker.send(job) {
            Ok(()) => return JoinHandle { result, finished },
            Err(refused) => job = refused.0,
        }
    }
    let (queue, jobs) = channel::<Job>();
    queue.send(job).expect("a new queue takes a job");
    std::thread::Builder::new()
        .name("chariot-worker".into())
        .spawn(move || {
            for job in jobs.iter() {
                (job.0)(&queue);
            }
        })
        .expect("the system refused a thread");
    JoinHandle { result, finished }
}

/// The idle list, whatever a panic elsewhere left of its lock.
fn idle() -> std::sync::MutexGuard<'static, Vec<Sender<Job>>> {
    IDLE.lock().unwrap_or_else(|e| e.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_worker_is_used_again_and_survives_a_panic() {
        let name = || std::thread::current().id();
        let first = spawn(name).join().unwrap();
        // The worker is idle again once its result is out: the next work finds it (another
        // test's work may take it meanwhile, so ask a few times).
        let again = (0..20).any(|_| spawn(name).join().unwrap() == first);
        assert!(again);
        let panicked = spawn(|| -> u32 { panic!("on purpose") }).join();
        assert!(panicked.is_err());
        assert_eq!(spawn(|| 7).join().unwrap(), 7);
    }

    #[test]
    fn work_at_once_runs_on_as_many_threads() {
        let (tx, rx) = channel();
        let held = spawn(move || rx.recv().unwrap());
        // A second piece of work while the first waits: it cannot wait for that worker.
        let other = spawn(|| 5);
        assert_eq!(other.join().unwrap(), 5);
        assert!(!held.is_finished());
        tx.send(9).unwrap();
        assert_eq!(held.join().unwrap(), 9);
        assert!(spawn(|| ()).join().is_ok());
    }
}
