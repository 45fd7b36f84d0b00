//! Game review for the page: `review` reviews a game record (`crate::review`) synchronously,
//! on the worker's thread, and answers with every move's eval and judgement, each side's
//! accuracy and the annotated PGN.

use super::{exchanged, json::string as json};
use crate::board::{Notation, Position};
use crate::record::{self, Format, Record};
use crate::review::{self, Eval, MoveReview, Review, Reviewer, Settings};
use std::cell::RefCell;

thread_local! {
    /// The reviewer of `review`, kept while the settings stay the same (its hash table is
    /// allocated once).
    static REVIEWER: RefCell<Option<Reviewer>> = const { RefCell::new(None) };
}

/// Reviews the game in the exchange buffer's first `len` bytes; writes the answer there as
/// JSON and returns its length. It runs to the end before returning (a 100-ply game at the
/// default 100 000 nodes a position takes some seconds).
///
/// The request: option lines, an empty line, then the game record in any format `record::read`
/// reads (PGN in any notation, DhtmlXQ, XQF's bytes); the first game is reviewed. Options,
/// each `name value`, all optional: `nodes N` (default 100000), `movetime MS` (instead of
/// nodes), `hash MB` (default 16), `notation iccs|wxf|chinese` (of `text`, `line` and the PGN;
/// default chinese). A request with no option starts with the empty line.
///
/// The answer: `{"ok":true,"complete":true,"nodes":N,"moves":[…],"accuracy":{"red":…,
/// "black":…},"counts":{"red":[i,m,b],"black":[i,m,b]},"summary":…,"pgn":…}` where each move
/// is `{"ply":1,"move":"h2e2","text":"炮二平五","eval":35,"best":"h2e2","pv":["h2e2",…],
/// "line":"炮二平五 …","loss":0.012,"accuracy":98.1,"judgement":null}`: `eval` is the position
/// after the move from Red's view, centipawns or `"#5"`/`"#-3"` (mate in moves, as `[%eval]`);
/// `pv` the engine's line before the move (ICCS), `line` its first plies in the notation;
/// `judgement` `null`, `"inaccuracy"`, `"mistake"` or `"blunder"`; an accuracy is `null` for a
/// side with no move; `counts` are inaccuracies, mistakes, blunders. Or
/// `{"ok":false,"error":…}`.
#[no_mangle]
pub extern "C" fn review(len: usize) -> usize {
    exchanged(len, review_answer)
}

/// What a review request asks for.
struct ReviewRequest {
    settings: Settings,
    notation: Notation,
    record: Record,
}

/// The JSON answer of `review`.
fn review_answer(request: &[u8]) -> String {
    let request = match review_request(request) {
        Ok(r) => r,
        Err(e) => return format!("{{\"ok\":false,\"error\":{}}}", json(&e.to_string())),
    };
    let stop = std::sync::atomic::AtomicBool::new(false);
    let done = REVIEWER.with(|slot| {
        let mut slot = slot.borrow_mut();
        if slot.as_ref().map(|r| *r.settings()) != Some(request.settings) {
            // The old table is freed before the new one is made.
            *slot = None;
            *slot = Some(Reviewer::new(request.settings));
        }
        slot.as_mut()
            .map(|r| r.review(&request.record, &stop, &mut |_, _| {}))
    });
    match done {
        Some(done) => review_json(&request, &done),
        None => "{\"ok\":false,\"error\":\"no reviewer\"}".to_string(),
    }
}

/// Why a review request was refused; `Display` is the `error` of the answer.
#[derive(Debug, thiserror::Error)]
enum RequestError {
    /// The request has no blank line between its options and its record.
    #[error("no empty line after the options")]
    NoBlankLine,
    /// An option line names no option.
    #[error("unknown option: {0}")]
    Unknown(String),
    /// An option's value is not a number.
    #[error("{0}: not a number: {1}")]
    NotANumber(String, String),
    /// The `notation` option names no notation.
    #[error("{0}")]
    Notation(#[from] crate::board::NotationError),
    /// The record's first game could not be read.
    #[error("{0}")]
    Record(#[from] record::RecordError),
    /// The record holds no game.
    #[error("no game in the record")]
    NoGame,
}

/// Reads the options and the first game of a review request.
fn review_request(bytes: &[u8]) -> Result<ReviewRequest, RequestError> {
    let (options, game) = split_options(bytes).ok_or(RequestError::NoBlankLine)?;
    let options = String::from_utf8_lossy(options);
    let mut request = ReviewRequest {
        settings: Settings::default(),
        notation: Notation::Chinese,
        record: Record::new(Position::startpos()),
    };
    for line in options.lines().map(str::trim).filter(|l| !l.is_empty()) {
        review_option(&mut request, line)?;
    }
    request.record = match record::read(game).into_iter().next() {
        Some(Ok(r)) => r,
        Some(Err(e)) => return Err(e.into()),
        None => return Err(RequestError::NoGame),
    };
    Ok(request)
}

/// A request's option lines and its record: the bytes before and after its first blank line.
fn split_options(bytes: &[u8]) -> Option<(&[u8], &[u8])> {
    let mut at = 0;
    loop {
        let end = at + bytes[at..].iter().position(|&b| b == b'\n')?;
        if bytes[at..end].iter().all(u8::is_ascii_whitespace) {
            return Some((&bytes[..at], &bytes[end + 1..]));
        }
        at = end + 1;
    }
}

/// Applies one option line of a review request.
fn review_option(request: &mut ReviewRequest, line: &str) -> Result<(), RequestError> {
    let (name, value) = line.split_once(' ').unwrap_or((line, ""));
    let value = value.trim();
    let number = || {
        value
            .parse::<u64>()
            .map_err(|_| RequestError::NotANumber(name.to_string(), value.to_string()))
    };
    let s = &mut request.settings;
    match name {
        "nodes" => s.nodes = Some(number()?.max(1)),
        "movetime" => {
            s.movetime_ms = Some(number()?.max(1));
            s.nodes = None;
        }
        "hash" => s.hash_mb = number()?.clamp(1, 1024) as usize,
        "notation" => request.notation = value.parse()?,
        _ => return Err(RequestError::Unknown(name.to_string())),
    }
    Ok(())
}

/// The JSON of a finished review.
fn review_json(request: &ReviewRequest, done: &Review) -> String {
    let record = &request.record;
    let mut pos = record.start.clone();
    let mut moves = Vec::new();
    for (i, m) in done.moves.iter().enumerate() {
        moves.push(move_json(i + 1, &pos, m, request.notation));
        pos = pos.play(m.mv);
    }
    let accuracy = |i: usize| done.accuracy[i].map_or("null".to_string(), |a| format!("{a:.1}"));
    let counts = |i: usize| {
        let c = done.counts[i];
        format!("[{},{},{}]", c[0], c[1], c[2])
    };
    let annotated = review::annotate(record, done, request.notation);
    let pgn = record::write(&[annotated], Format::Pgn, request.notation);
    format!(
        "{{\"ok\":true,\"complete\":{},\"nodes\":{},\"moves\":[{}],\"accuracy\":{{\"red\":{},\"black\":{}}},\"counts\":{{\"red\":{},\"black\":{}}},\"summary\":{},\"pgn\":{}}}",
        done.complete,
        done.nodes,
        moves.join(","),
        accuracy(0),
        accuracy(1),
        counts(0),
        counts(1),
        json(&done.summary()),
        json(&String::from_utf8_lossy(&pgn))
    )
}

/// One move of the review's JSON.
fn move_json(ply: usize, pos: &Position, m: &MoveReview, notation: Notation) -> String {
    let eval = match Eval::from_red(m.after) {
        Eval::Cp(cp) => cp.to_string(),
        mate => json(&mate.to_string()),
    };
    let pv: Vec<String> = m.pv.iter().map(|mv| json(&mv.to_string())).collect();
    let judgement = m.judgement.map_or("null".to_string(), |j| json(j.name()));
    format!(
        "{{\"ply\":{ply},\"move\":{},\"text\":{},\"eval\":{eval},\"best\":{},\"pv\":[{}],\"line\":{},\"loss\":{:.4},\"accuracy\":{:.1},\"judgement\":{judgement}}}",
        json(&m.mv.to_string()),
        json(&pos.move_text(m.mv, notation)),
        json(&m.best.to_string()),
        pv.join(","),
        json(&review::line_text(pos, &m.pv, notation)),
        m.loss,
        m.accuracy
    )
}
