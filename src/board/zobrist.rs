//! Zobrist keys: one 64-bit key per (piece, square) and one for Black to move.
//!
//! The keys come from `rand`'s `StdRng` with a fixed seed, drawn once at first use, so they are
//! identical on every run (the version of `rand` is pinned by `Cargo.lock`).

use once_cell::sync::Lazy;
use rand::{rngs::StdRng, Rng, SeedableRng};

/// The key tables.
pub struct Keys {
    /// `pieces[piece.index()][square.index()]`.
    pub pieces: [[u64; 90]; 14],
    /// XORed in when Black is to move.
    pub black_to_move: u64,
}

/// The one set of keys, drawn from a fixed seed.
pub static KEYS: Lazy<Keys> = Lazy::new(|| {
    let mut rng = StdRng::seed_from_u64(0x5848_4951_4e47_4b45); // "XHIQNGKE"
    let mut pieces = [[0u64; 90]; 14];
    for row in pieces.iter_mut() {
        for k in row.iter_mut() {
            *k = rng.random();
        }
    }
    Keys {
        pieces,
        black_to_move: rng.random(),
    }
});
