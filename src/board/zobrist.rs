//! Zobrist keys: one 64-bit key per (piece, square) and one for Black to move.
//!
//! The keys are computed at compile time from a fixed seed by splitmix64, written out below, so
//! they depend on no dependency's internals and every hash (and the bench signature) is the same
//! on every build. A test pins a digest of the whole table.

/// The key tables.
pub struct Keys {
    /// `pieces[piece.index()][square.index()]`.
    pub pieces: [[u64; 90]; 14],
    /// XORed in when Black is to move.
    pub black_to_move: u64,
}

/// splitmix64 (Steele, Lea and Flood): the state advances by the golden gamma and each output
/// is a finalised mix of it.
const fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

const fn build() -> Keys {
    let mut state = 0x5848_4951_4e47_4b45; // "XHIQNGKE"
    let mut pieces = [[0u64; 90]; 14];
    let mut p = 0;
    while p < 14 {
        let mut s = 0;
        while s < 90 {
            pieces[p][s] = splitmix64(&mut state);
            s += 1;
        }
        p += 1;
    }
    Keys {
        pieces,
        black_to_move: splitmix64(&mut state),
    }
}

/// The one set of keys.
pub static KEYS: Keys = build();

#[cfg(test)]
mod tests {
    use super::*;

    /// FNV-1a over every key, in table order: any change to the generator or the seed moves it.
    fn digest() -> u64 {
        let mut h = 0xcbf2_9ce4_8422_2325u64;
        let all = KEYS.pieces.iter().flatten().chain([&KEYS.black_to_move]);
        for k in all {
            for b in k.to_le_bytes() {
                h = (h ^ b as u64).wrapping_mul(0x0100_0000_01b3);
            }
        }
        h
    }

    #[test]
    fn keys_are_pinned() {
        assert_eq!(digest(), 0x276C_00CB_F05F_9D46);
    }

    #[test]
    fn keys_are_distinct_and_nonzero() {
        let mut all: Vec<u64> = KEYS.pieces.iter().flatten().copied().collect();
        all.push(KEYS.black_to_move);
        assert!(all.iter().all(|&k| k != 0));
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), 14 * 90 + 1);
    }
}
