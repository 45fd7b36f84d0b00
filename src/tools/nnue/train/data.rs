//! The trainer's data: `chariot datagen` files read into compact entries (the active input
//! indices of both perspectives, the score and the result), split into training and held-out
//! validation shares.

use super::TrainError;
use crate::board::{PieceKind, Square};
use crate::eval::nnue::features::Features;
use crate::tools::nnue::record::{decode_all, Sample};
use crate::tools::FileError;
use std::path::Path;

/// One training position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Active inputs from the side to move's view (`len` used).
    pub us: [u16; 32],
    /// Active inputs from the other side's view (`len` used).
    pub them: [u16; 32],
    /// Pieces on the board.
    pub len: u8,
    /// Search score, centipawns, side to move's view.
    pub score: i16,
    /// Result for the side to move: 0, 1 (draw) or 2.
    pub result: u8,
}

impl Entry {
    /// The entry of a decoded record with the inputs of `features`.
    pub fn from_sample(features: Features, s: &Sample) -> Entry {
        Entry::build(features, s, false)
    }

    /// The entry of a decoded record with its files mirrored (a ↔ i): the rules are symmetric
    /// left to right, so the mirrored position has the same score and result.
    pub fn mirrored(features: Features, s: &Sample) -> Entry {
        Entry::build(features, s, true)
    }

    fn build(features: Features, s: &Sample, mirror: bool) -> Entry {
        let mut e = Entry {
            us: [0; 32],
            them: [0; 32],
            len: 0,
            score: s.score,
            result: s.result as u8,
        };
        let place = |sq: Square| {
            if mirror {
                Square::new(8 - sq.file(), sq.rank()).unwrap_or(sq)
            } else {
                sq
            }
        };
        // A record always has one general a side.
        let king = |c| {
            s.iter()
                .find(|(p, _)| p.kind() == PieceKind::King && p.color() == c)
                .map_or(Square::from_index_unchecked(4), |(_, sq)| place(sq))
        };
        let (us, them) = (
            features.view(s.side, king(s.side)),
            features.view(!s.side, king(!s.side)),
        );
        for (piece, sq) in s.iter() {
            let sq = place(sq);
            let i = e.len as usize;
            e.us[i] = us.index(piece, sq) as u16;
            e.them[i] = them.index(piece, sq) as u16;
            e.len += 1;
        }
        e
    }

    /// The side to move's active inputs.
    pub fn us(&self) -> &[u16] {
        &self.us[..self.len as usize]
    }

    /// The other side's active inputs.
    pub fn them(&self) -> &[u16] {
        &self.them[..self.len as usize]
    }

    /// The training target: `(1 − wdl) · sigmoid(score / k) + wdl · result`.
    pub fn target(&self, k: f32, wdl: f32) -> f32 {
        let p = 1.0 / (1.0 + (-(self.score as f32) / k).exp());
        (1.0 - wdl) * p + wdl * self.result as f32 / 2.0
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

/// Reads data files into entries of `features`; the last `share` (0..1) of each goes to
/// validation. With `mirror`, each training position is also added with its files mirrored
/// (validation stays as played).
pub fn load(
    paths: &[impl AsRef<Path>],
    features: Features,
    share: f64,
    mirror: bool,
) -> Result<Split, TrainError> {
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
        split.train.extend(
            samples[..cut]
                .iter()
                .map(|s| Entry::from_sample(features, s)),
        );
        if mirror {
            split
                .train
                .extend(samples[..cut].iter().map(|s| Entry::mirrored(features, s)));
        }
        split.validation.extend(
            samples[cut..]
                .iter()
                .map(|s| Entry::from_sample(features, s)),
        );
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
    use crate::board::{Color, Position};
    use crate::eval::nnue::features::index;
    use crate::tools::nnue::record::Wdl;

    #[test]
    fn entries_list_both_views_and_mirror() {
        let pos: Position = "4k4/9/4b4/9/2p6/9/9/4B4/4A4/3K5 b".parse().unwrap();
        let s = Sample::from_position(&pos, 120, Wdl::Win);
        let e = Entry::from_sample(Features::Plain, &s);
        assert_eq!(e.len, 6);
        assert_eq!(e.result, 2);
        assert!((e.target(400.0, 0.0) - 1.0 / (1.0 + (-0.3f32).exp())).abs() < 1e-6);
        assert_eq!(e.target(400.0, 1.0), 1.0);
        // Black to move: its own king on e9 is, from its side, an own king on e0.
        let king = index(
            Color::Black,
            crate::board::Piece::new(Color::Black, crate::board::PieceKind::King),
            "e9".parse().unwrap(),
        );
        assert!(e.us().contains(&(king as u16)));
        let m = Entry::mirrored(Features::Plain, &s);
        let pawn = crate::board::Piece::new(Color::Black, crate::board::PieceKind::Pawn);
        assert!(e
            .us()
            .contains(&(index(Color::Black, pawn, "c5".parse().unwrap()) as u16)));
        assert!(m
            .us()
            .contains(&(index(Color::Black, pawn, "g5".parse().unwrap()) as u16)));
        assert_eq!(m.score, e.score);
    }
}
