//! WXF notation: `C2=5`, `H8+7`, `R+=3`, and the WXF file format's pawn rules.
//!
//! Written: a letter (K A E H R C P), the piece's file 1–9 from the mover's right, `+`
//! forward, `-` backward or `=` sideways, and the steps of a straight move or the file reached.
//! Two pieces of a kind on one file put `+` (front) or `-` (back) for the file: `R+=3`, `C--1`.
//! Pawns, by the WXF file format: three on a file are `P+`, `P<file>` (the middle one), `P-`;
//! four are `++`, `P+`, `P-`, `--`; five `++`, `P+`, `P<file>`, `P-`, `--`; and when two
//! files each hold several, the file replaces the letter: `3+`, `33` (middle), `3-`.
//!
//! Read besides: `.` for `=`, lower case, full-width forms (`Ｃ２＝５`), the sign before the
//! letter (`+C=5`), the ICCS file format's letters (N for the horse, B or M for the
//! elephant, G for the advisor, S for the pawn), Fairy-Stockfish's pawn numbering (`15+1`:
//! the first pawn from the front on file 5), and marks after the move.

use super::{half_width, Described, Dir, Place, Query, Sel};
use crate::board::piece::PieceKind;

/// The canonical WXF text of a described move.
pub(super) fn write(d: &Described) -> String {
    let letter = letter(d.kind);
    let digit = |n: u8| char::from(b'0' + n);
    let (a, b) = match (d.kind, d.on_file) {
        (PieceKind::King | PieceKind::Advisor | PieceKind::Elephant, _) | (_, 0 | 1) => {
            (letter, digit(d.file))
        }
        (PieceKind::Pawn, n) if d.crowded_files >= 2 => {
            let place = if d.index == 0 {
                '+'
            } else if d.index + 1 == n {
                '-'
            } else {
                digit(d.file)
            };
            (digit(d.file), place)
        }
        (_, n) => match (n, d.index) {
            (4 | 5, 0) => ('+', '+'),
            (4 | 5, i) if i + 1 == n => ('-', '-'),
            (4 | 5, 1) | (_, 0) => (letter, '+'),
            (_, i) if i + 1 == n || (n >= 4 && i + 2 == n) => (letter, '-'),
            _ => (letter, digit(d.file)),
        },
    };
    let sign = match d.dir {
        Dir::Forward => '+',
        Dir::Backward => '-',
        Dir::Sideways => '=',
    };
    [a, b, sign, digit(d.arg)].iter().collect()
}

fn letter(kind: PieceKind) -> char {
    match kind {
        PieceKind::King => 'K',
        PieceKind::Advisor => 'A',
        PieceKind::Elephant => 'E',
        PieceKind::Horse => 'H',
        PieceKind::Rook => 'R',
        PieceKind::Cannon => 'C',
        PieceKind::Pawn => 'P',
    }
}

fn kind_of(c: char) -> Option<PieceKind> {
    Some(match c {
        'K' => PieceKind::King,
        'A' | 'G' => PieceKind::Advisor,
        'E' | 'B' | 'M' => PieceKind::Elephant,
        'H' | 'N' => PieceKind::Horse,
        'R' => PieceKind::Rook,
        'C' => PieceKind::Cannon,
        'P' | 'S' => PieceKind::Pawn,
        _ => return None,
    })
}

/// What a WXF text says, or `None` if it is not WXF.
pub(super) fn parse(text: &str) -> Option<Query> {
    let mut c = [' '; 5];
    let mut n = 0;
    for ch in text.trim().chars().map(half_width) {
        if n == 5 {
            return None;
        }
        c[n] = ch.to_ascii_uppercase();
        n += 1;
    }
    // Marks after the move: `!`, `?`, `#`, and a check's `+` as a fifth sign.
    while n > 4 && matches!(c[n - 1], '!' | '?' | '#' | '+') {
        n -= 1;
    }
    if n != 4 {
        return None;
    }
    let digit = |ch: char| {
        ch.to_digit(10)
            .filter(|d| (1..=9).contains(d))
            .map(|d| d as u8)
    };
    let dir = match c[2] {
        '+' => Dir::Forward,
        '-' => Dir::Backward,
        '=' | '.' => Dir::Sideways,
        _ => return None,
    };
    let arg = digit(c[3])?;
    let pawn = PieceKind::Pawn;
    let (kind, sel) = match (c[0], c[1]) {
        ('+', '+') => (pawn, Sel::At(Place::Front)),
        ('-', '-') => (pawn, Sel::At(Place::Back)),
        ('+', k) => (kind_of(k)?, Sel::Plus),
        ('-', k) => (kind_of(k)?, Sel::Minus),
        (f, '+') if digit(f).is_some() => (pawn, Sel::OnFile(digit(f)?, Place::Front)),
        (f, '-') if digit(f).is_some() => (pawn, Sel::OnFile(digit(f)?, Place::Back)),
        (i, f) if digit(i).is_some() => match (digit(i)?, digit(f)?) {
            (i, f) if i == f => (pawn, Sel::OnFile(f, Place::Middle)),
            (i, f) if i <= 5 => (pawn, Sel::NthOnFile(f, i - 1)),
            _ => return None,
        },
        (k, '+') => (kind_of(k)?, Sel::Plus),
        (k, '-') => (kind_of(k)?, Sel::Minus),
        (k, f) => (kind_of(k)?, Sel::File(digit(f)?)),
    };
    Some(Query {
        kind,
        sel,
        dir,
        arg,
    })
}
