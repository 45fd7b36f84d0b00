//! The training-data format written by `chariot datagen` and read by `chariot train`: 32-byte
//! records, little-endian, no padding.
//!
//! ```text
//! bytes  0..12  occupancy: bit `square` set for every occupied square (squares 0..90, bits
//!               90..96 zero)
//! bytes 12..28  one 4-bit piece code per occupied square, in ascending square order, low
//!               nibble first: 0..6 Red king, advisor, elephant, horse, rook, cannon, pawn;
//!               7..13 the same for Black; unused nibbles 0
//! bytes 28..30  search score, i16 centipawns from the side to move's view
//! byte  30      game result from the side to move's view: 0 loss, 1 draw, 2 win
//! byte  31      flags: bit 0 Black to move; bits 1..8 zero (reserved)
//! ```
//!
//! A file may begin with (and, being concatenated from shards, contain) header blocks of the
//! same 32 bytes: `CHARIOTDATA` then the byte `0xFF` (occupancy bits 90..96 set, which no record
//! has), the format version (u16) and zeros. Readers skip headers and refuse a block that is
//! neither a header of a known version nor a valid record. Invariant: a record decodes to at most
//! 32 pieces with one king a side, so every decoded sample has 2..=32 pieces.

use crate::board::{fen, Color, Piece, PieceKind, Position, Square};

/// Bytes per record (and per header block).
pub const RECORD_BYTES: usize = 32;
/// Data format version written in headers.
pub const VERSION: u16 = 1;
/// The first 12 bytes of a header block.
pub const MAGIC: [u8; 12] = *b"CHARIOTDATA\xFF";

/// The result of a game from one side's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wdl {
    /// The side lost.
    Loss = 0,
    /// Drawn.
    Draw = 1,
    /// The side won.
    Win = 2,
}

impl Wdl {
    /// 0, 0.5 or 1.
    pub fn value(self) -> f32 {
        self as u8 as f32 / 2.0
    }

    /// The same result from the other side's view.
    pub fn flip(self) -> Wdl {
        match self {
            Wdl::Loss => Wdl::Win,
            Wdl::Draw => Wdl::Draw,
            Wdl::Win => Wdl::Loss,
        }
    }
}

/// One training position, decoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sample {
    /// (piece index 0..14, square index 0..90) for each piece, in ascending square order.
    pub pieces: [(u8, u8); 32],
    /// How many entries of `pieces` are used.
    pub len: u8,
    /// Side to move.
    pub side: Color,
    /// Search score in centipawns from the side to move's view.
    pub score: i16,
    /// Game result from the side to move's view.
    pub result: Wdl,
}

/// Why a 32-byte block is not a valid record.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    /// Occupancy bits beyond square 89, or more than 32 pieces.
    #[error("bad occupancy")]
    Occupancy,
    /// A piece code above 13 or a non-zero unused nibble.
    #[error("bad piece code")]
    Piece,
    /// Not exactly one king per side.
    #[error("not one king per side")]
    Kings,
    /// A result byte above 2 or reserved flag bits set.
    #[error("bad result or flags")]
    Fields,
    /// A header of a format version this program does not read.
    #[error("data format version {0} (this program reads {VERSION})")]
    Version(u16),
    /// The data ends inside a block.
    #[error("{0} trailing bytes (not a whole record)")]
    Truncated(usize),
}

/// The header block.
pub fn header() -> [u8; RECORD_BYTES] {
    let mut b = [0u8; RECORD_BYTES];
    b[..12].copy_from_slice(&MAGIC);
    b[12..14].copy_from_slice(&VERSION.to_le_bytes());
    b
}

impl Sample {
    /// The sample of `pos` with `score` and `result` from the side to move's view.
    pub fn from_position(pos: &Position, score: i16, result: Wdl) -> Sample {
        let mut pieces = [(0u8, 0u8); 32];
        let mut len = 0;
        for sq in Square::all() {
            if let Some(p) = pos.piece_at(sq) {
                if len < 32 {
                    pieces[len] = (p.index() as u8, sq.index() as u8);
                    len += 1;
                }
            }
        }
        Sample {
            pieces,
            len: len as u8,
            side: pos.side_to_move(),
            score,
            result,
        }
    }

    /// The pieces as (piece, square).
    pub fn iter(&self) -> impl Iterator<Item = (Piece, Square)> + '_ {
        self.pieces[..self.len as usize]
            .iter()
            .filter_map(|&(p, s)| {
                let color = if p < 7 { Color::Red } else { Color::Black };
                let kind = PieceKind::ALL[(p % 7) as usize];
                Square::from_index(s as usize).map(|sq| (Piece::new(color, kind), sq))
            })
    }

    /// The position (placement and side to move; counters zero), if it is a legal one.
    pub fn position(&self) -> Option<Position> {
        let mut board = [None; 90];
        for (p, sq) in self.iter() {
            board[sq.index()] = Some(p);
        }
        let mut fen = fen::placement(|sq| board[sq.index()]);
        fen.push_str(match self.side {
            Color::Red => " w",
            Color::Black => " b",
        });
        fen.parse().ok()
    }

    /// The 32-byte record.
    pub fn encode(&self) -> [u8; RECORD_BYTES] {
        let mut b = [0u8; RECORD_BYTES];
        let mut occ = 0u128;
        for &(_, s) in &self.pieces[..self.len as usize] {
            occ |= 1 << s;
        }
        b[..12].copy_from_slice(&occ.to_le_bytes()[..12]);
        // Nibbles follow ascending squares, as `from_position` lists them.
        let mut sorted = self.pieces;
        sorted[..self.len as usize].sort_unstable_by_key(|&(_, s)| s);
        for (i, &(p, _)) in sorted[..self.len as usize].iter().enumerate() {
            b[12 + i / 2] |= (p & 0xF) << (4 * (i % 2));
        }
        b[28..30].copy_from_slice(&self.score.to_le_bytes());
        b[30] = self.result as u8;
        b[31] = (self.side == Color::Black) as u8;
        b
    }

    /// Decodes one record; `Ok(None)` for a header block of this version.
    pub fn decode(b: &[u8; RECORD_BYTES]) -> Result<Option<Sample>, RecordError> {
        if b[..12] == MAGIC {
            let v = u16::from_le_bytes([b[12], b[13]]);
            return if v == VERSION {
                Ok(None)
            } else {
                Err(RecordError::Version(v))
            };
        }
        let mut occ_bytes = [0u8; 16];
        occ_bytes[..12].copy_from_slice(&b[..12]);
        let occ = u128::from_le_bytes(occ_bytes);
        if occ >> 90 != 0 || occ.count_ones() > 32 {
            return Err(RecordError::Occupancy);
        }
        let mut pieces = [(0u8, 0u8); 32];
        let mut len = 0usize;
        let mut kings = [0u8; 2];
        let mut bits = occ;
        while bits != 0 {
            let s = bits.trailing_zeros() as u8;
            bits &= bits - 1;
            let p = (b[12 + len / 2] >> (4 * (len % 2))) & 0xF;
            if p > 13 {
                return Err(RecordError::Piece);
            }
            if p == 0 || p == 7 {
                kings[(p / 7) as usize] += 1;
            }
            pieces[len] = (p, s);
            len += 1;
        }
        for i in len..32 {
            if (b[12 + i / 2] >> (4 * (i % 2))) & 0xF != 0 {
                return Err(RecordError::Piece);
            }
        }
        if kings != [1, 1] {
            return Err(RecordError::Kings);
        }
        let result = match b[30] {
            0 => Wdl::Loss,
            1 => Wdl::Draw,
            2 => Wdl::Win,
            _ => return Err(RecordError::Fields),
        };
        if b[31] > 1 {
            return Err(RecordError::Fields);
        }
        Ok(Some(Sample {
            pieces,
            len: len as u8,
            side: if b[31] == 1 { Color::Black } else { Color::Red },
            score: i16::from_le_bytes([b[28], b[29]]),
            result,
        }))
    }
}

/// Decodes a whole data file (headers skipped). Fails on the first bad block, naming it.
pub fn decode_all(bytes: &[u8]) -> Result<Vec<Sample>, (usize, RecordError)> {
    let mut out = Vec::with_capacity(bytes.len() / RECORD_BYTES);
    let chunks = bytes.chunks_exact(RECORD_BYTES);
    let rest = chunks.remainder().len();
    for (i, c) in chunks.enumerate() {
        let block: &[u8; RECORD_BYTES] = c.try_into().expect("chunks_exact gives whole blocks");
        if let Some(s) = Sample::decode(block).map_err(|e| (i, e))? {
            out.push(s);
        }
    }
    if rest != 0 {
        return Err((bytes.len() / RECORD_BYTES, RecordError::Truncated(rest)));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_round_trips() {
        let pos = Position::startpos().play(crate::board::Move::parse_iccs("h2e2").unwrap());
        let s = Sample::from_position(&pos, -37, Wdl::Win);
        let b = s.encode();
        let d = Sample::decode(&b).unwrap().unwrap();
        assert_eq!(d, s);
        assert_eq!(d.len, 32);
        let board = |fen: String| fen.split(' ').take(2).collect::<Vec<_>>().join(" ");
        assert_eq!(board(d.position().unwrap().fen()), board(pos.fen()));
        assert_eq!(d.position().unwrap().key(), pos.key());
    }

    #[test]
    fn header_and_bad_blocks() {
        assert_eq!(Sample::decode(&header()), Ok(None));
        let mut h = header();
        h[12] = 9;
        assert_eq!(Sample::decode(&h), Err(RecordError::Version(9)));
        let good = Sample::from_position(&Position::startpos(), 5, Wdl::Draw).encode();
        let mut b = good;
        b[30] = 3;
        assert_eq!(Sample::decode(&b), Err(RecordError::Fields));
        let mut b = good;
        b[12] = (b[12] & 0xF0) | 0x0E; // piece code 14 on a0
        assert_eq!(Sample::decode(&b), Err(RecordError::Piece));
        let mut b = good;
        b[0] &= !1; // a0 emptied: 31 pieces, so the 32nd nibble (non-zero here) is unused
        assert_eq!(Sample::decode(&b), Err(RecordError::Piece));
        let mut b = good;
        b[12] = (b[12] & 0xF0) | 0x07; // a black king on a0: two black kings
        assert_eq!(Sample::decode(&b), Err(RecordError::Kings));
        let mut b = good;
        b[11] |= 0x80;
        assert_eq!(Sample::decode(&b), Err(RecordError::Occupancy));
        let mut all = header().to_vec();
        all.extend_from_slice(&good);
        all.extend_from_slice(&header());
        all.extend_from_slice(&good);
        assert_eq!(decode_all(&all).unwrap().len(), 2);
        all.push(0);
        assert!(matches!(
            decode_all(&all),
            Err((4, RecordError::Truncated(1)))
        ));
    }
}
