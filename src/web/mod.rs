//! The engine in a browser: the protocol loop of a Web Worker (`worker`), the rules for the
//! page, and game review (`review`).
//!
//! Built for `wasm32-unknown-unknown` by `scripts/web.sh`, the module exports plain functions
//! and imports from module `chariot` what the package's scripts (`web/chariot.js`,
//! `web/engine-worker.js`) give it. `exchange` and `rules` serve the page's board: the legal
//! moves, the FEN and the referee's verdict of a game given as `position`'s arguments.
//!
//! `scripts/web.sh` also builds a rules-only module with the feature `rules-only`: without
//! `worker` and `review` nothing names the network or the search, so the linker leaves them
//! out and the module the page instantiates on its own thread for `rules` is a small fraction
//! of the engine's (docs/web.md gives the sizes).

use crate::board::rules::Outcome;
use crate::board::square::Color;
use crate::board::{Game, Position};
use crate::protocol::command::{self, Command};
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
    /// Text passed between the page and `rules` or `review`.
    static EXCHANGE: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// The exchange buffer, made `len` bytes long: where the page writes the argument of `rules`
/// or `review` and reads the answer.
#[no_mangle]
pub extern "C" fn exchange(len: usize) -> *mut u8 {
    EXCHANGE.with(|x| {
        let mut x = x.borrow_mut();
        x.resize(len, 0);
        x.as_mut_ptr()
    })
}

/// Judges the game given in the exchange buffer's first `len` bytes as `position`'s arguments
/// (`startpos moves h2e2`, `fen … moves …`); writes the answer there as JSON and returns its
/// length: `{"ok":true,"fen":…,"turn":"w"|"b","check":…,"legal":[…],"result":…,"reason":…}`
/// (`result` `null` while the game goes on), or `{"ok":false,"error":…}`.
#[no_mangle]
pub extern "C" fn rules(len: usize) -> usize {
    EXCHANGE.with(|x| {
        let mut x = x.borrow_mut();
        let spec = String::from_utf8_lossy(&x[..len.min(x.len())]).into_owned();
        let answer = judge(&spec).into_bytes();
        *x = answer;
        x.len()
    })
}

/// The JSON answer of `rules`.
fn judge(spec: &str) -> String {
    let game = match command::parse(&format!("position {spec}")) {
        Ok(Command::Position(p)) => {
            let start = match &p.fen {
                None => Ok(Position::startpos()),
                Some(f) => f.parse::<Position>().map_err(|e| e.to_string()),
            };
            start.and_then(|s| Game::from_moves(s, &p.moves).map_err(|e| e.to_string()))
        }
        Ok(_) => Err("not a position".to_string()),
        Err(e) => Err(e.to_string()),
    };
    let game = match game {
        Ok(g) => g,
        Err(e) => return format!("{{\"ok\":false,\"error\":{}}}", json(&e.to_string())),
    };
    let pos = game.position();
    let legal: Vec<String> = pos
        .legal_moves()
        .iter()
        .map(|m| json(&m.to_string()))
        .collect();
    let (result, reason) = match game.outcome(usize::MAX) {
        None => ("null".to_string(), "null".to_string()),
        Some(Outcome::Win(c, r)) => {
            let score = if c == Color::Red { "1-0" } else { "0-1" };
            (json(score), json(&r.to_string()))
        }
        Some(Outcome::Draw(r)) => (json("1/2-1/2"), json(&r.to_string())),
    };
    format!(
        "{{\"ok\":true,\"fen\":{},\"turn\":{},\"check\":{},\"legal\":[{}],\"result\":{result},\"reason\":{reason}}}",
        json(&pos.fen()),
        json(if pos.side_to_move() == Color::Red { "w" } else { "b" }),
        pos.in_check(),
        legal.join(",")
    )
}

/// `s` as a JSON string.
fn json(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
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
