//! The trainer's data: `chariot datagen` files read into compact entries (the active input
//! indices of both perspectives, the score and the result), split into training and held-out
//! validation shares.

use crate::eval::nnue::features::index;
use crate::tools::datagen::record::{decode_all, Sample};
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
    /// The entry of a decoded record.
    pub fn from_sample(s: &Sample) -> Entry {
        let mut e = Entry {
            us: [0; 32],
            them: [0; 32],
            len: 0,
            score: s.score,
            result: s.result as u8,
        };
        for (piece, sq) in s.iter() {
            let i = e.len as usize;
            e.us[i] = index(s.side, piece, sq) as u16;
            e.them[i] = index(!s.side, piece, sq) as u16;
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
}

/// Reads data files; the last `share` (0..1) of each goes to validation.
pub fn load(paths: &[impl AsRef<Path>], share: f64) -> Result<Split, String> {
    let mut split = Split::default();
    for p in paths {
        let p = p.as_ref();
        let bytes = std::fs::read(p).map_err(|e| format!("{}: {e}", p.display()))?;
        let samples =
            decode_all(&bytes).map_err(|(i, e)| format!("{}: block {i}: {e}", p.display()))?;
        let held = ((samples.len() as f64) * share.clamp(0.0, 1.0)).round() as usize;
        let cut = samples.len() - held;
        split
            .train
            .extend(samples[..cut].iter().map(Entry::from_sample));
        split
            .validation
            .extend(samples[cut..].iter().map(Entry::from_sample));
    }
    Ok(split)
}
