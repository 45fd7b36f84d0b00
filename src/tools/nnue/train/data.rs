//! The trainer's data: `chariot datagen` files read into compact entries (each its 32-byte
//! record, from which the active inputs of both perspectives, the score and the result are
//! read), split into training and held-out validation shares.

use super::TrainError;
use crate::board::{PieceKind, Square};
use crate::eval::nnue::features::{Features, Threats};
use crate::tools::nnue::record::{decode_all, Sample, RECORD_BYTES};
use crate::tools::FileError;
use std::path::Path;

/// One training position: its 32-byte record, so that a position costs 32 bytes in memory
/// whatever the feature set; the inputs are worked out from it each time they are needed
/// (`inputs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    record: [u8; RECORD_BYTES],
}

/// The active inputs of one entry, both views (reused from entry to entry).
#[derive(Default)]
pub struct Inputs {
    /// From the side to move's view.
    pub us: Vec<u16>,
    /// From the other side's view.
    pub them: Vec<u16>,
    /// Pieces on the board.
    pub pieces: usize,
}

impl Entry {
    /// The entry of a decoded record.
    pub fn from_sample(s: &Sample) -> Entry {
        Entry { record: s.encode() }
    }

    /// The entry of a decoded record with its files mirrored (a ↔ i): the rules are symmetric
    /// left to right, so the mirrored position has the same score and result.
    pub fn mirrored(s: &Sample) -> Entry {
        let mut m = *s;
        for (_, sq) in &mut m.pieces[..s.len as usize] {
            let (file, rank) = (*sq % 9, *sq / 9);
            *sq = rank * 9 + 8 - file;
        }
        Entry::from_sample(&m)
    }

    /// The record back (entries are made from valid records).
    pub fn sample(&self) -> Sample {
        Sample::decode(&self.record)
            .ok()
            .flatten()
            .expect("an entry holds a valid record")
    }

    /// Search score, centipawns, side to move's view.
    pub fn score(&self) -> i16 {
        i16::from_le_bytes([self.record[28], self.record[29]])
    }

    /// Result for the side to move: 0, 1 (draw) or 2.
    pub fn result(&self) -> u8 {
        self.record[30]
    }

    /// Fills `out` with the active inputs of `features`, both views.
    pub fn inputs(&self, features: Features, out: &mut Inputs) {
        let s = self.sample();
        out.us.clear();
        out.them.clear();
        out.pieces = s.len as usize;
        // A record always has one general a side.
        let king = |c| {
            s.iter()
                .find(|(p, _)| p.kind() == PieceKind::King && p.color() == c)
                .map_or(Square::from_index_unchecked(4), |(_, sq)| sq)
        };
        let (us, them) = (
            features.view(s.side, king(s.side)),
            features.view(!s.side, king(!s.side)),
        );
        for (piece, sq) in s.iter() {
            out.us.push(us.index(piece, sq) as u16);
            out.them.push(them.index(piece, sq) as u16);
        }
        if features.has_threats() {
            if let Some(pos) = s.position() {
                for &t in Threats::of(&pos).as_slice() {
                    out.us.push(us.threat_index(t) as u16);
                    out.them.push(them.threat_index(t) as u16);
                }
            }
        }
    }

    /// The training target: `(1 − wdl) · sigmoid(score / k) + wdl · result`.
    pub fn target(&self, k: f32, wdl: f32) -> f32 {
        let p = 1.0 / (1.0 + (-(self.score() as f32) / k).exp());
        (1.0 - wdl) * p + wdl * self.result() as f32 / 2.0
    }
}

/// Training and validation entries.
#[derive(Default)]
pub struct Split {
    /// Entries to learn from.
    pub train: Vec<Entry>,
    /// Held-out entries (the last `share` of each file: whole games, not seen in training).
    pub validation: Vec<Entry>,
    /// The classical evaluation of each held-out position (a baseline for the loss).
    pub classical: Vec<i32>,
}

/// Reads data files into entries; the last `share` (0..1) of each goes to validation. With
/// `mirror`, each training position is also added with its files mirrored (validation stays as
/// played).
pub fn load(paths: &[impl AsRef<Path>], share: f64, mirror: bool) -> Result<Split, TrainError> {
    let mut split = Split::default();
    for p in paths {
        let p = p.as_ref();
        let bytes = std::fs::read(p).map_err(|e| FileError::new(p, e))?;
        let samples = decode_all(&bytes).map_err(|(block, source)| TrainError::Record {
            path: p.to_path_buf(),
            block,
            source,
        })?;
        let held = ((samples.len() as f64) * share.clamp(0.0, 1.0)).round() as usize;
        let cut = samples.len() - held;
        split
            .train
            .extend(samples[..cut].iter().map(Entry::from_sample));
        if mirror {
            split
                .train
                .extend(samples[..cut].iter().map(Entry::mirrored));
        }
        split
            .validation
            .extend(samples[cut..].iter().map(Entry::from_sample));
        split.classical.extend(samples[cut..].iter().map(|s| {
            s.position()
                .map_or(0, |p| crate::eval::classical::evaluate(&p).get())
        }));
    }
    Ok(split)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Color, Piece, Position};
    use crate::eval::nnue::features::{all_active, index};
    use crate::tools::nnue::record::Wdl;

    #[test]
    fn entries_list_both_views_and_mirror() {
        let pos: Position = "4k4/9/4b4/9/2p6/9/9/4B4/4A4/3K5 b".parse().unwrap();
        let s = Sample::from_position(&pos, 120, Wdl::Win);
        let e = Entry::from_sample(&s);
        let mut inputs = Inputs::default();
        e.inputs(Features::Plain, &mut inputs);
        assert_eq!(inputs.pieces, 6);
        assert_eq!((e.score(), e.result()), (120, 2));
        assert!((e.target(400.0, 0.0) - 1.0 / (1.0 + (-0.3f32).exp())).abs() < 1e-6);
        assert_eq!(e.target(400.0, 1.0), 1.0);
        // Black to move: its own king on e9 is, from its side, an own king on e0.
        let black = |k| Piece::new(Color::Black, k);
        let at = |s: &str| s.parse::<Square>().unwrap();
        let king = index(Color::Black, black(PieceKind::King), at("e9"));
        assert!(inputs.us.contains(&(king as u16)));
        let pawn = black(PieceKind::Pawn);
        assert!(inputs
            .us
            .contains(&(index(Color::Black, pawn, at("c5")) as u16)));
        let m = Entry::mirrored(&s);
        let mut mirrored = Inputs::default();
        m.inputs(Features::Plain, &mut mirrored);
        assert!(mirrored
            .us
            .contains(&(index(Color::Black, pawn, at("g5")) as u16)));
        assert_eq!(m.score(), e.score());
        // With threats: the same inputs as the engine's, pieces first; two rooks that attack
        // each other are two threats.
        let pos: Position = "4k4/9/9/9/4r4/4R4/9/9/9/3K5 w".parse().unwrap();
        let e = Entry::from_sample(&Sample::from_position(&pos, 0, Wdl::Draw));
        let mut threats = Inputs::default();
        e.inputs(Features::Threats, &mut threats);
        let want = |c| -> Vec<u16> {
            all_active(Features::Threats, &pos, c)
                .into_iter()
                .map(|i| i as u16)
                .collect()
        };
        assert_eq!(threats.us, want(Color::Red));
        assert_eq!(threats.them, want(Color::Black));
        assert_eq!((threats.pieces, threats.us.len()), (4, 6));
    }
}
