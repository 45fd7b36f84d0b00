//! XQF, XQStudio's binary game format: one game per file, a 1024-byte header (tags, the 32
//! pieces' start points, the result) and then the move tree, its records in pre-order.
//!
//! Read: version 1.0 (version byte 10 or less, nothing scrambled) and the keyed versions after
//! it (1.1 to 1.8 as XQStudio writes them), whose piece points, move records and comment
//! lengths are scrambled by keys the header carries. The start position is built as a FEN and
//! validated; the side to move is the colour of the piece the first move moves (the header's
//! who-moves byte when there is no move). Every move is checked, variations too. XQStudio
//! makes a keyed file's four key bytes sum to 0 (mod 256): a keyed file that fails this and
//! does not decode (no legal position, an illegal move, data cut short) has bad keys
//! (`Reason::BadKey`); with sound keys the fault itself is reported. The header's text and the
//! comments are decoded together, GBK or Big5 as `text::legacy` chooses for the whole file.
//!
//! Written: version 1.0, keys all zero, which XQStudio and every other reader take. Tags XQF
//! has no field for are left out, as are marks (NAGs) and the start's move number (a game
//! reads back from move 1); text is GBK (`?` for a character GBK lacks), cut to its field's
//! size at a character's end.

use super::{text, Node, Reason, Record};
use crate::board::fen::placement;
use crate::board::{Color, Move, MoveError, Piece, PieceKind, Position, Square, START_FEN};

/// The header's size: the move tree starts here.
const HEADER: usize = 0x400;

/// The kind of the piece in each of a side's 16 slots.
const SLOTS: [PieceKind; 16] = super::PIECE_SLOTS;

/// The header's text fields: the tag each is read into, the offset of its length byte (the
/// text follows it), and its capacity in bytes.
const FIELDS: [(&str, usize, usize); 11] = [
    ("Title", 0x50, 63),
    ("Event", 0xD0, 63),
    ("Date", 0x110, 15),
    ("Site", 0x120, 15),
    ("Red", 0x130, 15),
    ("Black", 0x140, 15),
    ("TimeControl", 0x150, 63),
    ("RedTime", 0x190, 15),
    ("BlackTime", 0x1A0, 15),
    ("Annotator", 0x1D0, 15),
    ("Author", 0x1E0, 15),
];

/// Header offsets of the single fields.
const VERSION: usize = 2;
const PIECES: usize = 0x10;
const WHO_PLAYS: usize = 0x32;
const RESULT: usize = 0x33;
const TYPE: usize = 0x40;

/// The text every keyed file's stream key is masked with.
const STREAM_MASK: &[u8; 32] = b"[(C) Copyright Mr. Dong Shiwei.]";

/// Variations nested deeper than this are refused (no real record comes near it).
const MAX_NESTING: usize = 100;

/// Whether the bytes begin as an XQF file does (`XQ`).
pub fn is_xqf(bytes: &[u8]) -> bool {
    bytes.starts_with(b"XQ")
}

/// The keys of a keyed file (all zero for version 1.0).
struct Keys {
    /// Subtracted from every piece point; also turns the slots of version 1.2 and later.
    piece: u8,
    /// Subtracted from a move's from-point.
    from: u8,
    /// Subtracted from a move's to-point.
    to: u8,
    /// Subtracted from a comment's length.
    comment: i32,
    /// Subtracted from each byte of the move tree, by its offset modulo 32.
    stream: [u8; 32],
}

impl Keys {
    /// The keys of an unkeyed file.
    fn none() -> Keys {
        Keys {
            piece: 0,
            from: 0,
            to: 0,
            comment: 0,
            stream: [0; 32],
        }
    }

    /// The keys that header bytes 3–15 give.
    fn from_header(h: &[u8; 16]) -> Keys {
        // Each key byte k turns into (54k² + 221) times the key before it, modulo 256.
        fn step(k: u8, before: u8) -> u8 {
            let k = u32::from(k);
            ((k * k * 54 + 221).wrapping_mul(u32::from(before)) & 0xFF) as u8
        }
        let (mask, sum, xy, xyf, xyt) = (h[3], h[12], h[13], h[14], h[15]);
        let piece = step(xy, xy);
        let from = step(xyf, piece);
        let to = step(xyt, from);
        let comment = (i32::from(sum) * 256 + i32::from(xy)) % 32000 + 767;
        let mut stream = [0u8; 32];
        for (i, s) in stream.iter_mut().enumerate() {
            *s = (h[8 + i % 4] | (h[12 + i % 4] & mask)) & STREAM_MASK[i];
        }
        Keys {
            piece,
            from,
            to,
            comment,
            stream,
        }
    }
}

/// One record of the move tree as stored, its links resolved.
struct Raw {
    /// The from- and to-points (`file * 10 + rank`), keys removed.
    from: u8,
    to: u8,
    /// The comment's bytes, up to a NUL (GBK or Big5, decoded with the file's other text).
    comment: Vec<u8>,
    /// The record after this move in its line.
    next: Option<usize>,
    /// The next alternative to this move.
    sibling: Option<usize>,
}

/// Reads the records of the move tree, undoing the stream key.
struct Reader<'a> {
    data: &'a [u8],
    at: usize,
    keys: &'a Keys,
    keyed: bool,
}

impl Reader<'_> {
    /// The next `n` bytes, descrambled.
    fn take(&mut self, n: usize) -> Result<Vec<u8>, Reason> {
        let end = self.at.checked_add(n).ok_or(Reason::Truncated)?;
        let bytes = self.data.get(self.at..end).ok_or(Reason::Truncated)?;
        let out = bytes
            .iter()
            .enumerate()
            .map(|(i, &b)| b.wrapping_sub(self.keys.stream[(self.at + i) % 32]))
            .collect();
        self.at = end;
        Ok(out)
    }

    fn int(&mut self) -> Result<i32, Reason> {
        let b = self.take(4)?;
        Ok(i32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    /// One record: the move's points, whether a next move and an alternative follow, and the
    /// comment.
    fn record(&mut self) -> Result<(Raw, bool, bool), Reason> {
        let b = self.take(4)?;
        let (flags, length) = if self.keyed {
            let length = if b[2] & 0x20 != 0 {
                self.int()?.wrapping_sub(self.keys.comment)
            } else {
                0
            };
            (b[2] & 0xE0, length)
        } else {
            (b[2], self.int()?)
        };
        let (next, sibling) = if self.keyed {
            (flags & 0x80 != 0, flags & 0x40 != 0)
        } else {
            (flags & 0xF0 != 0, flags & 0x0F != 0)
        };
        // A length below zero is no comment, as XQStudio reads it.
        let comment = match usize::try_from(length) {
            Ok(n) if n > 0 => {
                let mut bytes = self.take(n)?;
                bytes.truncate(bytes.iter().position(|&c| c == 0).unwrap_or(n));
                bytes
            }
            _ => Vec::new(),
        };
        let raw = Raw {
            from: b[0].wrapping_sub(0x18).wrapping_sub(self.keys.from),
            to: b[1].wrapping_sub(0x20).wrapping_sub(self.keys.to),
            comment,
            next: None,
            sibling: None,
        };
        Ok((raw, next, sibling))
    }

    /// The root record and every record after it, linked. The root (index 0) holds the
    /// game's comment; its `next` is the first move.
    fn tree(&mut self) -> Result<Vec<Raw>, Reason> {
        /// Where a record read next is linked.
        enum Slot {
            Next(usize),
            Sibling(usize),
        }
        let (root, next, _) = self.record()?;
        let mut recs = vec![root];
        let mut due = Vec::new();
        if next {
            due.push(Slot::Next(0));
        }
        // Every record takes at least four bytes: this ends within the data's length.
        while let Some(slot) = due.pop() {
            let (raw, next, sibling) = self.record()?;
            let i = recs.len();
            recs.push(raw);
            match slot {
                Slot::Next(p) => recs[p].next = Some(i),
                Slot::Sibling(p) => recs[p].sibling = Some(i),
            }
            // The move's continuation comes before its alternatives: push it last.
            if sibling {
                due.push(Slot::Sibling(i));
            }
            if next {
                due.push(Slot::Next(i));
            }
        }
        Ok(recs)
    }
}

/// The square of an XQF point (`file * 10 + rank`), if it is on the board.
fn square(point: u8) -> Option<Square> {
    if point < 90 {
        Square::new(point / 10, point % 10)
    } else {
        None
    }
}

/// The XQF point of a square.
fn point(sq: Square) -> u8 {
    sq.file() * 10 + sq.rank()
}

/// Builds the lines of the tree, checking every move.
struct Lines<'a> {
    recs: &'a [Raw],
    /// Each record's comment, decoded.
    comments: &'a [Option<String>],
}

impl Lines<'_> {
    /// The line that starts with record `first` at ply `ply` from `pos`. The alternatives to
    /// its first move become that move's variations when `own_siblings` (the main line); a
    /// variation's own first move leaves them to the caller.
    fn line(
        &self,
        first: usize,
        pos: &Position,
        ply: usize,
        own_siblings: bool,
        depth: usize,
    ) -> Result<Vec<Node>, (usize, Reason)> {
        if depth > MAX_NESTING {
            return Err((
                ply,
                Reason::Malformed(format!("variations nested deeper than {MAX_NESTING}")),
            ));
        }
        let mut out = Vec::new();
        let mut pos = pos.clone();
        let mut ply = ply;
        let mut cur = Some(first);
        let mut siblings = own_siblings;
        while let Some(rec) = cur.and_then(|i| self.recs.get(i)) {
            let mv = legal(&pos, rec).map_err(|e| (ply, Reason::Move(e)))?;
            let mut node = Node::new(mv);
            node.comment = cur.and_then(|i| self.comments.get(i)).cloned().flatten();
            if siblings {
                let mut alt = rec.sibling;
                while let Some(j) = alt {
                    node.variations
                        .push(self.line(j, &pos, ply, false, depth + 1)?);
                    alt = self.recs.get(j).and_then(|r| r.sibling);
                }
            }
            siblings = true;
            out.push(node);
            pos = pos.play(mv);
            ply += 1;
            cur = rec.next;
        }
        Ok(out)
    }
}

/// The record's move, if it is legal in `pos`.
fn legal(pos: &Position, rec: &Raw) -> Result<Move, MoveError> {
    match (square(rec.from), square(rec.to)) {
        (Some(from), Some(to)) => {
            let mv = Move::new(from, to);
            if pos.is_legal(mv) {
                Ok(mv)
            } else {
                Err(MoveError::Illegal(mv.to_string()))
            }
        }
        _ => Err(MoveError::Syntax(format!(
            "xqf points {}-{}",
            rec.from, rec.to
        ))),
    }
}

/// The bytes of a text field of the header, up to a NUL.
fn field(h: &[u8], at: usize, cap: usize) -> &[u8] {
    let len = h.get(at).map_or(0, |&n| usize::from(n).min(cap));
    let bytes = h.get(at + 1..at + 1 + len).unwrap_or_default();
    let end = bytes.iter().position(|&c| c == 0).unwrap_or(bytes.len());
    &bytes[..end]
}

/// `bytes` without a last character cut short (a field full to its size may end in half a
/// character). In GBK (GB18030) and Big5 alike a byte from 0x81 leads a character of two
/// bytes, or of four when the second is a digit (GB18030).
fn whole_chars(bytes: &[u8]) -> &[u8] {
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        let len = match (b, bytes.get(i + 1)) {
            (0..=0x80, _) => 1,
            (_, Some(b'0'..=b'9')) => 4,
            _ => 2,
        };
        if i + len > bytes.len() {
            return &bytes[..i];
        }
        i += len;
    }
    bytes
}

/// The pieces of text of one file, decoded together: one encoding (GBK or Big5, as
/// `text::legacy` chooses for the whole) for all, since short names alone are easily taken
/// for the other.
fn decode_all(pieces: &[&[u8]]) -> Vec<String> {
    // No piece holds a NUL, and a NUL is never part of a GBK or Big5 character.
    let whole: Vec<&[u8]> = pieces.iter().map(|p| whole_chars(p)).collect();
    let text = text::legacy(&whole.join(&0u8));
    let parts: Vec<String> = text.split('\0').map(str::to_string).collect();
    if parts.len() == pieces.len() {
        parts
    } else {
        whole.iter().map(|p| text::legacy(p).into_owned()).collect()
    }
}

/// The game of an XQF file, or the ply that failed (if a move did) and why.
pub fn read(bytes: &[u8]) -> Result<Record, (Option<usize>, Reason)> {
    if !is_xqf(bytes) {
        return Err((None, Reason::Malformed("not an XQF file (no XQ)".into())));
    }
    let h = bytes.get(..HEADER).ok_or((None, Reason::Truncated))?;
    let version = h[VERSION];
    let keyed = version > 10;
    let keys = if keyed {
        let mut k = [0u8; 16];
        k.copy_from_slice(&h[..16]);
        Keys::from_header(&k)
    } else {
        Keys::none()
    };
    // XQStudio makes the four key bytes sum to 0 (mod 256): a file that fails this and then
    // does not decode was spoilt in its keys.
    let key_sum = h[12..16].iter().fold(0u8, |a, &b| a.wrapping_add(b));
    let bad_keys = keyed && key_sum != 0;
    let bad = |r: Reason| if bad_keys { Reason::BadKey } else { r };

    // The 32 pieces' points; from 1.2 on, stored point j is slot (key + 1 + j) mod 32's.
    let mut board: [Option<Piece>; 90] = [None; 90];
    for i in 0..32 {
        let stored = if version >= 12 {
            (i + 64 - 1 - usize::from(keys.piece) % 32) % 32
        } else {
            i
        };
        let p = h[PIECES + stored].wrapping_sub(keys.piece);
        let Some(sq) = square(p) else { continue };
        let color = if i < 16 { Color::Red } else { Color::Black };
        let piece = Piece::new(color, SLOTS[i % 16]);
        let spot = &mut board[sq.index()];
        if spot.is_some() {
            return Err((None, bad(Reason::Malformed(format!("two pieces on {sq}")))));
        }
        *spot = Some(piece);
    }

    let mut reader = Reader {
        data: bytes,
        at: HEADER,
        keys: &keys,
        keyed,
    };
    let recs = reader.tree().map_err(|r| (None, bad(r)))?;
    let first = recs.first().and_then(|r| r.next);

    // The side to move: the colour of the first move's piece, else the header's.
    let mover = first
        .and_then(|i| recs.get(i))
        .and_then(|r| square(r.from))
        .and_then(|sq| board[sq.index()])
        .map(|p| p.color());
    let side = mover.unwrap_or(if h[WHO_PLAYS] == 1 {
        Color::Black
    } else {
        Color::Red
    });
    let placing = placement(|sq| board[sq.index()]);
    let fen = |side: Color| {
        let s = if side == Color::Red { 'w' } else { 'b' };
        format!("{placing} {s}").parse::<Position>()
    };
    let start = match fen(side) {
        // With no move to tell, the header's side may be the wrong one.
        Err(crate::board::FenError::OpponentInCheck) if mover.is_none() => fen(!side),
        other => other,
    }
    .map_err(|e| (None, bad(Reason::Fen(e))))?;

    let mut pieces: Vec<&[u8]> = FIELDS
        .iter()
        .map(|&(_, at, cap)| field(h, at, cap))
        .collect();
    pieces.extend(recs.iter().map(|r| r.comment.as_slice()));
    let mut texts = decode_all(&pieces).into_iter();
    let values: Vec<String> = texts.by_ref().take(FIELDS.len()).collect();
    let comments: Vec<Option<String>> = texts.map(|t| (!t.is_empty()).then_some(t)).collect();

    let moves = match first {
        None => Vec::new(),
        Some(i) => Lines {
            recs: &recs,
            comments: &comments,
        }
        .line(i, &start, 1, true, 0)
        .map_err(|(ply, r)| (Some(ply), bad(r)))?,
    };

    let mut r = Record::new(start);
    r.comment = comments.first().cloned().flatten();
    for ((tag, _, _), v) in FIELDS.iter().zip(&values) {
        let v = v.trim();
        if !v.is_empty() {
            r.tags.push((tag.to_string(), v.to_string()));
        }
        if *tag == "Black" {
            let result = match h[RESULT] {
                1 => Some("1-0"),
                2 => Some("0-1"),
                3 | 4 => Some("1/2-1/2"),
                _ => None,
            };
            if let Some(res) = result {
                r.tags.push(("Result".to_string(), res.to_string()));
            }
        }
    }
    r.moves = moves;
    Ok(r)
}

/// `text` as GBK, cut to at most `cap` bytes at a character's end; a character GBK lacks
/// becomes `?`.
fn gbk(text: &str, cap: usize) -> Vec<u8> {
    let mut out = Vec::new();
    let mut buf = [0u8; 4];
    for c in text.chars() {
        let mut b = text::to_gbk(c.encode_utf8(&mut buf));
        // The encoder writes what it cannot encode as an HTML character reference.
        if c != '&' && b.starts_with(b"&#") {
            b = vec![b'?'];
        }
        if out.len() + b.len() > cap {
            break;
        }
        out.extend_from_slice(&b);
    }
    out
}

/// Appends one version 1.0 record: the move's points, its flags, its comment.
fn push_record(out: &mut Vec<u8>, from: u8, to: u8, next: bool, sibling: bool, comment: &str) {
    let flags = if next { 0xF0 } else { 0 } | if sibling { 0x0F } else { 0 };
    out.extend_from_slice(&[from + 0x18, to + 0x20, flags, 0]);
    let mut text = gbk(comment, usize::MAX);
    let len = i32::try_from(text.len()).unwrap_or(i32::MAX);
    text.truncate(usize::try_from(len).unwrap_or(0));
    out.extend_from_slice(&len.to_le_bytes());
    out.extend_from_slice(&text);
}

/// The alternatives in `line[0]`'s place, in order: the line itself, then each variation's
/// (a variation's first move may have variations of its own: they are alternatives too).
fn alternatives(line: &[Node]) -> Vec<&[Node]> {
    let mut out = Vec::new();
    let mut todo = vec![line];
    while let Some(l) = todo.pop() {
        let Some(first) = l.first() else { continue };
        out.push(l);
        todo.extend(first.variations.iter().rev().map(|v| v.as_slice()));
    }
    out
}

/// The record as an XQF 1.0 file.
pub fn write(r: &Record) -> Vec<u8> {
    let mut out = vec![0u8; HEADER];
    out[..2].copy_from_slice(b"XQ");
    out[VERSION] = 10;

    // Pieces go to their kind's slots in order of file, then rank: the start position comes
    // out as XQStudio lays it out.
    let mut slots = [0xFFu8; 32];
    for file in 0..9 {
        for rank in 0..10 {
            let Some(sq) = Square::new(file, rank) else {
                continue;
            };
            let Some(p) = r.start.piece_at(sq) else {
                continue;
            };
            let base = if p.color() == Color::Red { 0 } else { 16 };
            let free = (0..16).find(|&i| SLOTS[i] == p.kind() && slots[base + i] == 0xFF);
            if let Some(i) = free {
                slots[base + i] = point(sq);
            }
        }
    }
    out[PIECES..PIECES + 32].copy_from_slice(&slots);

    // The start's move number is not written: the field XQStudio may keep it in (0x30) is
    // 0 in every file seen, so what it would do with another value is not known.
    out[WHO_PLAYS] = u8::from(r.start.side_to_move() == Color::Black);
    out[RESULT] = match r.result() {
        "1-0" => 1,
        "0-1" => 2,
        "1/2-1/2" => 3,
        _ => 0,
    };
    // 0 a whole game from the start; otherwise a middle game or, with few pieces, an ending.
    let start_fen = START_FEN.split(' ').next().unwrap_or_default();
    let here = r.start.to_string();
    out[TYPE] = if here.split(' ').next() == Some(start_fen) {
        0
    } else if r.start.occupied().count() < 20 {
        3
    } else {
        2
    };
    for (tag, at, cap) in FIELDS {
        if let Some(v) = r.tag(tag) {
            let b = gbk(v, cap);
            out[at] = b.len() as u8;
            out[at + 1..at + 1 + b.len()].copy_from_slice(&b);
        }
    }

    // The root, then every move in pre-order: a move, its continuation, its alternatives.
    let top = alternatives(&r.moves);
    push_record(
        &mut out,
        0,
        0,
        !top.is_empty(),
        false,
        r.comment.as_deref().unwrap_or(""),
    );
    // XQStudio marks the root so.
    out[HEADER + 3] = 0xFF;
    // Each entry: the alternatives in one place and how many were written.
    let mut stack = vec![(top, 0usize)];
    while let Some((alts, done)) = stack.last_mut() {
        let Some(line) = alts.get(*done).copied() else {
            stack.pop();
            continue;
        };
        *done += 1;
        let sibling = *done < alts.len();
        let Some(node) = line.first() else { continue };
        let rest = alternatives(&line[1..]);
        push_record(
            &mut out,
            point(node.mv.from()),
            point(node.mv.to()),
            !rest.is_empty(),
            sibling,
            node.comment.as_deref().unwrap_or(""),
        );
        if !rest.is_empty() {
            stack.push((rest, 0));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use std::path::{Path, PathBuf};

    /// The nodes of `moves` (ICCS) from `pos`, each checked legal.
    fn line(pos: &Position, moves: &[&str]) -> Vec<Node> {
        let mut pos = pos.clone();
        moves
            .iter()
            .map(|t| {
                let m = pos.parse_move(t).unwrap_or_else(|e| panic!("{t}: {e}"));
                pos = pos.play(m);
                Node::new(m)
            })
            .collect()
    }

    /// The position after `moves` from the start position.
    fn after(moves: &[&str]) -> Position {
        line(&Position::startpos(), moves)
            .iter()
            .fold(Position::startpos(), |p, n| p.play(n.mv))
    }

    /// `pos` at move `fullmove`, its halfmove clock zero (XQF keeps no clock).
    fn at_move(pos: &Position, fullmove: u16) -> Position {
        let fen = pos.to_string();
        let fields: Vec<&str> = fen.split(' ').take(2).collect();
        format!("{} - - 0 {fullmove}", fields.join(" "))
            .parse()
            .unwrap()
    }

    /// A game from a position that is not the start, with every tag XQF holds, comments in
    /// Chinese, several variations in one place and a variation inside a variation.
    fn sample() -> Record {
        let start = at_move(&after(&["h2e2", "h9g7", "h0g2", "i9h9"]), 1);
        let mut r = Record::new(start.clone());
        for (k, v) in [
            ("Title", "中炮对屏风马"),
            ("Event", "全国象棋个人赛"),
            ("Date", "1987年5月"),
            ("Site", "广州"),
            ("Red", "胡荣华"),
            ("Black", "杨官璘"),
            ("Result", "1-0"),
            ("TimeControl", "90分钟"),
            ("RedTime", "45分"),
            ("BlackTime", "50分"),
            ("Annotator", "某评论员"),
            ("Author", "Chariot"),
        ] {
            r.set_tag(k, v);
        }
        r.comment = Some("开局评注\r\n第二行".into());
        let mut main = line(&start, &["i0h0", "b9c7", "b0c2", "a9b9", "a0b0"]);
        main[0].comment = Some("出车".into());
        main[4].comment = Some("end".into());
        let mut v1 = line(&start, &["b0c2", "b9c7"]);
        v1[1].comment = Some("变着一".into());
        let mut v2 = line(&start, &["e3e4", "c6c5", "b0c2"]);
        let in_v2 = after(&["h2e2", "h9g7", "h0g2", "i9h9", "e3e4"]);
        let mut nested = line(&in_v2, &["b9c7", "b0c2"]);
        nested[0].comment = Some("变中变".into());
        v2[1].variations.push(nested);
        main[0].variations = vec![v1, v2];
        let at3 = main.iter().take(2).fold(start.clone(), |p, n| p.play(n.mv));
        main[2].variations.push(line(&at3, &["g3g4"]));
        r.moves = main;
        r
    }

    #[test]
    fn writes_and_reads_back() {
        let mut r = sample();
        // A tag XQF has no field for is not kept.
        r.set_tag("Round", "3");
        let bytes = write(&r);
        assert!(is_xqf(&bytes));
        assert_eq!(bytes[VERSION], 10);
        let back = read(&bytes).unwrap();
        assert_eq!(back.start.to_string(), r.start.to_string());
        assert_eq!(back.comment, r.comment);
        assert_eq!(back.moves, r.moves);
        assert!(back.has_variations());
        let mut want: Vec<_> = r.tags.iter().filter(|(k, _)| k != "Round").collect();
        let mut got: Vec<_> = back.tags.iter().collect();
        want.sort();
        got.sort();
        assert_eq!(got, want);
        // What is read back writes the same bytes.
        assert_eq!(write(&back), bytes);
        // A variation's first move with variations of its own: in XQF they are all
        // alternatives in one place, and come back as the main move's.
        let mut nested = sample();
        let inner = nested.moves[0].variations.remove(1);
        nested.moves[0].variations[0][0].variations.push(inner);
        let back = read(&write(&nested)).unwrap();
        assert_eq!(back.moves, r.moves);
        // The move number is not kept: XQF games start at move 1.
        let mut later = sample();
        later.start = at_move(&later.start, 12);
        let back = read(&write(&later)).unwrap();
        assert_eq!(back.start.to_string(), r.start.to_string());
    }

    #[test]
    fn side_to_move_without_moves_and_long_names() {
        let start = at_move(&after(&["h2e2"]), 1);
        let mut r = Record::new(start.clone());
        // 20 characters, 40 bytes in GBK: the 15-byte field takes 7 of them.
        r.set_tag("Red", "一二三四五六七八九十一二三四五六七八九十");
        r.set_tag("Black", "abc");
        r.set_tag("Result", "*");
        let bytes = write(&r);
        let back = read(&bytes).unwrap();
        assert_eq!(back.start.to_string(), start.to_string());
        assert_eq!(back.red(), Some("一二三四五六七"));
        assert_eq!(back.black(), Some("abc"));
        assert_eq!(back.tag("Result"), None);
        assert!(back.moves.is_empty());
    }

    #[test]
    fn bad_files_are_errors() {
        let good = write(&sample());
        assert!(matches!(read(b"XQ"), Err((None, Reason::Truncated))));
        assert!(matches!(
            read(b"PK\x03\x04"),
            Err((None, Reason::Malformed(_)))
        ));
        assert!(matches!(
            read(&good[..good.len() - 3]),
            Err((None, Reason::Truncated))
        ));
        // The first move made illegal: the red rook i0 sent to i5 over its own pawn.
        let mut bad = good.clone();
        let first = HEADER + 8 + text::to_gbk("开局评注\r\n第二行").len();
        assert_eq!(bad[first], 8 * 10 + 0x18);
        bad[first + 1] = 8 * 10 + 5 + 0x20;
        let e = read(&bad).unwrap_err();
        assert_eq!(
            e,
            (Some(1), Reason::Move(MoveError::Illegal("i0i5".into())))
        );
        // No red king.
        let mut bad = good;
        bad[PIECES + 4] = 0xFF;
        assert!(matches!(read(&bad), Err((None, Reason::Fen(_)))));
    }

    /// A version 1.0 file re-encoded as a keyed version (the inverse of what `read` undoes),
    /// its key bytes from `seed`; then header byte `spoil` (a key) changed, if given.
    fn keyed(v10: &[u8], version: u8, seed: u64, spoil: Option<usize>) -> Vec<u8> {
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
        let mut out = v10.to_vec();
        out[VERSION] = version;
        out[3] = rng.random();
        for b in &mut out[8..12] {
            *b = rng.random();
        }
        let (xy, xyf, xyt): (u8, u8, u8) = (rng.random(), rng.random(), rng.random());
        let sum = 0u8.wrapping_sub(xy).wrapping_sub(xyf).wrapping_sub(xyt);
        out[12..16].copy_from_slice(&[sum, xy, xyf, xyt]);
        let mut h = [0u8; 16];
        h.copy_from_slice(&out[..16]);
        let keys = Keys::from_header(&h);
        for slot in 0..32 {
            let stored = if version >= 12 {
                (slot + 64 - 1 - usize::from(keys.piece) % 32) % 32
            } else {
                slot
            };
            out[PIECES + stored] = v10[PIECES + slot].wrapping_add(keys.piece);
        }
        out.truncate(HEADER);
        let mut at = HEADER;
        let mut plain = Vec::new();
        while at + 8 <= v10.len() {
            let b = &v10[at..at + 4];
            let len = i32::from_le_bytes(v10[at + 4..at + 8].try_into().unwrap());
            let n = usize::try_from(len).unwrap_or(0);
            let mut flags = rng.random::<u8>() & 0x1F;
            flags |= if b[2] & 0xF0 != 0 { 0x80 } else { 0 };
            flags |= if b[2] & 0x0F != 0 { 0x40 } else { 0 };
            flags |= if n > 0 { 0x20 } else { 0 };
            plain.extend_from_slice(&[
                b[0].wrapping_add(keys.from),
                b[1].wrapping_add(keys.to),
                flags,
                rng.random(),
            ]);
            if n > 0 {
                plain.extend_from_slice(&(len + keys.comment).to_le_bytes());
                plain.extend_from_slice(&v10[at + 8..at + 8 + n]);
            }
            at += 8 + n;
        }
        for (i, b) in plain.iter().enumerate() {
            out.push(b.wrapping_add(keys.stream[(HEADER + i) % 32]));
        }
        if let Some(i) = spoil {
            out[i] = out[i].wrapping_add(1);
        }
        out
    }

    #[test]
    fn reads_the_keyed_versions() {
        let r = sample();
        let v10 = write(&r);
        for (version, seed) in [
            (11, 1),
            (12, 2),
            (13, 3),
            (15, 4),
            (16, 5),
            (18, 6),
            (18, 7),
        ] {
            let bytes = keyed(&v10, version, seed, None);
            let back = read(&bytes).unwrap_or_else(|e| panic!("1.{}: {e:?}", version - 10));
            assert_eq!(back.start.to_string(), r.start.to_string());
            assert_eq!(back.moves, r.moves);
            assert_eq!(back.comment, r.comment);
            assert_eq!(back.red(), r.red());
            // A key changed: the keys no longer add up, the file does not decode.
            for spoil in [13, 14, 15] {
                let spoilt = keyed(&v10, version, seed, Some(spoil));
                let e = read(&spoilt).unwrap_err();
                assert_eq!(e.1, Reason::BadKey, "1.{}, byte {spoil}", version - 10);
            }
        }
    }

    /// The folder of real sample records and the made ones.
    fn data(sub: &str) -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/data")
            .join(sub)
    }

    /// The XQF files of a folder (none if it is not there), sorted.
    fn files(dir: &Path) -> Vec<PathBuf> {
        let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
            .map(|d| {
                d.filter_map(|e| e.ok().map(|e| e.path()))
                    .filter(|p| {
                        p.extension()
                            .and_then(|e| e.to_str())
                            .is_some_and(|e| e.eq_ignore_ascii_case("xqf"))
                    })
                    .collect()
            })
            .unwrap_or_default();
        out.sort();
        out
    }

    /// The real records of `tests/data/records/xqf` (see its `SOURCES.md`): every game
    /// `expected.tsv` lists (as cchess reads it: file, game, start FEN, main line) reads with
    /// that start and main line, except the broken files (`broken-…`, an illegal move in the
    /// main line or in a variation), which must fail; every file reads or fails, none panics.
    #[test]
    fn real_files_read_as_cchess_reads_them() {
        let records = data("records");
        let expected = std::fs::read_to_string(records.join("expected.tsv")).unwrap_or_default();
        let (mut matched, mut broken) = (0, 0);
        for row in expected.lines().filter(|r| r.starts_with("xqf/")) {
            let cols: Vec<&str> = row.split('\t').collect();
            let (Some(name), Some(fen)) = (cols.first(), cols.get(2)) else {
                panic!("bad row {row}");
            };
            let bytes = std::fs::read(records.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
            let got = read(&bytes);
            if name.starts_with("xqf/broken-") {
                assert!(got.is_err(), "{name} reads");
                broken += 1;
                continue;
            }
            let r = got.unwrap_or_else(|e| panic!("{name}: {e:?}"));
            let ours = r.start.to_string();
            let ours: Vec<&str> = ours.split(' ').take(2).collect();
            let theirs: Vec<&str> = fen.split(' ').take(2).collect();
            assert_eq!(ours, theirs, "{name}");
            let mainline: Vec<String> = r.mainline().map(|m| m.to_string()).collect();
            let want: Vec<&str> = cols
                .get(3)
                .map_or(Vec::new(), |m| m.split_whitespace().collect());
            assert_eq!(mainline, want, "{name}");
            matched += 1;
        }
        for p in files(&records.join("xqf"))
            .iter()
            .chain(&files(&data("xqf-made")))
        {
            let bytes = std::fs::read(p).unwrap();
            let got = read(&bytes);
            let broken_file = p
                .file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("broken-"));
            if broken_file {
                assert!(got.is_err(), "{p:?} reads");
                broken += 1;
            }
        }
        if !expected.is_empty() {
            assert!(matched > 0 && broken > 0, "{matched} read, {broken} broken");
        }
    }

    #[test]
    fn damaged_files_never_panic() {
        let mut samples: Vec<Vec<u8>> = files(&data("records/xqf"))
            .iter()
            .chain(&files(&data("xqf-made")))
            .filter_map(|p| std::fs::read(p).ok())
            .collect();
        let v10 = write(&sample());
        samples.push(keyed(&v10, 18, 9, None));
        samples.push(v10);
        let mut rng = rand::rngs::StdRng::seed_from_u64(0x51F);
        for bytes in &samples {
            // Cut at 50 places, and at every length for a while past the header's end.
            let step = (bytes.len() / 50).max(1);
            for n in (0..bytes.len())
                .step_by(step)
                .chain(HEADER..bytes.len().min(HEADER + 32))
            {
                let _ = read(&bytes[..n]);
            }
            // Bytes changed at random, in the header and in the tree.
            for _ in 0..50 {
                let mut b = bytes.clone();
                for _ in 0..rng.random_range(1..8) {
                    let i = rng.random_range(0..b.len());
                    b[i] = rng.random();
                }
                let _ = read(&b);
            }
        }
        // Trees of random records: any points, any flags, short comments.
        for _ in 0..300 {
            let mut b = write(&Record::new(Position::startpos()));
            b[HEADER + 2] = 0xF0;
            for _ in 0..rng.random_range(0..200) {
                let flags = [0, 0xF0, 0x0F, 0xFF][rng.random_range(0..4)];
                let len: i32 = rng.random_range(-2..3);
                b.extend_from_slice(&[rng.random(), rng.random(), flags, 0]);
                b.extend_from_slice(&len.to_le_bytes());
                b.extend((0..len.max(0)).map(|_| rng.random::<u8>()));
            }
            let _ = read(&b);
        }
    }

    /// A random line of up to `len` moves from `pos`, with variations down to `depth`. As
    /// XQF has it, a variation's first move has none of its own (they are its place's).
    fn random_line(
        rng: &mut rand::rngs::StdRng,
        pos: &Position,
        len: usize,
        depth: usize,
        variation: bool,
    ) -> Vec<Node> {
        let mut pos = pos.clone();
        let mut out = Vec::new();
        for i in 0..rng.random_range(1..=len) {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            let mut node = Node::new(legal.get(rng.random_range(0..legal.len())));
            if rng.random_bool(0.2) {
                let texts = ["好棋", "a comment", "变化\r\n很多"];
                node.comment = Some(texts[rng.random_range(0..3)].into());
            }
            if depth > 0 && !(variation && i == 0) {
                while rng.random_bool(0.15) {
                    node.variations
                        .push(random_line(rng, &pos, len / 2 + 1, depth - 1, true));
                }
            }
            pos = pos.play(node.mv);
            out.push(node);
        }
        out
    }

    #[test]
    fn random_trees_write_and_read_back() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        let mut trees = 0;
        for _ in 0..100 {
            let mut r = Record::new(Position::startpos());
            r.moves = random_line(&mut rng, &r.start, 30, 3, false);
            let back = read(&write(&r)).unwrap();
            assert_eq!(back.moves, r.moves);
            trees += usize::from(r.has_variations());
        }
        assert!(trees > 50, "{trees}");
    }
}
