//! The network file: format, loading with every check, writing, and the quantized forward pass.
//!
//! ```text
//! offset size  field (little-endian)
//!  0      8    magic "CHRTNNUE"
//!  8      4    format version (2; version 1 files, which are all plain, are read too)
//! 12      4    inputs per perspective (1260 plain, 7560 king buckets, 16380 threats,
//!              7658 threat kinds)
//! 16      4    hidden neurons per perspective H (a multiple of 16, at most 4096)
//! 20      4    output buckets B (1 to 16), chosen by the number of pieces on the board
//! 24      2    QA (feature transformer scale)   26  2  QB (output scale)
//! 28      2    evaluation scale (centipawns per unit of network output)
//! 30      2    feature set (0 plain, 1 king buckets, 2 threats, 3 threat kinds; zero in
//!              version 1)
//! 32      8    body length in bytes
//! 40      8    FNV-1a 64 checksum of the body
//! 48      ...  body: feature weights i16[inputs][H], feature biases i16[H],
//!              output weights i16[B][2H] (side to move's half first), output biases i32[B]
//! ```
//!
//! Evaluation: each perspective's accumulator `a = bias + Σ rows of its active features`
//! (in units of QA); `c = clamp(a, 0, QA)`; the output is
//! `(Σ c² · w / QA + b) · scale / (QA · QB)` centipawns, the side to move's half first.

use super::features::Features;
use super::simd::{self, LANES};
use crate::large::Large;

/// File magic.
pub const MAGIC: [u8; 8] = *b"CHRTNNUE";
/// Format version this program writes (and the newest it reads).
pub const VERSION: u32 = 2;
/// The oldest format version this program reads.
pub const OLDEST_VERSION: u32 = 1;
/// Bytes before the body.
pub const HEADER_BYTES: usize = 48;
/// Largest hidden layer accepted.
pub const MAX_HIDDEN: usize = 4096;
/// Most output buckets accepted.
pub const MAX_BUCKETS: usize = 16;

/// Why a network file was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NetworkError {
    /// The file could not be read.
    #[error("cannot read the network file: {0}")]
    Io(String),
    /// Shorter than its header or than the body it announces.
    #[error("network file truncated: {found} of {expected} bytes")]
    Truncated {
        /// Bytes the header and body need.
        expected: usize,
        /// Bytes present.
        found: usize,
    },
    /// Not a Chariot network file.
    #[error("not a Chariot network file (bad magic)")]
    Magic,
    /// A format version this program does not read.
    #[error("network format version {0}; this program reads {OLDEST_VERSION} to {VERSION}")]
    Version(u32),
    /// A shape this program does not run.
    #[error(
        "network architecture {inputs}x{hidden}x{buckets} not supported (needs the inputs of a \
         known feature set, 1260, 7560 or 16380, a hidden layer that is a multiple of {LANES} \
         up to {MAX_HIDDEN}, 1 to {MAX_BUCKETS} buckets)"
    )]
    Architecture {
        /// Inputs per perspective.
        inputs: u32,
        /// Hidden neurons.
        hidden: u32,
        /// Output buckets.
        buckets: u32,
    },
    /// The body does not match its checksum (or its announced length, or trails extra bytes).
    #[error("network file corrupt (checksum mismatch)")]
    Checksum,
}

/// FNV-1a, 64 bits.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// A quantized network, ready to evaluate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Network {
    features: Features,
    hidden: usize,
    buckets: usize,
    qa: i16,
    qb: i16,
    scale: i16,
    /// `[inputs][hidden]`.
    ft_weights: Large<i16>,
    /// Threat sets: the lanes of the threat rows that are not all zero (a multiple of
    /// `LANES` from the first, at most `hidden`), and those rows cut to them,
    /// `[threat inputs][threat_width]`: what the search reads.
    threat_width: usize,
    threat_weights: Large<i16>,
    ft_bias: Box<[i16]>,
    /// `[buckets][2 * hidden]`.
    out_weights: Box<[i16]>,
    out_bias: Box<[i32]>,
}

/// The output bucket of a position with `pieces` pieces (2 to 32) among `buckets`.
#[inline(always)]
pub fn bucket(pieces: usize, buckets: usize) -> usize {
    (pieces.saturating_sub(2) * buckets / 31).min(buckets - 1)
}

impl Network {
    /// A network from its parts (the trainer's quantizer). Fails on a shape `from_bytes` would
    /// refuse or on parts of the wrong length.
    #[allow(clippy::too_many_arguments)]
    pub fn from_parts(
        features: Features,
        hidden: usize,
        buckets: usize,
        (qa, qb, scale): (i16, i16, i16),
        ft_weights: Vec<i16>,
        ft_bias: Vec<i16>,
        out_weights: Vec<i16>,
        out_bias: Vec<i32>,
    ) -> Result<Network, NetworkError> {
        let arch = NetworkError::Architecture {
            inputs: features.inputs() as u32,
            hidden: hidden as u32,
            buckets: buckets as u32,
        };
        if !(LANES..=MAX_HIDDEN).contains(&hidden)
            || !hidden.is_multiple_of(LANES)
            || !(1..=MAX_BUCKETS).contains(&buckets)
            || qa <= 0
            || qb <= 0
        {
            return Err(arch);
        }
        if ft_weights.len() != features.inputs() * hidden
            || ft_bias.len() != hidden
            || out_weights.len() != buckets * 2 * hidden
            || out_bias.len() != buckets
        {
            return Err(arch);
        }
        let threats = &ft_weights[features.piece_inputs() * hidden..];
        let threat_width = threats
            .chunks_exact(hidden)
            .filter_map(|row| row.iter().rposition(|&w| w != 0))
            .max()
            .map_or(0, |lane| (lane + 1).next_multiple_of(LANES));
        let threat_weights: Vec<i16> = threats
            .chunks_exact(hidden)
            .flat_map(|row| &row[..threat_width])
            .copied()
            .collect();
        Ok(Network {
            features,
            hidden,
            buckets,
            qa,
            qb,
            scale,
            threat_width,
            threat_weights: Large::from_slice(&threat_weights),
            ft_weights: Large::from_slice(&ft_weights),
            ft_bias: ft_bias.into(),
            out_weights: out_weights.into(),
            out_bias: out_bias.into(),
        })
    }

    /// The input features.
    #[inline(always)]
    pub fn features(&self) -> Features {
        self.features
    }

    /// Hidden neurons per perspective.
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// Output buckets.
    pub fn buckets(&self) -> usize {
        self.buckets
    }

    /// The quantization scales `(QA, QB, centipawns per output unit)`.
    pub fn scales(&self) -> (i16, i16, i16) {
        (self.qa, self.qb, self.scale)
    }

    /// All feature weights, `[inputs][hidden]`.
    pub fn ft_weights(&self) -> &[i16] {
        &self.ft_weights
    }

    /// The output weights, `[buckets][2 * hidden]`, and biases, `[buckets]`.
    pub fn output_layer(&self) -> (&[i16], &[i32]) {
        (&self.out_weights, &self.out_bias)
    }

    /// The feature transformer's biases (an accumulator's starting value).
    #[inline(always)]
    pub fn ft_bias(&self) -> &[i16] {
        &self.ft_bias
    }

    /// The row of feature `index`.
    #[inline(always)]
    pub fn row(&self, index: usize) -> &[i16] {
        &self.ft_weights[index * self.hidden..(index + 1) * self.hidden]
    }

    /// The lanes of the threat rows that are not all zero, from the first: the threat
    /// accumulators' length (0 without threat inputs, or when every threat row is zero).
    #[inline(always)]
    pub fn threat_width(&self) -> usize {
        self.threat_width
    }

    /// The row of threat input `index` (an index of the whole feature set), cut to
    /// `threat_width` lanes.
    #[inline(always)]
    pub fn threat_row(&self, index: usize) -> &[i16] {
        let (w, r) = (self.threat_width, index - self.features.piece_inputs());
        &self.threat_weights[r * w..(r + 1) * w]
    }

    /// The evaluation in centipawns from the side to move's accumulator `us` and the other's
    /// `them`, with `pieces` pieces on the board.
    #[inline]
    pub fn output(&self, us: &[i16], them: &[i16], pieces: usize) -> i32 {
        let b = bucket(pieces, self.buckets);
        let w = &self.out_weights[b * 2 * self.hidden..(b + 1) * 2 * self.hidden];
        let (wu, wt) = w.split_at(self.hidden);
        let sum =
            simd::screlu_dot(us, wu, self.qa).wrapping_add(simd::screlu_dot(them, wt, self.qa));
        self.scaled(sum, b)
    }

    /// `output` of accumulators that come in two parts each, pieces (`hidden` lanes) and
    /// threats (the first `threat_width` lanes), summed lane by lane.
    #[inline]
    pub fn output_of_sums(&self, us: [&[i16]; 2], them: [&[i16]; 2], pieces: usize) -> i32 {
        let b = bucket(pieces, self.buckets);
        let w = &self.out_weights[b * 2 * self.hidden..(b + 1) * 2 * self.hidden];
        let (wu, wt) = w.split_at(self.hidden);
        let t = self.threat_width;
        let half = |acc: [&[i16]; 2], w: &[i16]| {
            simd::screlu_dot_sum(&acc[0][..t], acc[1], &w[..t], self.qa)
                .wrapping_add(simd::screlu_dot(&acc[0][t..], &w[t..], self.qa))
        };
        self.scaled(half(us, wu).wrapping_add(half(them, wt)), b)
    }

    /// Centipawns from the output layer's sum of products in bucket `b`.
    #[inline(always)]
    fn scaled(&self, sum: i32, b: usize) -> i32 {
        let qa = self.qa as i64;
        let v =
            (sum as i64 / qa + self.out_bias[b] as i64) * self.scale as i64 / (qa * self.qb as i64);
        v.clamp(-20_000, 20_000) as i32
    }

    /// The file bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut body = Vec::with_capacity(2 * (self.ft_weights.len() + self.out_weights.len()));
        for v in self.ft_weights.iter().chain(&*self.ft_bias) {
            body.extend_from_slice(&v.to_le_bytes());
        }
        for v in self.out_weights.iter() {
            body.extend_from_slice(&v.to_le_bytes());
        }
        for v in self.out_bias.iter() {
            body.extend_from_slice(&v.to_le_bytes());
        }
        let mut out = Vec::with_capacity(HEADER_BYTES + body.len());
        out.extend_from_slice(&MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        for v in [self.features.inputs(), self.hidden, self.buckets] {
            out.extend_from_slice(&(v as u32).to_le_bytes());
        }
        for v in [self.qa, self.qb, self.scale, self.features.id() as i16] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out.extend_from_slice(&(body.len() as u64).to_le_bytes());
        out.extend_from_slice(&fnv1a(&body).to_le_bytes());
        out.extend_from_slice(&body);
        out
    }

    /// Reads a network file's bytes, checking magic, version, architecture, length and checksum.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetworkError> {
        let u32_at =
            |o: usize| u32::from_le_bytes([bytes[o], bytes[o + 1], bytes[o + 2], bytes[o + 3]]);
        let i16_at = |o: usize| i16::from_le_bytes([bytes[o], bytes[o + 1]]);
        if bytes.len() < 8 || bytes[..8] != MAGIC {
            return Err(if bytes.len() < 8 && MAGIC.starts_with(bytes) {
                NetworkError::Truncated {
                    expected: HEADER_BYTES,
                    found: bytes.len(),
                }
            } else {
                NetworkError::Magic
            });
        }
        if bytes.len() < HEADER_BYTES {
            return Err(NetworkError::Truncated {
                expected: HEADER_BYTES,
                found: bytes.len(),
            });
        }
        let version = u32_at(8);
        if !(OLDEST_VERSION..=VERSION).contains(&version) {
            return Err(NetworkError::Version(version));
        }
        let (inputs, hidden, buckets) = (u32_at(12), u32_at(16), u32_at(20));
        let arch = NetworkError::Architecture {
            inputs,
            hidden,
            buckets,
        };
        let (h, nb) = (hidden as usize, buckets as usize);
        let id = if version == 1 { 0 } else { i16_at(30) as u16 };
        let features = Features::from_id(id)
            .filter(|f| f.inputs() == inputs as usize)
            .ok_or(arch.clone())?;
        let n = features.inputs();
        if !(LANES..=MAX_HIDDEN).contains(&h)
            || !h.is_multiple_of(LANES)
            || !(1..=MAX_BUCKETS).contains(&nb)
        {
            return Err(arch);
        }
        let (qa, qb, scale) = (i16_at(24), i16_at(26), i16_at(28));
        if qa <= 0 || qb <= 0 {
            return Err(arch);
        }
        let body_len = 2 * (n * h + h + nb * 2 * h) + 4 * nb;
        let mut announced = [0u8; 8];
        announced.copy_from_slice(&bytes[32..40]);
        let mut sum = [0u8; 8];
        sum.copy_from_slice(&bytes[40..48]);
        let expected = HEADER_BYTES + body_len;
        if bytes.len() < expected {
            return Err(NetworkError::Truncated {
                expected,
                found: bytes.len(),
            });
        }
        let body = &bytes[HEADER_BYTES..];
        if u64::from_le_bytes(announced) != body_len as u64
            || body.len() != body_len
            || fnv1a(body) != u64::from_le_bytes(sum)
        {
            return Err(NetworkError::Checksum);
        }
        let mut i16s = body[..2 * (n * h + h + nb * 2 * h)]
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]));
        let ft_weights: Vec<i16> = i16s.by_ref().take(n * h).collect();
        let ft_bias: Vec<i16> = i16s.by_ref().take(h).collect();
        let out_weights: Vec<i16> = i16s.collect();
        let out_bias: Vec<i32> = body[body_len - 4 * nb..]
            .chunks_exact(4)
            .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        Network::from_parts(
            features,
            h,
            nb,
            (qa, qb, scale),
            ft_weights,
            ft_bias,
            out_weights,
            out_bias,
        )
    }

    /// Reads and checks a network file.
    pub fn load(path: &std::path::Path) -> Result<Network, NetworkError> {
        let bytes = std::fs::read(path).map_err(|e| NetworkError::Io(e.to_string()))?;
        Network::from_bytes(&bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_texts() {
        let cases = [
            (
                NetworkError::Io("gone".into()),
                "cannot read the network file: gone",
            ),
            (
                NetworkError::Truncated {
                    expected: 48,
                    found: 7,
                },
                "network file truncated: 7 of 48 bytes",
            ),
            (
                NetworkError::Magic,
                "not a Chariot network file (bad magic)",
            ),
            (
                NetworkError::Version(9),
                "network format version 9; this program reads 1 to 2",
            ),
            (
                NetworkError::Architecture {
                    inputs: 768,
                    hidden: 8,
                    buckets: 1,
                },
                "network architecture 768x8x1 not supported (needs the inputs of a known feature \
                 set, 1260, 7560 or 16380, a hidden layer that is a multiple of 16 up to 4096, 1 \
                 to 16 buckets)",
            ),
            (
                NetworkError::Checksum,
                "network file corrupt (checksum mismatch)",
            ),
        ];
        for (e, text) in cases {
            assert_eq!(e.to_string(), text);
        }
    }
}
