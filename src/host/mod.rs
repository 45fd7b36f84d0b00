//! What the engine asks of the machine it runs on: a clock (`Instant`), threads of work
//! (`spawn`, `JoinHandle`), pauses in long work (`poll`, `pause`), and the processor time a
//! thread has had (`thread_cpu_time`).
//!
//! Natively these are the standard library's, but for threads that wait for the next work
//! rather than end (`pool`): `poll` does nothing and compiles away, `pause` sleeps. In a
//! browser (`wasm32-unknown-unknown`, see `crate::web`) the standard library has no clock and
//! no threads: the clock is the page's `performance.now()`, work handed to `spawn`
//! runs when the line that started it has been handled (one piece of work at a time, as the
//! worker's loop takes it), and `poll` lets that loop read the lines that arrived meanwhile
//! (`stop` among them), so a search in a browser hears `stop` within its polling interval.

#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
mod pool;
#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
pub use pool::{spawn, JoinHandle};
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

/// The processor time the calling thread has had so far, where the system tells it (Linux and
/// other Unix systems, Windows); `None` elsewhere (a browser). Against the time on the wall it
/// says how much of a core the machine left the thread (`search::lag::CoreShare`).
#[cfg(unix)]
pub fn thread_cpu_time() -> Option<std::time::Duration> {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `clock_gettime` writes one `timespec`, which `t` is.
    let ok = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) } == 0;
    ok.then(|| std::time::Duration::new(t.tv_sec as u64, t.tv_nsec as u32))
}

/// The processor time the calling thread has had so far (user and kernel).
#[cfg(windows)]
pub fn thread_cpu_time() -> Option<std::time::Duration> {
    use windows_sys::Win32::Foundation::FILETIME;
    use windows_sys::Win32::System::Threading::{GetCurrentThread, GetThreadTimes};
    let zero = || FILETIME {
        dwLowDateTime: 0,
        dwHighDateTime: 0,
    };
    let (mut created, mut exited, mut kernel, mut user) = (zero(), zero(), zero(), zero());
    // SAFETY: the pseudo-handle of the current thread needs no closing; the four pointers are
    // to `FILETIME`s of ours.
    let ok = unsafe {
        GetThreadTimes(
            GetCurrentThread(),
            &mut created,
            &mut exited,
            &mut kernel,
            &mut user,
        )
    } != 0;
    // Both in units of 100 ns.
    let ticks = |f: FILETIME| (f.dwHighDateTime as u64) << 32 | f.dwLowDateTime as u64;
    ok.then(|| std::time::Duration::from_nanos((ticks(kernel) + ticks(user)) * 100))
}

/// No processor clock of the thread here.
#[cfg(not(any(unix, windows)))]
pub fn thread_cpu_time() -> Option<std::time::Duration> {
    None
}
