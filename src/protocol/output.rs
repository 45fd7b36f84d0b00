//! Output: one locked writer shared by the command loop and the search thread, and the
//! formatting of search reports in each dialect.
//!
//! Every message is written whole and flushed under the lock, so lines never interleave. A failed
//! write (the GUI is gone) ends the process quietly.

use super::Dialect;
use crate::board::Move;
use crate::search::score::{self, UciScore};
use crate::search::{Bound, Info, InfoSink};
use std::io::Write;
use std::sync::{Arc, Mutex};

/// A shared, line-oriented writer.
#[derive(Clone)]
pub struct Out {
    inner: Arc<Mutex<Box<dyn Write + Send>>>,
    exit_on_error: bool,
}

impl Out {
    /// Writes to the process's stdout; a failed write exits the process with status 0.
    pub fn stdout() -> Out {
        Out {
            inner: Arc::new(Mutex::new(Box::new(std::io::stdout()))),
            exit_on_error: true,
        }
    }

    /// Writes to `w` (tests); failed writes are ignored.
    pub fn to_writer(w: Box<dyn Write + Send>) -> Out {
        Out {
            inner: Arc::new(Mutex::new(w)),
            exit_on_error: false,
        }
    }

    /// Writes one message (one or more lines, without the final newline) and flushes.
    pub fn line(&self, text: &str) {
        let mut w = match self.inner.lock() {
            Ok(w) => w,
            Err(poisoned) => poisoned.into_inner(),
        };
        let ok = w
            .write_all(text.as_bytes())
            .and_then(|_| w.write_all(b"\n"))
            .and_then(|_| w.flush());
        if ok.is_err() && self.exit_on_error {
            std::process::exit(0);
        }
    }

    /// `info string <text>`.
    pub fn info_string(&self, text: &str) {
        self.line(&format!("info string {text}"));
    }
}

/// Formats a score in the dialect.
pub fn score_text(dialect: Dialect, v: i32) -> String {
    match dialect {
        Dialect::Uci => match score::uci(v) {
            UciScore::Cp(c) => format!("score cp {c}"),
            UciScore::Mate(m) => format!("score mate {m}"),
        },
        Dialect::Ucci => format!("score {}", score::ucci(v)),
    }
}

fn moves_text(pv: &[Move]) -> String {
    pv.iter()
        .map(|m| m.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// One `info` line for a search report.
pub fn info_line(dialect: Dialect, info: &Info) -> String {
    let mut s = format!("info depth {} seldepth {}", info.depth, info.seldepth);
    if dialect == Dialect::Uci {
        s.push_str(" multipv 1");
    }
    s.push(' ');
    s.push_str(&score_text(dialect, info.score));
    if dialect == Dialect::Uci {
        match info.bound {
            Bound::Lower => s.push_str(" lowerbound"),
            Bound::Upper => s.push_str(" upperbound"),
            Bound::Exact => {}
        }
    }
    s.push_str(&format!(" nodes {} nps {}", info.nodes, info.nps));
    if dialect == Dialect::Uci {
        s.push_str(&format!(" hashfull {}", info.hashfull));
    }
    s.push_str(&format!(" time {}", info.time_ms));
    if !info.pv.is_empty() {
        s.push_str(" pv ");
        s.push_str(&moves_text(&info.pv));
    }
    s
}

/// The `InfoSink` the search thread writes to.
pub struct ProtocolSink {
    /// Where lines go.
    pub out: Out,
    /// Dialect of the session.
    pub dialect: Dialect,
}

impl InfoSink for ProtocolSink {
    fn iteration(&mut self, info: &Info) {
        self.out.line(&info_line(self.dialect, info));
    }

    fn currmove(&mut self, depth: u32, mv: Move, number: usize) {
        self.out.line(&format!(
            "info depth {depth} currmove {mv} currmovenumber {number}"
        ));
    }
}
