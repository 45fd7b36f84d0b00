//! The engine in a browser: the protocol loop of a Web Worker (`worker`), the rules for the
//! page, and game review (`review`).
//!
//! Built for `wasm32-unknown-unknown` by `scripts/web.sh`, the module exports plain functions
//! and imports from module `chariot` what the package's scripts (`web/chariot.js`,
//! `web/engine-worker.js`) give it. `exchange` and `rules` serve the page's board: the legal
//! moves, the FEN and the referee's verdict of a game given as `position`'s arguments;
//! `notate`, `read_move`, `read_record` and `write_pgn` its notation and records (the JSON
//! answers are `record::json`'s, compiled and tested natively too).
//!
//! `scripts/web.sh` also builds a rules-only module with the feature `rules-only`: without
//! `worker` and `review` nothing names the network or the search, so the linker leaves them
//! out and the module the page instantiates on its own thread for `rules` and the records'
//! functions is a small fraction of the engine's (docs/web.md gives the sizes).

use crate::board::rules::Outcome;
use crate::board::square::Color;
use crate::record::json::{self, string};
use std::cell::RefCell;

#[cfg(not(feature = "rules-only"))]
mod review;
#[cfg(not(feature = "rules-only"))]
mod worker;

#[link(wasm_import_module = "chariot")]
extern "C" {
    /// Fills `len` bytes at `ptr` with random bytes (`crypto.getRandomValues`).
    fn random_fill(ptr: *mut u8, len: usize);
}

thread_local! {
    /// Text passed between the page and the exported functions: the request, then the answer.
    static EXCHANGE: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// The exchange buffer, made `len` bytes long: where the page writes the request of `rules`,
/// `notate`, `read_move`, `read_record`, `write_pgn` or `review` and reads the answer.
#[no_mangle]
pub extern "C" fn exchange(len: usize) -> *mut u8 {
    EXCHANGE.with(|x| {
        let mut x = x.borrow_mut();
        x.resize(len, 0);
        x.as_mut_ptr()
    })
}

/// Runs `answer` on the request in the exchange buffer's first `len` bytes and leaves its
/// answer there; returns the answer's length (the page reads it with `exchange(length)`).
fn exchanged(len: usize, answer: impl FnOnce(&[u8]) -> String) -> usize {
    EXCHANGE.with(|x| {
        let mut x = x.borrow_mut();
        let request = std::mem::take(&mut *x);
        *x = answer(&request[..len.min(request.len())]).into_bytes();
        x.len()
    })
}

/// Judges the game given in the exchange buffer's first `len` bytes as `position`'s arguments
/// (`startpos moves h2e2`, `fen … moves …`); writes the answer there as JSON and returns its
/// length: `{"ok":true,"fen":…,"turn":"w"|"b","check":…,"legal":[…],"result":…,"reason":…}`
/// (`result` `null` while the game goes on), or `{"ok":false,"error":…}`.
#[no_mangle]
pub extern "C" fn rules(len: usize) -> usize {
    exchanged(len, |r| judge(&String::from_utf8_lossy(r)))
}

/// The moves of a game in a notation, for the move list and the engine's lines:
/// `record::json::notate` of the exchange buffer's first `len` bytes (`chinese startpos moves
/// h2e2`), answered there; returns the answer's length.
#[no_mangle]
pub extern "C" fn notate(len: usize) -> usize {
    exchanged(len, |r| json::notate(&String::from_utf8_lossy(r)))
}

/// A move typed in ICCS, WXF or Chinese: `record::json::read_move` of the exchange buffer's
/// first `len` bytes (the game, a line break, the text), answered there.
#[no_mangle]
pub extern "C" fn read_move(len: usize) -> usize {
    exchanged(len, |r| json::read_move(&String::from_utf8_lossy(r)))
}

/// The first game of a record (PGN, XQF, DhtmlXQ, a FEN): `record::json::read_record` of the
/// exchange buffer's first `len` bytes, answered there.
#[no_mangle]
pub extern "C" fn read_record(len: usize) -> usize {
    exchanged(len, json::read_record)
}

/// A game as PGN: `record::json::write_pgn` of the exchange buffer's first `len` bytes
/// (options, an empty line, the game), answered there.
#[no_mangle]
pub extern "C" fn write_pgn(len: usize) -> usize {
    exchanged(len, json::write_pgn)
}

/// The JSON answer of `rules`.
fn judge(spec: &str) -> String {
    let game = match json::spec_game(spec) {
        Ok(g) => g,
        Err(e) => return format!("{{\"ok\":false,\"error\":{}}}", string(&e.to_string())),
    };
    let pos = game.position();
    let legal: Vec<String> = pos
        .legal_moves()
        .iter()
        .map(|m| string(&m.to_string()))
        .collect();
    let (result, reason) = match game.outcome(usize::MAX) {
        None => ("null".to_string(), "null".to_string()),
        Some(outcome) => {
            let reason = match outcome {
                Outcome::Win(_, r) | Outcome::Draw(r) => r,
            };
            (
                string(json::outcome_result(&game)),
                string(&reason.to_string()),
            )
        }
    };
    format!(
        "{{\"ok\":true,\"fen\":{},\"turn\":{},\"check\":{},\"legal\":[{}],\"result\":{result},\"reason\":{reason}}}",
        string(&pos.fen()),
        string(if pos.side_to_move() == Color::Red { "w" } else { "b" }),
        pos.in_check(),
        legal.join(",")
    )
}

/// The random bytes `rand` asks for (the `getrandom` crate's custom source, chosen by
/// `--cfg getrandom_backend="custom"` in `scripts/web.sh`).
///
/// # Safety
/// `dest` must be valid for writes of `len` bytes (as `getrandom` guarantees).
#[no_mangle]
unsafe extern "Rust" fn __getrandom_v03_custom(
    dest: *mut u8,
    len: usize,
) -> Result<(), getrandom::Error> {
    random_fill(dest, len);
    Ok(())
}
