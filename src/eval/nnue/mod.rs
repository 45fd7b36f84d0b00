//! The learned evaluation (NNUE): a network of 1260 inputs per perspective (`features`), one
//! hidden layer of H neurons per perspective with clipped-squared activation (SCReLU), and
//! one output chosen among a few buckets by the number of pieces, quantized to i16
//! (`network`); incrementally updated accumulators (`accumulator`) and the SIMD inner loops
//! (`simd`). The default network is embedded in the binary; `chariot train` makes networks.

pub mod accumulator;
pub mod features;
pub mod network;
pub mod simd;

pub use accumulator::AccumulatorStack;
pub use network::{Network, NetworkError};

use once_cell::sync::Lazy;
use std::sync::Arc;

/// The embedded default network's file.
pub const EMBEDDED: &[u8] = include_bytes!("nets/default.nnue");

static DEFAULT: Lazy<Arc<Network>> = Lazy::new(|| {
    Arc::new(Network::from_bytes(EMBEDDED).expect("the embedded network file is valid"))
});

/// The embedded default network.
pub fn default_network() -> Arc<Network> {
    Arc::clone(&DEFAULT)
}
