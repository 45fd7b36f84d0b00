//! `Bitboard`: a set of squares in a `u128`, bit `i` standing for the square of index `i`.
//!
//! Invariant: bits 90..128 are always zero; every operation keeps that true.
//!
//! A square's bit and the shifts by a variable amount go through `bit`, `test`, `shl` and
//! `shr`. In WebAssembly, which has 64-bit registers only, the compiler makes a 128-bit shift
//! by a variable amount a call into its runtime (`__ashlti3`, `__lshrti3`), where x86-64 and
//! aarch64 shift the two halves inline. These work on the halves in WebAssembly too, which made
//! the page's `bench` 10 % (plain module) to 19 % (SIMD module) faster; elsewhere they are the
//! plain shifts.

use super::square::Square;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// Bit `n` alone, for `n < 128`.
#[inline(always)]
pub(crate) const fn bit(n: u32) -> u128 {
    shl(1, n)
}

/// Whether bit `n` of `x` is set, for `n < 128`.
#[inline(always)]
pub(crate) const fn test(x: u128, n: u32) -> bool {
    shr(x, n) & 1 != 0
}

/// `x << n`, for `n < 128`.
#[inline(always)]
pub(crate) const fn shl(x: u128, n: u32) -> u128 {
    #[cfg(target_arch = "wasm32")]
    {
        let (lo, hi) = (x as u64, (x >> 64) as u64);
        if n >= 64 {
            ((lo << (n - 64)) as u128) << 64
        } else {
            // The bits of `lo` that cross into the high half: `lo >> (64 − n)`, none if n = 0.
            let hi = hi << n | lo >> 1 >> (63 - n);
            (hi as u128) << 64 | (lo << n) as u128
        }
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        x << n
    }
}

/// `x >> n`, for `n < 128`.
#[inline(always)]
pub(crate) const fn shr(x: u128, n: u32) -> u128 {
    #[cfg(target_arch = "wasm32")]
    {
        let (lo, hi) = (x as u64, (x >> 64) as u64);
        if n >= 64 {
            (hi >> (n - 64)) as u128
        } else {
            // The bits of `hi` that cross into the low half: `hi << (64 − n)`, none if n = 0.
            let lo = lo >> n | hi << 1 << (63 - n);
            ((hi >> n) as u128) << 64 | lo as u128
        }
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        x >> n
    }
}

/// A set of squares.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(u128);

impl Bitboard {
    /// No square.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// All 90 squares.
    pub const ALL: Bitboard = Bitboard((1u128 << 90) - 1);

    /// The set of the squares whose bits are set in `bits` (bits 90 and above are dropped).
    #[inline(always)]
    pub const fn from_bits(bits: u128) -> Bitboard {
        Bitboard(bits & Bitboard::ALL.0)
    }

    /// The bits of the set (bit `i` for the square of index `i`; bits 90 and above are zero).
    #[inline(always)]
    pub const fn bits(self) -> u128 {
        self.0
    }

    /// The set holding only `sq`.
    #[inline(always)]
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(bit(sq.index() as u32))
    }

    /// Whether `sq` is in the set.
    #[inline(always)]
    pub const fn has(self, sq: Square) -> bool {
        test(self.0, sq.index() as u32)
    }

    /// Whether the set is empty.
    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether the set has at least one square.
    #[inline(always)]
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    /// Number of squares in the set.
    #[inline(always)]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set has more than one square.
    #[inline(always)]
    pub const fn more_than_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// The lowest square, if any.
    #[inline(always)]
    pub fn lsb(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::from_index_unchecked(
                self.0.trailing_zeros() as usize
            ))
        }
    }

    /// The set with `sq` added.
    #[inline(always)]
    pub const fn with(self, sq: Square) -> Bitboard {
        Bitboard(self.0 | bit(sq.index() as u32))
    }

    /// The set with `sq` removed.
    #[inline(always)]
    pub const fn without(self, sq: Square) -> Bitboard {
        Bitboard(self.0 & !bit(sq.index() as u32))
    }
}

impl std::fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_set().entries(*self).finish()
    }
}

/// Iterates over the squares of the set, lowest index first.
impl Iterator for Bitboard {
    type Item = Square;
    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let i = self.0.trailing_zeros() as usize;
        self.0 &= self.0 - 1;
        Some(Square::from_index_unchecked(i))
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn not(self) -> Bitboard {
        Bitboard(!self.0 & Bitboard::ALL.0)
    }
}

macro_rules! binop {
    ($tr:ident, $f:ident, $tra:ident, $fa:ident, $op:tt) => {
        impl $tr for Bitboard {
            type Output = Bitboard;
            #[inline(always)]
            fn $f(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $tra for Bitboard {
            #[inline(always)]
            fn $fa(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}
binop!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
binop!(BitOr, bitor, BitOrAssign, bitor_assign, |);
binop!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl FromIterator<Square> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Bitboard {
        iter.into_iter().fold(Bitboard::EMPTY, |b, sq| b.with(sq))
    }
}
