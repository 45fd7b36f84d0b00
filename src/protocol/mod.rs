//! The engine process: UCI and UCCI over stdin/stdout.
//!
//! A reader thread turns stdin into lines (raw bytes, lossy UTF-8, `\r` stripped, lines over
//! 1 MiB discarded) and hands them to the controller (`controller`), which owns the game state and
//! runs searches on their own thread. `output` owns stdout: one locked writer, whole lines.
//! Commands are parsed by `command`; options live in `options`.

pub mod command;
pub mod controller;
pub mod go;
pub mod lag;
pub mod options;
pub mod output;

use crate::host::Instant;
use controller::{Controller, Event};
use output::Out;
use std::io::{BufRead, IsTerminal};
use std::sync::mpsc::{self, Sender};

/// The two dialects, chosen by the handshake; the engine's protocol loop and the match runner
/// (which talks to engines of either kind) share this type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// UCI as Pikafish speaks it: `uci`/`uciok`, `go wtime … btime …`, `score cp|mate`.
    Uci,
    /// UCCI as ElephantEye speaks it: `ucci`/`ucciok`, `go time … increment …`, bare scores.
    Ucci,
}

/// The handshake word: `uci` or `ucci`.
impl std::fmt::Display for Dialect {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Dialect::Uci => "uci",
            Dialect::Ucci => "ucci",
        })
    }
}

/// Longest accepted input line in bytes.
pub const MAX_LINE: usize = 1 << 20;

/// Runs the protocol loop on stdin/stdout until `quit` or end of input.
pub fn run() {
    let out = Out::stdout();
    if std::io::stdin().is_terminal() {
        out.line(&format!(
            "{} by {} (UCI or UCCI; type `help`)",
            controller::NAME,
            controller::AUTHOR
        ));
    }
    let (tx, rx) = mpsc::channel();
    let reader_tx = tx.clone();
    std::thread::spawn(move || read_lines(std::io::stdin().lock(), reader_tx));
    let mut controller = Controller::new(out, tx);
    for event in rx {
        if !controller.handle(event) {
            break;
        }
    }
}

/// Reads `input` line by line into events, ending with `Event::Eof`.
pub fn read_lines(mut input: impl BufRead, tx: Sender<Event>) {
    let mut buf: Vec<u8> = Vec::new();
    let mut too_long = false;
    loop {
        let chunk = match input.fill_buf() {
            Ok(c) => c,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => &[],
        };
        if chunk.is_empty() {
            if too_long {
                let _ = tx.send(Event::TooLong);
            } else if !buf.is_empty() {
                let _ = tx.send(Event::Line(decode(&buf), Instant::now()));
            }
            let _ = tx.send(Event::Eof);
            return;
        }
        let (part, used, ends) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (&chunk[..i], i + 1, true),
            None => (chunk, chunk.len(), false),
        };
        if !too_long {
            if buf.len() + part.len() > MAX_LINE {
                too_long = true;
                buf = Vec::new();
            } else {
                buf.extend_from_slice(part);
            }
        }
        input.consume(used);
        if ends {
            let event = if too_long {
                Event::TooLong
            } else {
                Event::Line(decode(&buf), Instant::now())
            };
            if tx.send(event).is_err() {
                return;
            }
            buf.clear();
            too_long = false;
        }
    }
}

fn decode(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).trim().to_string()
}
