//! The protocol loop of the engine's Web Worker.
//!
//! The worker calls `start` once, then `pump` whenever input may have arrived: `pump` runs
//! everything there is to run (lines, then the work they started: a search runs on the
//! worker's one thread) and returns. Lines are read from the page's input queue (`input`),
//! also from inside a running search (`host::poll`, every `POLL_NODES` nodes): so `stop`,
//! `isready` and `quit` are heard during `go infinite` as the native loop hears them, and every
//! line meets the same controller as natively, bad lines included. Output goes out one message
//! at a time (`output`). Where the input comes from is the worker script's business: a ring in
//! shared memory (a running search reads it) or, without cross-origin isolation, lines posted
//! to the worker (read between runs of `pump` only: `web/chariot.js` then answers `stop`).

use crate::host;
use crate::protocol::controller::{Controller, Event};
use crate::protocol::output::Out;
use crate::protocol::MAX_LINE;
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
    /// Says that a search or bench has started (`Controller::searching`): without shared
    /// memory the lines posted after it cannot reach it, and the page answers for it.
    fn search_started();
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
    /// Whether the controller was searching after the last event.
    searching: Cell<bool>,
}

impl Engine {
    /// Hands `event` to the controller; tells the page when a search or bench starts.
    fn handle(&self, event: Event, controller: &mut Controller) {
        if !self.quit.get() && !controller.handle(event) {
            self.quit.set(true);
        }
        let now = controller.searching();
        if now && !self.searching.get() {
            // SAFETY: a plain function of the page's with no arguments.
            unsafe { search_started() };
        }
        self.searching.set(now);
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
        searching: Cell::new(false),
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
