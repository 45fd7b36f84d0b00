//! What the engine asks of the machine it runs on: a clock (`Instant`), threads of work
//! (`spawn`, `JoinHandle`), and pauses in long work (`poll`, `pause`).
//!
//! Natively these are the standard library's: `poll` does nothing and compiles away, `pause`
//! sleeps. In a browser (`wasm32-unknown-unknown`, see `crate::web`) the standard library has no
//! clock and no threads: the clock is the page's `performance.now()`, work handed to `spawn`
//! runs when the line that started it has been handled (one piece of work at a time, as the
//! worker's loop takes it), and `poll` lets that loop read the lines that arrived meanwhile
//! (`stop` among them), so a search in a browser hears `stop` within its polling interval.

#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
pub use std::thread::{spawn, JoinHandle};
#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
pub use std::time::Instant;

#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
mod browser;
#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
pub use browser::{next_task, pause, poll, set_poll, spawn, Instant, JoinHandle};

/// Natively nothing: long work calls it at its polling points (every `POLL_NODES` nodes of a
/// search), where a browser reads its input.
#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
#[inline(always)]
pub fn poll() {}

/// Waits `d` (natively a sleep; in a browser, until input arrives or `d` passes), for work
/// that holds its answer until told (`go infinite`, pondering).
#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
pub fn pause(d: std::time::Duration) {
    std::thread::sleep(d);
}
