//! Training checkpoints: the float model, Adam's state and how far training got, so that an
//! interrupted run goes on where it stopped (`chariot train --checkpoint F` writes one after
//! every epoch, `--resume F` reads it).
//!
//! ```text
//! offset size  field (little-endian)
//!  0      8    magic "CHRTCKPT"
//!  8      4    version (1)
//! 12      2    feature set id      14  2  zero
//! 16      4    hidden H            20  4  output buckets B
//! 24      4    epochs done         28  4  Adam's step count
//! 32      8    best validation loss (f64)
//! 40      4    epoch of the best (1-based, 0: none)   44  4  zero
//! 48      8    parameters n
//! 56      8    FNV-1a 64 of the body
//! 64      ...  body: parameters f32[n], Adam's first moments f32[n], second moments f32[n]
//! ```

use super::model::Model;
use super::optimiser::Adam;
use crate::eval::nnue::features::Features;
use crate::eval::nnue::network::fnv1a;
use std::path::Path;

const MAGIC: [u8; 8] = *b"CHRTCKPT";
const VERSION: u32 = 1;
const HEADER: usize = 64;

/// Where training stands after some epochs.
pub struct Checkpoint {
    /// The model.
    pub model: Model,
    /// The optimiser.
    pub adam: Adam,
    /// Epochs completed.
    pub epochs_done: usize,
    /// The best validation loss so far.
    pub best: f64,
    /// Its 1-based epoch (0: the initial weights).
    pub best_epoch: usize,
}

/// Why a checkpoint was refused.
#[derive(Debug, thiserror::Error)]
pub enum CheckpointError {
    /// Not a checkpoint of this format.
    #[error("not a Chariot training checkpoint (bad magic or version)")]
    Format,
    /// Shorter or longer than it says, or a bad checksum.
    #[error("checkpoint corrupt or truncated")]
    Corrupt,
}

impl Checkpoint {
    /// The file bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let (m, v, t) = self.adam.state();
        let n = self.model.params.len();
        let mut body = Vec::with_capacity(12 * n);
        for x in self.model.params.iter().chain(m).chain(v) {
            body.extend_from_slice(&x.to_le_bytes());
        }
        let mut out = Vec::with_capacity(HEADER + body.len());
        out.extend_from_slice(&MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&self.model.features.id().to_le_bytes());
        out.extend_from_slice(&0u16.to_le_bytes());
        for x in [
            self.model.hidden as u32,
            self.model.buckets as u32,
            self.epochs_done as u32,
            t as u32,
        ] {
            out.extend_from_slice(&x.to_le_bytes());
        }
        out.extend_from_slice(&self.best.to_le_bytes());
        out.extend_from_slice(&(self.best_epoch as u32).to_le_bytes());
        out.extend_from_slice(&0u32.to_le_bytes());
        out.extend_from_slice(&(n as u64).to_le_bytes());
        out.extend_from_slice(&fnv1a(&body).to_le_bytes());
        out.extend_from_slice(&body);
        out
    }

    /// Reads a checkpoint's bytes, checking magic, version, shape, length and checksum.
    pub fn from_bytes(bytes: &[u8]) -> Result<Checkpoint, CheckpointError> {
        if bytes.len() < HEADER || bytes[..8] != MAGIC {
            return Err(CheckpointError::Format);
        }
        let u32_at = |o: usize| u32::from_le_bytes(bytes[o..o + 4].try_into().unwrap_or([0; 4]));
        let u64_at = |o: usize| u64::from_le_bytes(bytes[o..o + 8].try_into().unwrap_or([0; 8]));
        if u32_at(8) != VERSION {
            return Err(CheckpointError::Format);
        }
        let features = Features::from_id(u16::from_le_bytes([bytes[12], bytes[13]]))
            .ok_or(CheckpointError::Format)?;
        let (hidden, buckets) = (u32_at(16) as usize, u32_at(20) as usize);
        let n = u64_at(48) as usize;
        let body = &bytes[HEADER..];
        let model = Model::zeros(features, hidden.min(4096), buckets.min(16));
        if model.params.len() != n
            || body.len() != 12 * n
            || fnv1a(body) != u64_at(56)
            || hidden == 0
            || buckets == 0
        {
            return Err(CheckpointError::Corrupt);
        }
        let mut floats = body
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]));
        let params: Vec<f32> = floats.by_ref().take(n).collect();
        let m: Vec<f32> = floats.by_ref().take(n).collect();
        let v: Vec<f32> = floats.collect();
        Ok(Checkpoint {
            model: Model { params, ..model },
            adam: Adam::from_state(m, v, u32_at(28) as i32),
            epochs_done: u32_at(24) as usize,
            best: f64::from_le_bytes(bytes[32..40].try_into().unwrap_or([0; 8])),
            best_epoch: u32_at(40) as usize,
        })
    }

    /// Writes the checkpoint to `path` whole: to a file beside it, then renamed over it.
    pub fn save(&self, path: &Path) -> std::io::Result<()> {
        let mut tmp = path.as_os_str().to_owned();
        tmp.push(".part");
        std::fs::write(&tmp, self.to_bytes())?;
        std::fs::rename(&tmp, path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_refusals() {
        let model = Model::new(Features::KingBuckets, 16, 2, 3);
        let n = model.params.len();
        let adam = Adam::from_state(vec![0.5; n], vec![0.25; n], 7);
        let c = Checkpoint {
            model,
            adam,
            epochs_done: 3,
            best: 0.0071,
            best_epoch: 2,
        };
        let bytes = c.to_bytes();
        let back = Checkpoint::from_bytes(&bytes).unwrap();
        assert_eq!(back.model.params, c.model.params);
        assert_eq!(back.model.features, Features::KingBuckets);
        assert_eq!(back.adam.state().2, 7);
        assert_eq!(back.adam.state().0, &vec![0.5; n][..]);
        assert_eq!(
            (back.epochs_done, back.best, back.best_epoch),
            (3, 0.0071, 2)
        );
        assert!(matches!(
            Checkpoint::from_bytes(&bytes[..40]),
            Err(CheckpointError::Format)
        ));
        assert!(matches!(
            Checkpoint::from_bytes(&bytes[..bytes.len() - 4]),
            Err(CheckpointError::Corrupt)
        ));
        let mut bad = bytes.clone();
        bad[HEADER + 5] ^= 1;
        assert!(matches!(
            Checkpoint::from_bytes(&bad),
            Err(CheckpointError::Corrupt)
        ));
        let mut shape = bytes;
        shape[16] = 32; // another hidden size than the body holds
        assert!(Checkpoint::from_bytes(&shape).is_err());
    }
}
