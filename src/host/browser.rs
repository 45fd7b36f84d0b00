//! The host in a browser's Web Worker: the page's clock, work run one piece at a time by the
//! worker's loop, and the hook through which a running search reads its input.
//!
//! The page gives the module three functions (imports of module `chariot`): `now_ms` (the
//! page's `performance.now()`), `input_wait(ms)` (block until input arrives or `ms` pass) and
//! the ones `crate::web` names. Everything here lives on the worker's one thread.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;
use std::time::Duration;

#[link(wasm_import_module = "chariot")]
extern "C" {
    /// Milliseconds since the worker started (`performance.now()`).
    fn now_ms() -> f64;
    /// Blocks until input arrives or `ms` milliseconds pass.
    fn input_wait(ms: f64);
}

/// A point in time: milliseconds on the page's monotonic clock.
#[derive(Clone, Copy, Debug, PartialEq, PartialOrd)]
pub struct Instant(f64);

impl Instant {
    /// Now.
    pub fn now() -> Instant {
        // SAFETY: a plain function of the page's with no arguments.
        Instant(unsafe { now_ms() })
    }

    /// Time since this instant.
    pub fn elapsed(&self) -> Duration {
        Instant::now().saturating_duration_since(*self)
    }

    /// Time from `earlier` to this instant, zero if `earlier` is later.
    pub fn saturating_duration_since(&self, earlier: Instant) -> Duration {
        Duration::from_secs_f64(((self.0 - earlier.0) / 1000.0).max(0.0))
    }

    /// As `saturating_duration_since`.
    pub fn duration_since(&self, earlier: Instant) -> Duration {
        self.saturating_duration_since(earlier)
    }
}

/// A piece of work handed to `spawn`, waiting for the worker's loop.
type Task = Box<dyn FnOnce()>;

thread_local! {
    static TASKS: RefCell<VecDeque<Task>> = const { RefCell::new(VecDeque::new()) };
    static POLL: RefCell<Option<Rc<dyn Fn()>>> = const { RefCell::new(None) };
}

/// The result of work handed to `spawn`, once it has run.
pub struct JoinHandle<T>(Rc<RefCell<Option<T>>>);

impl<T> JoinHandle<T> {
    /// The work's result; an error if it has not run (the loop runs it before it reports done).
    pub fn join(self) -> std::thread::Result<T> {
        self.0
            .borrow_mut()
            .take()
            .ok_or_else(|| Box::new("the work has not run") as Box<dyn std::any::Any + Send>)
    }

    /// Whether the work has run.
    pub fn is_finished(&self) -> bool {
        self.0.borrow().is_some()
    }
}

/// Queues `f` for the worker's loop (`next_task`).
pub fn spawn<T: 'static>(f: impl FnOnce() -> T + 'static) -> JoinHandle<T> {
    let slot = Rc::new(RefCell::new(None));
    let filled = Rc::clone(&slot);
    TASKS.with(|t| {
        t.borrow_mut().push_back(Box::new(move || {
            let v = f();
            *filled.borrow_mut() = Some(v);
        }))
    });
    JoinHandle(slot)
}

/// The oldest work waiting to run.
pub fn next_task() -> Option<Box<dyn FnOnce()>> {
    TASKS.with(|t| t.borrow_mut().pop_front())
}

/// Sets what `poll` runs: the worker's loop reading the lines that arrived.
pub fn set_poll(f: Rc<dyn Fn()>) {
    POLL.with(|p| *p.borrow_mut() = Some(f));
}

/// Reads the input that arrived (see `set_poll`).
pub fn poll() {
    if let Some(f) = POLL.with(|p| p.borrow().clone()) {
        f();
    }
}

/// Waits until input arrives or `d` passes, then reads it.
pub fn pause(d: Duration) {
    // SAFETY: a plain function of the page's taking a number.
    unsafe { input_wait(d.as_secs_f64() * 1000.0) };
    poll();
}
