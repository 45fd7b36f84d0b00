//! The network's two inner loops, in AVX-512 and AVX2 (`std::arch`, chosen at run time) and in
//! portable Rust: updating an accumulator by rows of the feature weights, and the
//! clipped-squared (SCReLU) dot product with the output weights.
//!
//! All paths do the same integer arithmetic with wrapping 16-bit lanes and wrapping 32-bit
//! sums, so they give identical results for every input, weights of any size included (sums
//! modulo 2^32 do not depend on the order of the additions): the search plays the same moves
//! on every processor, only faster on a wider one. Every slice handed to these functions has
//! the same length, a multiple of `LANES`; the wrappers check it. The AVX-512 path takes 32
//! lanes a step and finishes a length that is an odd multiple of 16 with one AVX2 step.

/// Accumulator lengths are multiples of this (one AVX2 register of i16).
pub const LANES: usize = 16;

/// Whether the AVX2 path is used on this processor.
pub fn avx2_available() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::is_x86_feature_detected!("avx2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Whether the AVX-512 path (AVX-512 F and BW) is used on this processor.
pub fn avx512_available() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::is_x86_feature_detected!("avx512f") && std::is_x86_feature_detected!("avx512bw")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

fn check(len: usize, others: &[&[i16]]) {
    assert!(
        len.is_multiple_of(LANES),
        "accumulator length is a multiple of {LANES}"
    );
    for o in others {
        assert_eq!(o.len(), len, "rows have the accumulator's length");
    }
}

/// `dst = src + Σ adds − Σ subs`, lane by lane (wrapping).
#[inline]
pub fn apply(dst: &mut [i16], src: &[i16], adds: &[&[i16]], subs: &[&[i16]]) {
    check(dst.len(), &[src]);
    check(dst.len(), adds);
    check(dst.len(), subs);
    #[cfg(target_arch = "x86_64")]
    {
        if avx512_available() {
            // SAFETY: the processor has AVX-512 F and BW (checked above), and every slice has
            // `dst.len()` elements, a multiple of 16 (checked above), which is all
            // `avx512::apply` reads or writes.
            unsafe { avx512::apply(dst, src, adds, subs) };
            return;
        }
        if avx2_available() {
            // SAFETY: the processor has AVX2 (checked above), and every slice has `dst.len()`
            // elements, a multiple of 16 (checked above), which is all `avx2::apply` reads or
            // writes.
            unsafe { avx2::apply(dst, src, adds, subs) };
            return;
        }
    }
    portable::apply(dst, src, adds, subs);
}

/// `acc += Σ adds − Σ subs`, lane by lane, wrapping.
#[inline]
pub fn apply_in_place(acc: &mut [i16], adds: &[&[i16]], subs: &[&[i16]]) {
    check(acc.len(), adds);
    check(acc.len(), subs);
    #[cfg(target_arch = "x86_64")]
    {
        if avx512_available() {
            // SAFETY: the processor has AVX-512 F and BW (checked above), and every row has
            // `acc.len()` elements, a multiple of 16 (checked above).
            unsafe { avx512::apply_in_place(acc, adds, subs) };
            return;
        }
        if avx2_available() {
            // SAFETY: the processor has AVX2 (checked above), and every row has `acc.len()`
            // elements, a multiple of 16 (checked above).
            unsafe { avx2::apply_in_place(acc, adds, subs) };
            return;
        }
    }
    portable::apply_in_place(acc, adds, subs);
}

/// `Σ clamp(acc, 0, qa)² · w` in the wrapping integer arithmetic of the module doc.
#[inline]
pub fn screlu_dot(acc: &[i16], w: &[i16], qa: i16) -> i32 {
    dot::<false>(acc, acc, w, qa)
}

/// `screlu_dot` of the lane-by-lane wrapping sum `a + b` (piece and threat accumulators),
/// without writing the sum anywhere.
#[inline]
pub fn screlu_dot_sum(a: &[i16], b: &[i16], w: &[i16], qa: i16) -> i32 {
    dot::<true>(a, b, w, qa)
}

#[inline(always)]
fn dot<const SUM: bool>(a: &[i16], b: &[i16], w: &[i16], qa: i16) -> i32 {
    check(a.len(), &[b, w]);
    #[cfg(target_arch = "x86_64")]
    {
        if avx512_available() {
            // SAFETY: AVX-512 F and BW are present, and the three slices have the same length,
            // a multiple of 16 (checked above); `avx512::dot` reads exactly that many elements
            // of each.
            return unsafe { avx512::dot::<SUM>(a, b, w, qa) };
        }
        if avx2_available() {
            // SAFETY: AVX2 is present, and the three slices have the same length, a multiple
            // of 16 (checked above); `avx2::dot` reads exactly that many elements of each.
            return unsafe { avx2::dot::<SUM>(a, b, w, qa) };
        }
    }
    portable::dot::<SUM>(a, b, w, qa)
}

/// The reference path, for every processor.
pub mod portable {
    /// `dst = src + Σ adds − Σ subs` (wrapping i16 lanes).
    pub fn apply(dst: &mut [i16], src: &[i16], adds: &[&[i16]], subs: &[&[i16]]) {
        for (i, d) in dst.iter_mut().enumerate() {
            let mut v = src[i];
            for a in adds {
                v = v.wrapping_add(a[i]);
            }
            for s in subs {
                v = v.wrapping_sub(s[i]);
            }
            *d = v;
        }
    }

    /// `acc += Σ adds − Σ subs`.
    pub fn apply_in_place(acc: &mut [i16], adds: &[&[i16]], subs: &[&[i16]]) {
        for (i, d) in acc.iter_mut().enumerate() {
            for a in adds {
                *d = d.wrapping_add(a[i]);
            }
            for s in subs {
                *d = d.wrapping_sub(s[i]);
            }
        }
    }

    /// `Σ c · (c · w)` with `c = clamp(acc, 0, qa)`, the inner product wrapping to i16 and the
    /// sum wrapping to i32, as the AVX2 path computes it.
    pub fn screlu_dot(acc: &[i16], w: &[i16], qa: i16) -> i32 {
        dot::<false>(acc, acc, w, qa)
    }

    /// `screlu_dot` of `a + b` when `SUM`, of `a` alone otherwise.
    pub fn dot<const SUM: bool>(a: &[i16], b: &[i16], w: &[i16], qa: i16) -> i32 {
        let mut sum = 0i32;
        for ((&x, &y), &w) in a.iter().zip(b).zip(w) {
            let x = if SUM { x.wrapping_add(y) } else { x };
            let c = x.clamp(0, qa);
            let cw = c.wrapping_mul(w);
            sum = sum.wrapping_add(cw as i32 * c as i32);
        }
        sum
    }
}

/// The AVX2 path (x86-64 only).
#[cfg(target_arch = "x86_64")]
pub mod avx2 {
    use std::arch::x86_64::*;

    /// `dst = src + Σ adds − Σ subs`.
    ///
    /// # Safety
    /// The processor must support AVX2, and every slice must have `dst.len()` elements, a
    /// multiple of 16.
    #[target_feature(enable = "avx2")]
    pub unsafe fn apply(dst: &mut [i16], src: &[i16], adds: &[&[i16]], subs: &[&[i16]]) {
        // SAFETY: the caller's promise; `dst` and `src` are distinct slices of `dst.len()`.
        unsafe { update(dst.as_mut_ptr(), src.as_ptr(), dst.len(), adds, subs, 0) }
    }

    /// `acc += Σ adds − Σ subs`.
    ///
    /// # Safety
    /// The processor must support AVX2; every row has `acc`'s length, a multiple of 16.
    #[target_feature(enable = "avx2")]
    pub unsafe fn apply_in_place(acc: &mut [i16], adds: &[&[i16]], subs: &[&[i16]]) {
        let p = acc.as_mut_ptr();
        // SAFETY: the caller's promise; each lane is read before it is written.
        unsafe { update(p, p, acc.len(), adds, subs, 0) }
    }

    /// `dst = src + Σ adds − Σ subs` over lanes `start..n`; `dst` may be `src`.
    ///
    /// # Safety
    /// AVX2; `dst` and `src` point to `n` elements, every row has `n`, and `n − start` is a
    /// multiple of 16.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn update(
        dst: *mut i16,
        src: *const i16,
        n: usize,
        adds: &[&[i16]],
        subs: &[&[i16]],
        start: usize,
    ) {
        let mut i = start;
        while i + 16 <= n {
            // SAFETY (all loads and stores): `i + 16 <= n` and every pointer and row covers `n`
            // elements, so each unaligned 32-byte access stays inside; a lane of `dst` is
            // stored after its load from `src`.
            unsafe {
                let mut v = _mm256_loadu_si256(src.add(i) as *const __m256i);
                for a in adds {
                    v = _mm256_add_epi16(
                        v,
                        _mm256_loadu_si256(a.as_ptr().add(i) as *const __m256i),
                    );
                }
                for s in subs {
                    v = _mm256_sub_epi16(
                        v,
                        _mm256_loadu_si256(s.as_ptr().add(i) as *const __m256i),
                    );
                }
                _mm256_storeu_si256(dst.add(i) as *mut __m256i, v);
            }
            i += 16;
        }
    }

    /// `Σ clamp(acc, 0, qa)² · w`, as `portable::screlu_dot`.
    ///
    /// # Safety
    /// The processor must support AVX2; `acc` and `w` must have the same length, a multiple
    /// of 16.
    #[target_feature(enable = "avx2")]
    pub unsafe fn screlu_dot(acc: &[i16], w: &[i16], qa: i16) -> i32 {
        // SAFETY: the caller's promise, with `acc` standing for both accumulators.
        unsafe { dot::<false>(acc, acc, w, qa) }
    }

    /// `Σ clamp(a + b, 0, qa)² · w` when `SUM`, of `a` alone otherwise, as `portable::dot`.
    ///
    /// # Safety
    /// The processor must support AVX2; `a`, `b` and `w` must have the same length, a multiple
    /// of 16.
    #[target_feature(enable = "avx2")]
    pub unsafe fn dot<const SUM: bool>(a: &[i16], b: &[i16], w: &[i16], qa: i16) -> i32 {
        let n = a.len();
        let zero = _mm256_setzero_si256();
        let top = _mm256_set1_epi16(qa);
        let mut sum = _mm256_setzero_si256();
        let mut i = 0;
        while i + 16 <= n {
            // SAFETY: `i + 16 <= n` and the slices have `n` elements: the loads stay inside.
            unsafe {
                let mut x = _mm256_loadu_si256(a.as_ptr().add(i) as *const __m256i);
                if SUM {
                    let y = _mm256_loadu_si256(b.as_ptr().add(i) as *const __m256i);
                    x = _mm256_add_epi16(x, y);
                }
                let c = _mm256_min_epi16(_mm256_max_epi16(x, zero), top);
                let wv = _mm256_loadu_si256(w.as_ptr().add(i) as *const __m256i);
                let cw = _mm256_mullo_epi16(c, wv);
                sum = _mm256_add_epi32(sum, _mm256_madd_epi16(cw, c));
            }
            i += 16;
        }
        let mut lanes = [0i32; 8];
        // SAFETY: `lanes` is 32 bytes, the size of one register.
        unsafe { _mm256_storeu_si256(lanes.as_mut_ptr() as *mut __m256i, sum) };
        lanes.iter().fold(0i32, |a, &b| a.wrapping_add(b))
    }
}

/// The AVX-512 path (x86-64 only): 32 lanes a step, and one 16-lane AVX2 step for a length
/// that is an odd multiple of 16.
#[cfg(target_arch = "x86_64")]
pub mod avx512 {
    use std::arch::x86_64::*;

    /// `dst = src + Σ adds − Σ subs`.
    ///
    /// # Safety
    /// The processor must support AVX-512 F and BW, and every slice must have `dst.len()`
    /// elements, a multiple of 16.
    #[target_feature(enable = "avx512f,avx512bw,avx2")]
    pub unsafe fn apply(dst: &mut [i16], src: &[i16], adds: &[&[i16]], subs: &[&[i16]]) {
        // SAFETY: the caller's promise; `dst` and `src` are distinct slices of `dst.len()`.
        unsafe { update(dst.as_mut_ptr(), src.as_ptr(), dst.len(), adds, subs) }
    }

    /// `acc += Σ adds − Σ subs`.
    ///
    /// # Safety
    /// The processor must support AVX-512 F and BW; every row has `acc`'s length, a multiple
    /// of 16.
    #[target_feature(enable = "avx512f,avx512bw,avx2")]
    pub unsafe fn apply_in_place(acc: &mut [i16], adds: &[&[i16]], subs: &[&[i16]]) {
        let p = acc.as_mut_ptr();
        // SAFETY: the caller's promise; each lane is read before it is written.
        unsafe { update(p, p, acc.len(), adds, subs) }
    }

    /// `dst = src + Σ adds − Σ subs` over `n` lanes; `dst` may be `src`.
    ///
    /// # Safety
    /// AVX-512 F and BW; `dst` and `src` point to `n` elements and every row has `n`, a
    /// multiple of 16.
    #[target_feature(enable = "avx512f,avx512bw,avx2")]
    unsafe fn update(dst: *mut i16, src: *const i16, n: usize, adds: &[&[i16]], subs: &[&[i16]]) {
        let mut i = 0;
        while i + 32 <= n {
            // SAFETY (all loads and stores): `i + 32 <= n` and every pointer and row covers `n`
            // elements, so each unaligned 64-byte access stays inside; a lane of `dst` is
            // stored after its load from `src`.
            unsafe {
                let mut v = _mm512_loadu_si512(src.add(i) as *const __m512i);
                for a in adds {
                    v = _mm512_add_epi16(
                        v,
                        _mm512_loadu_si512(a.as_ptr().add(i) as *const __m512i),
                    );
                }
                for s in subs {
                    v = _mm512_sub_epi16(
                        v,
                        _mm512_loadu_si512(s.as_ptr().add(i) as *const __m512i),
                    );
                }
                _mm512_storeu_si512(dst.add(i) as *mut __m512i, v);
            }
            i += 32;
        }
        if i < n {
            // SAFETY: `n` is a multiple of 16, so exactly 16 lanes are left at `i`: one step
            // of the AVX2 loop, which AVX-512 F implies.
            unsafe { super::avx2::update(dst, src, n, adds, subs, i) }
        }
    }

    /// `Σ clamp(a + b, 0, qa)² · w` when `SUM`, of `a` alone otherwise, as `portable::dot`.
    ///
    /// # Safety
    /// The processor must support AVX-512 F and BW; `a`, `b` and `w` must have the same
    /// length, a multiple of 16.
    #[target_feature(enable = "avx512f,avx512bw,avx2")]
    pub unsafe fn dot<const SUM: bool>(a: &[i16], b: &[i16], w: &[i16], qa: i16) -> i32 {
        let n = a.len();
        let (zero, top) = (_mm512_setzero_si512(), _mm512_set1_epi16(qa));
        let mut sum = _mm512_setzero_si512();
        let mut i = 0;
        while i + 32 <= n {
            // SAFETY: `i + 32 <= n` and the slices have `n` elements: the loads stay inside.
            unsafe {
                let mut x = _mm512_loadu_si512(a.as_ptr().add(i) as *const __m512i);
                if SUM {
                    x = _mm512_add_epi16(
                        x,
                        _mm512_loadu_si512(b.as_ptr().add(i) as *const __m512i),
                    );
                }
                let c = _mm512_min_epi16(_mm512_max_epi16(x, zero), top);
                let wv = _mm512_loadu_si512(w.as_ptr().add(i) as *const __m512i);
                let cw = _mm512_mullo_epi16(c, wv);
                sum = _mm512_add_epi32(sum, _mm512_madd_epi16(cw, c));
            }
            i += 32;
        }
        let mut total = _mm512_reduce_add_epi32(sum);
        if i < n {
            // SAFETY: `n` is a multiple of 16, so exactly 16 lanes are left at `i`; the AVX2
            // step is `avx2::dot`'s on those lanes.
            total = total
                .wrapping_add(unsafe { super::avx2::dot::<SUM>(&a[i..], &b[i..], &w[i..], qa) });
        }
        total
    }
}
