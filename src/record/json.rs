//! The page's questions about notation and records, answered as JSON: the move list and the
//! engine's lines in a notation (`notate`), a move typed in any notation (`read_move`), a
//! record opened or pasted (`read_record`), a game saved as PGN (`write_pgn`).
//!
//! The browser's modules (`src/web/`) export each as a function of the exchange buffer; the
//! functions live here, compiled everywhere, so that native unit tests hold what the page
//! gets. Each takes the request as text or bytes and always answers: `{"ok":true,…}`, or
//! `{"ok":false,"error":…}` with one message naming what is wrong. Nothing a request holds
//! reaches a panic. A game is given as `position`'s arguments (`startpos moves h2e2`,
//! `fen … moves …`, the moves in ICCS), as the page tells the engine.

use super::{pgn, text, Record};
use crate::board::rules::Outcome;
use crate::board::{
    Color, FenError, Game, GameError, MoveError, Notation, NotationError, Position, START_FEN,
};
use crate::protocol::command::{self, Command, CommandError};
use std::fmt::Write;

/// Why a game given as `position`'s arguments could not be set up.
#[derive(Debug, thiserror::Error)]
pub enum SpecError {
    /// The words are not `position`'s arguments.
    #[error("{0}")]
    Command(#[from] CommandError),
    /// The FEN is not a legal position.
    #[error("{0}")]
    Fen(#[from] FenError),
    /// A move is not legal where it stands.
    #[error("{0}")]
    Game(#[from] GameError),
}

/// The game `spec` (`position`'s arguments) gives.
pub fn spec_game(spec: &str) -> Result<Game, SpecError> {
    let p = match command::parse(&format!("position {spec}"))? {
        Command::Position(p) => p,
        // "position …" parses as a position or not at all.
        _ => return Err(CommandError::Invalid("position", command::echo(spec)).into()),
    };
    let start = match &p.fen {
        None => Position::startpos(),
        Some(f) => f.parse::<Position>()?,
    };
    Ok(Game::from_moves(start, &p.moves)?)
}

/// Why a request was refused; `Display` is the answer's `error`.
#[derive(Debug, thiserror::Error)]
enum RequestError {
    /// The game could not be set up.
    #[error("{0}")]
    Spec(#[from] SpecError),
    /// An unknown notation.
    #[error("{0}")]
    Notation(#[from] NotationError),
    /// A typed move that names no legal move.
    #[error("{0}")]
    Move(#[from] MoveError),
    /// A request without its parts.
    #[error("{0}")]
    Form(&'static str),
    /// An option line of `write_pgn` that is not one (its first 40 characters).
    #[error("bad option line: {0}")]
    Option(String),
    /// A comment's ply outside the game.
    #[error("comment on ply {0}: the game has {1} plies")]
    Ply(usize, usize),
    /// A bare FEN line that is not a position.
    #[error("unreadable FEN: {0}")]
    BareFen(FenError),
    /// The record's first game could not be read.
    #[error("{0}")]
    Record(#[from] super::RecordError),
    /// A record with no game in it.
    #[error("no game in the record")]
    NoGame,
}

/// `s` as a JSON string.
pub fn string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A JSON array of strings.
fn strings<S: AsRef<str>>(items: impl IntoIterator<Item = S>) -> String {
    let items: Vec<String> = items.into_iter().map(|s| string(s.as_ref())).collect();
    format!("[{}]", items.join(","))
}

/// The answer for `done`: its fields after `"ok":true`, or its error.
fn answer(done: Result<String, RequestError>) -> String {
    match done {
        Ok(fields) => format!("{{\"ok\":true,{fields}}}"),
        Err(e) => format!("{{\"ok\":false,\"error\":{}}}", string(&e.to_string())),
    }
}

/// `NOTATION SPEC` (`chinese startpos moves h2e2 h9g7`): each move of the game in the notation
/// (`iccs`, `wxf`, `chinese`), written in its own position, so that WXF's and Chinese's
/// "front" and "rear" are right. `{"ok":true,"texts":["炮二平五","马８进７"]}`. For the move
/// list, and for the engine's lines: the game's moves, then the line's.
pub fn notate(request: &str) -> String {
    answer(notate_fields(request))
}

fn notate_fields(request: &str) -> Result<String, RequestError> {
    let request = request.trim_start();
    let (name, spec) = request
        .split_once(char::is_whitespace)
        .unwrap_or((request, ""));
    let notation: Notation = name.parse()?;
    let game = spec_game(spec)?;
    let texts = game_texts(&game, notation);
    Ok(format!("\"texts\":{}", strings(texts)))
}

/// The text of each move of `game` in `notation`.
fn game_texts(game: &Game, notation: Notation) -> Vec<String> {
    let mut pos = game.start().clone();
    let mut texts = Vec::with_capacity(game.moves().len());
    for &m in game.moves() {
        texts.push(pos.move_text(m, notation));
        pos = pos.play(m);
    }
    texts
}

/// `SPEC` a line, then a move typed in ICCS (`h2e2`), WXF (`C2=5`, full-width `Ｃ２＝５` too)
/// or Chinese (炮二平五, 砲二平五, 炮２平５) in the game's last position:
/// `{"ok":true,"move":"h2e2"}`, or an error saying why it names no move (unreadable, no legal
/// move is …, ambiguous, illegal).
pub fn read_move(request: &str) -> String {
    answer(read_move_fields(request))
}

fn read_move_fields(request: &str) -> Result<String, RequestError> {
    let (spec, typed) = request.split_once('\n').ok_or(RequestError::Form(
        "no line break between the game and the move",
    ))?;
    let game = spec_game(spec.trim())?;
    let typed = typed.trim();
    if typed.is_empty() {
        return Err(RequestError::Form("no move typed"));
    }
    let m = game.position().read_move(typed)?;
    Ok(format!("\"move\":{}", string(&m.to_string())))
}

/// The first game of a record's bytes: PGN with moves in any notation (UTF-8, GBK, Big5),
/// XQF, DhtmlXQ (a saved page too), or a bare FEN line (a game of no moves).
/// `{"ok":true,"count":N,"start":FEN|null,"moves":["h2e2",…],"comments":[null|"…",…],
/// "comment":null|"…","tags":{"Red":…,…},"result":"1-0"|"0-1"|"1/2-1/2"|"*"}`: `count` the
/// games the record holds, `start` `null` for the start position, `moves` the main line in
/// ICCS (variations are left out), `comments` the comment after each of them, `comment` the
/// one before the first. A record whose first game cannot be read is refused with the game's
/// error (`game 1, ply 7: illegal move h0h8`).
pub fn read_record(bytes: &[u8]) -> String {
    answer(read_record_fields(bytes))
}

fn read_record_fields(bytes: &[u8]) -> Result<String, RequestError> {
    if let Some(fen) = bare_fen(bytes) {
        let start = fen.parse::<Position>().map_err(RequestError::BareFen)?;
        return Ok(record_fields(&Record::new(start), 1));
    }
    let games = super::read(bytes);
    let count = games.len();
    match games.into_iter().next() {
        None => Err(RequestError::NoGame),
        Some(Err(e)) => Err(e.into()),
        Some(Ok(r)) => Ok(record_fields(&r, count)),
    }
}

/// The FEN of a record that is one line of text holding a FEN (`fen ` before it allowed): a
/// board of ranks parted by `/`, with no PGN tag.
fn bare_fen(bytes: &[u8]) -> Option<String> {
    if super::Format::detect(bytes) != super::Format::Pgn {
        return None;
    }
    let text = text::decode(bytes);
    let line = text.trim();
    let line = line.strip_prefix("fen ").unwrap_or(line).trim();
    let board = line.split_whitespace().next()?;
    let looks = !line.contains(['\n', '[']) && board.matches('/').count() >= 2;
    looks.then(|| line.to_string())
}

/// The fields of `read_record`'s answer for `r`, one of `count` games.
fn record_fields(r: &Record, count: usize) -> String {
    let fen = r.start.to_string();
    let start = if fen == START_FEN {
        "null".to_string()
    } else {
        string(&fen)
    };
    let moves = strings(r.mainline().map(|m| m.to_string()));
    let comments: Vec<String> = r
        .moves
        .iter()
        .map(|n| n.comment.as_deref().map_or("null".to_string(), string))
        .collect();
    let mut tags = Vec::new();
    for (i, (k, v)) in r.tags.iter().enumerate() {
        // A tag given twice: the first, as `Record::tag` reads it.
        if r.tags[..i].iter().all(|(seen, _)| seen != k) {
            tags.push(format!("{}:{}", string(k), string(v)));
        }
    }
    let comment = r.comment.as_deref().map_or("null".to_string(), string);
    format!(
        "\"count\":{count},\"start\":{start},\"moves\":{moves},\"comments\":[{}],\"comment\":{comment},\"tags\":{{{}}},\"result\":{}",
        comments.join(","),
        tags.join(","),
        string(r.result())
    )
}

/// A game as PGN. The request: option lines, an empty line, then the game as `position`'s
/// arguments. Options, each on its own line, all optional: `notation iccs|wxf|chinese` (of
/// the moves; default chinese), `tag NAME VALUE` (in order, repeated), `comment PLY TEXT`
/// (after the move of that ply, from 1; one line). Without a `Result` tag the game's outcome
/// sets it (`*` while it goes on). `{"ok":true,"pgn":"[Event …"}`.
pub fn write_pgn(request: &[u8]) -> String {
    answer(write_pgn_fields(request))
}

fn write_pgn_fields(request: &[u8]) -> Result<String, RequestError> {
    let request = String::from_utf8_lossy(request);
    let (options, spec) =
        split_options(&request).ok_or(RequestError::Form("no empty line after the options"))?;
    let game = spec_game(spec.trim())?;
    let mut record = Record::from_game(&game);
    let mut notation = Notation::Chinese;
    for line in options.lines().map(str::trim).filter(|l| !l.is_empty()) {
        pgn_option(&mut record, &mut notation, line)?;
    }
    if record.tag("Result").is_none() {
        record.set_tag("Result", outcome_result(&game));
    }
    let pgn = pgn::write(&record, notation);
    Ok(format!("\"pgn\":{}", string(&pgn)))
}

/// Applies one option line of a `write_pgn` request.
fn pgn_option(
    record: &mut Record,
    notation: &mut Notation,
    line: &str,
) -> Result<(), RequestError> {
    let bad = || RequestError::Option(line.chars().take(40).collect());
    let (name, rest) = line.split_once(' ').unwrap_or((line, ""));
    let (first, value) = rest.trim().split_once(' ').unwrap_or((rest.trim(), ""));
    match name {
        "notation" => *notation = rest.parse()?,
        "tag" => {
            // A PGN tag's name is a symbol: letters, digits and `_`.
            let symbol = first.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
            if first.is_empty() || !symbol {
                return Err(bad());
            }
            record.set_tag(first, value.trim());
        }
        "comment" => {
            let ply: usize = first.parse().map_err(|_| bad())?;
            let plies = record.moves.len();
            let node = ply
                .checked_sub(1)
                .and_then(|i| record.moves.get_mut(i))
                .ok_or(RequestError::Ply(ply, plies))?;
            node.comment = Some(value.trim().to_string()).filter(|t| !t.is_empty());
        }
        _ => return Err(bad()),
    }
    Ok(())
}

/// A request's option lines and the rest: the text before and after its first blank line.
fn split_options(text: &str) -> Option<(&str, &str)> {
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        if line.ends_with('\n') && line.trim().is_empty() {
            return Some((&text[..at], &text[at + line.len()..]));
        }
        at += line.len();
    }
    None
}

/// The result the rules give the game: `1-0`, `0-1`, `1/2-1/2`, or `*` while it goes on.
pub fn outcome_result(game: &Game) -> &'static str {
    match game.outcome(usize::MAX) {
        None => "*",
        Some(Outcome::Win(Color::Red, _)) => "1-0",
        Some(Outcome::Win(Color::Black, _)) => "0-1",
        Some(Outcome::Draw(_)) => "1/2-1/2",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The start position's FEN.
    const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

    #[test]
    fn notate_writes_each_move_in_its_own_position() {
        assert_eq!(
            notate("chinese startpos moves h2e2 h9g7 h0g2"),
            r#"{"ok":true,"texts":["炮二平五","马８进７","马二进三"]}"#
        );
        assert_eq!(
            notate("wxf startpos moves h2e2 h9g7"),
            r#"{"ok":true,"texts":["C2=5","H8+7"]}"#
        );
        assert_eq!(notate("iccs startpos"), r#"{"ok":true,"texts":[]}"#);
        // Two red rooks on one file: "front" and "rear", as the position says.
        let fen = "3k5/9/9/9/9/4R4/9/4R4/9/5K3 w - - 0 1";
        assert_eq!(
            notate(&format!("wxf fen {fen} moves e4f4 d9d8 e2f2")),
            r#"{"ok":true,"texts":["R+=4","K4+1","R5=4"]}"#
        );
        assert_eq!(
            notate("klingon startpos"),
            r#"{"ok":false,"error":"unknown notation 'klingon' (iccs, wxf or chinese)"}"#
        );
        assert_eq!(
            notate("chinese startpos moves h2e2 h2e2"),
            r#"{"ok":false,"error":"illegal move h2e2 at ply 2"}"#
        );
        assert!(notate("").starts_with(r#"{"ok":false,"error":"unknown notation"#));
    }

    #[test]
    fn read_move_takes_every_notation() {
        for typed in [
            "h2e2",
            "C2=5",
            "Ｃ２＝５",
            "炮二平五",
            "砲二平五",
            "炮２平５",
        ] {
            assert_eq!(
                read_move(&format!("startpos\n{typed}")),
                r#"{"ok":true,"move":"h2e2"}"#,
                "{typed}"
            );
        }
        assert_eq!(
            read_move("startpos moves h2e2\n马８进７"),
            r#"{"ok":true,"move":"h9g7"}"#
        );
        assert_eq!(
            read_move("startpos\n炮二进九"),
            r#"{"ok":false,"error":"no legal move is 炮二进九"}"#
        );
        assert_eq!(
            read_move("startpos\nh2h8"),
            r#"{"ok":false,"error":"illegal move h2h8"}"#
        );
        assert!(read_move("startpos\nhello").contains("unreadable move"));
        assert!(read_move("startpos\n  ").contains("no move typed"));
        assert!(read_move("startpos").contains("no line break"));
        assert!(read_move("fen x\nh2e2").starts_with(r#"{"ok":false"#));
    }

    #[test]
    fn read_record_gives_the_first_game() {
        let pgn = "[Event \"Test\"]\n[Red \"胡荣华\"]\n[Result \"1-0\"]\n\n\
            {开局} 1. 炮二平五 马８进７ {跳马} 2. 马二进三 (2. 兵七进一) 车９平８ 1-0\n\n\
            [Event \"Two\"]\n\n1. h2e2 *\n";
        assert_eq!(
            read_record(pgn.as_bytes()),
            r#"{"ok":true,"count":2,"start":null,"moves":["h2e2","h9g7","h0g2","i9h9"],"comments":[null,"跳马",null,null],"comment":"开局","tags":{"Event":"Test","Red":"胡荣华","Result":"1-0"},"result":"1-0"}"#
        );
        let fen = "3k5/9/9/9/9/4R4/9/4R4/9/5K3 w - - 0 1";
        let bare = read_record(format!("  {fen}\n").as_bytes());
        assert!(
            bare.contains(&format!(r#""start":"{fen}","moves":[]"#)),
            "{bare}"
        );
        assert!(read_record(START.as_bytes()).contains(r#""start":null"#));
        assert_eq!(
            read_record(b"4k4/9/9 w"),
            r#"{"ok":false,"error":"unreadable FEN: FEN has 3 ranks, expected 10"}"#
        );
        assert_eq!(
            read_record(b"1. h2e2 h9g7 2. h2h9 *"),
            r#"{"ok":false,"error":"game 1, ply 3: illegal move h2h9"}"#
        );
        assert_eq!(
            read_record(b" \n "),
            r#"{"ok":false,"error":"no game in the record"}"#
        );
    }

    #[test]
    fn write_pgn_reads_back_to_the_same_game() {
        let spec = "startpos moves h2e2 h9g7 h0g2 i9h9";
        let request = format!(
            "notation chinese\ntag Event Club match\ntag Red 胡荣华\ncomment 2 马跳正\n\n{spec}"
        );
        let answer = write_pgn(request.as_bytes());
        assert!(answer.starts_with(r#"{"ok":true,"pgn":"[Event \"Club match\"]\n[Red \"胡荣华\"]\n[Result \"*\"]\n\n1. 炮二平五 马８进７ {马跳正}"#), "{answer}");
        let pgn = pgn::write(&Record::from_game(&spec_game(spec).unwrap()), Notation::Wxf);
        let back = read_record(pgn.as_bytes());
        assert!(
            back.contains(r#""moves":["h2e2","h9g7","h0g2","i9h9"]"#),
            "{back}"
        );
        // A finished game: its result; an explicit Result wins.
        let mate = "fen 3k5/R8/9/9/9/9/9/9/9/1R3K3 w - - 0 1 moves b0b9";
        assert!(write_pgn(format!("\n{mate}").as_bytes()).contains(r#"[Result \"1-0\"]"#));
        let given = write_pgn(format!("tag Result 0-1\n\n{mate}").as_bytes());
        assert!(given.contains(r#"[Result \"0-1\"]"#) && given.contains("0-1\\n\\n\"}"));
        for (bad, error) in [
            ("startpos", "no empty line after the options"),
            ("colour red\n\nstartpos", "bad option line: colour red"),
            ("tag\n\nstartpos", "bad option line: tag"),
            ("tag \"x\n\nstartpos", "bad option line"),
            (
                "comment 3 x\n\nstartpos moves h2e2",
                "comment on ply 3: the game has 1 plies",
            ),
            ("comment 0 x\n\nstartpos moves h2e2", "comment on ply 0"),
            ("notation abc\n\nstartpos", "unknown notation"),
            ("\nstartpos moves h2h8", "illegal move h2h8 at ply 1"),
        ] {
            let answer = write_pgn(bad.as_bytes());
            assert!(
                answer.starts_with(r#"{"ok":false,"error":""#) && answer.contains(error),
                "{bad:?}: {answer}"
            );
        }
    }

    #[test]
    fn strings_are_escaped() {
        assert_eq!(string("a\"b\\c\nd\u{1}\t"), r#""a\"b\\c\nd\u0001\t""#);
    }
}
