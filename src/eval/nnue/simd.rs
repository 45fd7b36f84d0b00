//! The network's two inner loops: updating an accumulator by rows of the feature weights, and
//! the clipped-squared (SCReLU) dot product with the output weights. On x86-64 they use AVX-512
//! or AVX2 (`std::arch`, chosen at run time), on aarch64 NEON (part of every aarch64 processor,
//! so chosen at compile time), in WebAssembly built with `+simd128` its 128-bit SIMD (chosen at
//! compile time: a module either has it or does not load), and portable Rust elsewhere.
//!
//! All paths do the same integer arithmetic with wrapping 16-bit lanes and wrapping 32-bit
//! sums, so they give identical results for every input, weights of any size included (sums
//! modulo 2^32 do not depend on the order of the additions): the search plays the same moves
//! on every processor, only faster on a wider one. Every slice handed to these functions has
//! the same length, a multiple of `LANES`; the wrappers check it. The AVX-512 path takes 32
//! lanes a step and finishes a length that is an odd multiple of 16 with one AVX2 step; NEON
//! and simd128 take 16 lanes a step in two 128-bit registers.
//!
//! The test below compares the path of the build and processor with the portable one. This
//! file uses nothing outside `std`, so it compiles alone as a test program for any target:
//! for aarch64 run under `qemu-aarch64`, for WebAssembly with SIMD under Node's WASI
//! (docs/nnue.md gives the commands).

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

/// The path the loops take here: "AVX-512", "AVX2", "NEON", "simd128" or "portable".
pub fn path() -> &'static str {
    if avx512_available() {
        "AVX-512"
    } else if avx2_available() {
        "AVX2"
    } else if cfg!(target_arch = "aarch64") {
        "NEON"
    } else if cfg!(all(target_arch = "wasm32", target_feature = "simd128")) {
        "simd128"
    } else {
        "portable"
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
    #[cfg(target_arch = "aarch64")]
    {
        // SAFETY: every slice has `dst.len()` elements, a multiple of 16 (checked above),
        // which is all `neon::apply` reads or writes; NEON is part of aarch64.
        unsafe { neon::apply(dst, src, adds, subs) }
    }
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    {
        // SAFETY: every slice has `dst.len()` elements, a multiple of 16 (checked above),
        // which is all `simd128::apply` reads or writes; the module is built with simd128.
        unsafe { simd128::apply(dst, src, adds, subs) }
    }
    #[cfg(not(any(
        target_arch = "aarch64",
        all(target_arch = "wasm32", target_feature = "simd128")
    )))]
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
    #[cfg(target_arch = "aarch64")]
    {
        // SAFETY: every row has `acc.len()` elements, a multiple of 16 (checked above); NEON
        // is part of aarch64.
        unsafe { neon::apply_in_place(acc, adds, subs) }
    }
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    {
        // SAFETY: every row has `acc.len()` elements, a multiple of 16 (checked above); the
        // module is built with simd128.
        unsafe { simd128::apply_in_place(acc, adds, subs) }
    }
    #[cfg(not(any(
        target_arch = "aarch64",
        all(target_arch = "wasm32", target_feature = "simd128")
    )))]
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
    #[cfg(target_arch = "aarch64")]
    {
        // SAFETY: the three slices have the same length, a multiple of 16 (checked above);
        // `neon::dot` reads exactly that many elements of each. NEON is part of aarch64.
        unsafe { neon::dot::<SUM>(a, b, w, qa) }
    }
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    {
        // SAFETY: the three slices have the same length, a multiple of 16 (checked above);
        // `simd128::dot` reads exactly that many elements of each. The module has simd128.
        unsafe { simd128::dot::<SUM>(a, b, w, qa) }
    }
    #[cfg(not(any(
        target_arch = "aarch64",
        all(target_arch = "wasm32", target_feature = "simd128")
    )))]
    {
        portable::dot::<SUM>(a, b, w, qa)
    }
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

/// The NEON path (aarch64 only, where NEON is always present): 16 lanes a step in two 128-bit
/// registers.
#[cfg(target_arch = "aarch64")]
pub mod neon {
    use std::arch::aarch64::*;

    /// `dst = src + Σ adds − Σ subs`.
    ///
    /// # Safety
    /// Every slice must have `dst.len()` elements, a multiple of 16.
    pub unsafe fn apply(dst: &mut [i16], src: &[i16], adds: &[&[i16]], subs: &[&[i16]]) {
        // SAFETY: the caller's promise; `dst` and `src` are distinct slices of `dst.len()`.
        unsafe { update(dst.as_mut_ptr(), src.as_ptr(), dst.len(), adds, subs) }
    }

    /// `acc += Σ adds − Σ subs`.
    ///
    /// # Safety
    /// Every row has `acc`'s length, a multiple of 16.
    pub unsafe fn apply_in_place(acc: &mut [i16], adds: &[&[i16]], subs: &[&[i16]]) {
        let p = acc.as_mut_ptr();
        // SAFETY: the caller's promise; each lane is read before it is written.
        unsafe { update(p, p, acc.len(), adds, subs) }
    }

    /// `dst = src + Σ adds − Σ subs` over `n` lanes; `dst` may be `src`.
    ///
    /// # Safety
    /// `dst` and `src` point to `n` elements and every row has `n`, a multiple of 16.
    #[inline(always)]
    unsafe fn update(dst: *mut i16, src: *const i16, n: usize, adds: &[&[i16]], subs: &[&[i16]]) {
        let mut i = 0;
        while i + 16 <= n {
            // SAFETY (all loads and stores): `i + 16 <= n` and every pointer and row covers `n`
            // elements, so each 32-byte access (two registers, no alignment needed) stays
            // inside; a lane of `dst` is stored after its load from `src`.
            unsafe {
                let mut v = vld1q_s16_x2(src.add(i));
                for a in adds {
                    let r = vld1q_s16_x2(a.as_ptr().add(i));
                    v = int16x8x2_t(vaddq_s16(v.0, r.0), vaddq_s16(v.1, r.1));
                }
                for s in subs {
                    let r = vld1q_s16_x2(s.as_ptr().add(i));
                    v = int16x8x2_t(vsubq_s16(v.0, r.0), vsubq_s16(v.1, r.1));
                }
                vst1q_s16_x2(dst.add(i), v);
            }
            i += 16;
        }
    }

    /// `Σ clamp(a + b, 0, qa)² · w` when `SUM`, of `a` alone otherwise, as `portable::dot`:
    /// `c · w` wraps to 16 bits (`mul`), then the widening multiply-accumulate (`smlal`,
    /// `smlal2`) adds `(c · w) · c` into 32-bit lanes, wrapping.
    ///
    /// # Safety
    /// `a`, `b` and `w` must have the same length, a multiple of 16.
    pub unsafe fn dot<const SUM: bool>(a: &[i16], b: &[i16], w: &[i16], qa: i16) -> i32 {
        let n = a.len();
        let zero = vdupq_n_s16(0);
        let top = vdupq_n_s16(qa);
        // Two sums, one per register of the step, so the accumulations do not wait on each
        // other.
        let (mut lo, mut hi) = (vdupq_n_s32(0), vdupq_n_s32(0));
        let mut i = 0;
        while i + 16 <= n {
            // SAFETY: `i + 16 <= n` and the slices have `n` elements: the loads stay inside.
            unsafe {
                let mut x = vld1q_s16_x2(a.as_ptr().add(i));
                if SUM {
                    let y = vld1q_s16_x2(b.as_ptr().add(i));
                    x = int16x8x2_t(vaddq_s16(x.0, y.0), vaddq_s16(x.1, y.1));
                }
                let c0 = vminq_s16(vmaxq_s16(x.0, zero), top);
                let c1 = vminq_s16(vmaxq_s16(x.1, zero), top);
                let wv = vld1q_s16_x2(w.as_ptr().add(i));
                let cw0 = vmulq_s16(c0, wv.0);
                let cw1 = vmulq_s16(c1, wv.1);
                lo = vmlal_s16(lo, vget_low_s16(cw0), vget_low_s16(c0));
                hi = vmlal_high_s16(hi, cw0, c0);
                lo = vmlal_s16(lo, vget_low_s16(cw1), vget_low_s16(c1));
                hi = vmlal_high_s16(hi, cw1, c1);
            }
            i += 16;
        }
        // `addv` sums the four lanes modulo 2^32, as the other paths do.
        vaddvq_s32(vaddq_s32(lo, hi))
    }
}

/// The WebAssembly SIMD path (a module built with `-C target-feature=+simd128`): 16 lanes a
/// step in two 128-bit values.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
pub mod simd128 {
    use core::arch::wasm32::*;

    /// `dst = src + Σ adds − Σ subs`.
    ///
    /// # Safety
    /// Every slice must have `dst.len()` elements, a multiple of 16.
    pub unsafe fn apply(dst: &mut [i16], src: &[i16], adds: &[&[i16]], subs: &[&[i16]]) {
        // SAFETY: the caller's promise; `dst` and `src` are distinct slices of `dst.len()`.
        unsafe { update(dst.as_mut_ptr(), src.as_ptr(), dst.len(), adds, subs) }
    }

    /// `acc += Σ adds − Σ subs`.
    ///
    /// # Safety
    /// Every row has `acc`'s length, a multiple of 16.
    pub unsafe fn apply_in_place(acc: &mut [i16], adds: &[&[i16]], subs: &[&[i16]]) {
        let p = acc.as_mut_ptr();
        // SAFETY: the caller's promise; each lane is read before it is written.
        unsafe { update(p, p, acc.len(), adds, subs) }
    }

    /// Eight lanes at `p`.
    ///
    /// # Safety
    /// `p` points to 8 readable elements (no alignment needed).
    #[inline(always)]
    unsafe fn load(p: *const i16) -> v128 {
        // SAFETY: the caller's promise; `v128.load` takes any alignment.
        unsafe { v128_load(p as *const v128) }
    }

    /// `dst = src + Σ adds − Σ subs` over `n` lanes; `dst` may be `src`.
    ///
    /// # Safety
    /// `dst` and `src` point to `n` elements and every row has `n`, a multiple of 16.
    #[inline(always)]
    unsafe fn update(dst: *mut i16, src: *const i16, n: usize, adds: &[&[i16]], subs: &[&[i16]]) {
        let mut i = 0;
        while i + 16 <= n {
            // SAFETY (all loads and stores): `i + 16 <= n` and every pointer and row covers `n`
            // elements, so each 16-byte access at `i` and `i + 8` stays inside; a lane of
            // `dst` is stored after its load from `src`.
            unsafe {
                let (mut v0, mut v1) = (load(src.add(i)), load(src.add(i + 8)));
                for a in adds {
                    let p = a.as_ptr().add(i);
                    v0 = i16x8_add(v0, load(p));
                    v1 = i16x8_add(v1, load(p.add(8)));
                }
                for s in subs {
                    let p = s.as_ptr().add(i);
                    v0 = i16x8_sub(v0, load(p));
                    v1 = i16x8_sub(v1, load(p.add(8)));
                }
                v128_store(dst.add(i) as *mut v128, v0);
                v128_store(dst.add(i + 8) as *mut v128, v1);
            }
            i += 16;
        }
    }

    /// `Σ clamp(a + b, 0, qa)² · w` when `SUM`, of `a` alone otherwise, as `portable::dot`:
    /// `i32x4.dot_i16x8_s` is x86's `pmaddwd`, the AVX2 path's instruction.
    ///
    /// # Safety
    /// `a`, `b` and `w` must have the same length, a multiple of 16.
    pub unsafe fn dot<const SUM: bool>(a: &[i16], b: &[i16], w: &[i16], qa: i16) -> i32 {
        let n = a.len();
        let zero = i16x8_splat(0);
        let top = i16x8_splat(qa);
        let mut sum = i32x4_splat(0);
        let mut i = 0;
        while i + 16 <= n {
            for k in [i, i + 8] {
                // SAFETY: `k + 8 <= n` and the slices have `n` elements: the loads stay inside.
                unsafe {
                    let mut x = load(a.as_ptr().add(k));
                    if SUM {
                        x = i16x8_add(x, load(b.as_ptr().add(k)));
                    }
                    let c = i16x8_min(i16x8_max(x, zero), top);
                    let cw = i16x8_mul(c, load(w.as_ptr().add(k)));
                    sum = i32x4_add(sum, i32x4_dot_i16x8(cw, c));
                }
            }
            i += 16;
        }
        let lanes = [
            i32x4_extract_lane::<0>(sum),
            i32x4_extract_lane::<1>(sum),
            i32x4_extract_lane::<2>(sum),
            i32x4_extract_lane::<3>(sum),
        ];
        lanes.iter().fold(0i32, |a, &b| a.wrapping_add(b))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// splitmix64: a seeded generator, so the file needs no crate beside `std`.
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        }

        fn below(&mut self, n: usize) -> usize {
            (self.next() % n as u64) as usize
        }
    }

    /// Rows added and rows taken.
    type Rows<'a> = (&'a [&'a [i16]], &'a [&'a [i16]]);

    /// The path this build and processor should take.
    fn expected_path() -> &'static str {
        if cfg!(target_arch = "aarch64") {
            "NEON"
        } else if cfg!(all(target_arch = "wasm32", target_feature = "simd128")) {
            "simd128"
        } else if avx512_available() {
            "AVX-512"
        } else if avx2_available() {
            "AVX2"
        } else {
            "portable"
        }
    }

    #[test]
    fn the_path_of_this_build_gives_the_portable_integers() {
        // The dispatching functions take the path of this processor and build, so the test
        // fails if a build silently falls back to the portable loops.
        assert_eq!(path(), expected_path());
        eprintln!("the {} path against the portable one", path());
        let mut rng = Rng(5);
        let extremes = [
            i16::MIN,
            -32767,
            -256,
            -1,
            0,
            1,
            127,
            128,
            255,
            256,
            i16::MAX,
        ];
        for round in 0..200 {
            let n = 16 * (1 + rng.below(19));
            // Small values, and now and then any value or only the extremes (wrapping must
            // match too).
            let mut v = || -> Vec<i16> {
                (0..n)
                    .map(|_| match round % 4 {
                        0 => rng.next() as i16,
                        1 => extremes[rng.below(extremes.len())],
                        _ => rng.below(1200) as i16 - 600,
                    })
                    .collect()
            };
            let (src, a, s1, s2, w) = (v(), v(), v(), v(), v());
            // Every shape the accumulators use: a move, a capture, a threat sum, groups.
            let shapes: [Rows; 6] = [
                (&[&a], &[&s1]),
                (&[&a], &[&s1, &s2]),
                (&[&a], &[]),
                (&[], &[]),
                (&[&a, &s1, &s2, &w], &[&s2, &a]),
                (&[], &[&s1, &w, &s2]),
            ];
            for (adds, subs) in shapes {
                let (mut d1, mut d2) = (vec![0i16; n], vec![0i16; n]);
                apply(&mut d1, &src, adds, subs);
                portable::apply(&mut d2, &src, adds, subs);
                assert_eq!(d1, d2);
                let mut d3 = src.clone();
                apply_in_place(&mut d3, adds, subs);
                assert_eq!(d3, d2);
            }
            let summed: Vec<i16> = src
                .iter()
                .zip(&a)
                .map(|(x, y)| x.wrapping_add(*y))
                .collect();
            for qa in [255i16, 127, i16::MAX] {
                assert_eq!(screlu_dot(&src, &w, qa), portable::screlu_dot(&src, &w, qa));
                let apart = portable::screlu_dot(&summed, &w, qa);
                assert_eq!(screlu_dot_sum(&src, &a, &w, qa), apart);
                assert_eq!(portable::dot::<true>(&src, &a, &w, qa), apart);
            }
            #[cfg(target_arch = "x86_64")]
            x86_paths_agree(&src, &a, &s1, &s2, &w);
        }
    }

    /// On x86-64, both paths the processor has (the dispatch took only the widest).
    #[cfg(target_arch = "x86_64")]
    fn x86_paths_agree(src: &[i16], a: &[i16], s1: &[i16], s2: &[i16], w: &[i16]) {
        let n = src.len();
        let mut want = vec![0i16; n];
        portable::apply(&mut want, src, &[a], &[s1, s2]);
        if avx2_available() {
            let mut d = vec![0i16; n];
            // SAFETY: AVX2 is present and all slices have n elements, a multiple of 16.
            unsafe { avx2::apply(&mut d, src, &[a], &[s1, s2]) };
            assert_eq!(d, want);
            // SAFETY: as above.
            let x = unsafe { avx2::screlu_dot(src, w, 255) };
            assert_eq!(x, portable::screlu_dot(src, w, 255));
        }
        if avx512_available() {
            let mut d = vec![0i16; n];
            // SAFETY: AVX-512 F and BW are present and all slices have n elements, a multiple
            // of 16 (odd multiples test the 16-lane tail).
            unsafe { avx512::apply(&mut d, src, &[a], &[s1, s2]) };
            assert_eq!(d, want);
            let mut d = src.to_vec();
            // SAFETY: as above.
            unsafe { avx512::apply_in_place(&mut d, &[a], &[s1, s2]) };
            assert_eq!(d, want);
            for qa in [255i16, i16::MAX] {
                // SAFETY: as above.
                let x = unsafe { avx512::dot::<false>(src, src, w, qa) };
                assert_eq!(x, portable::screlu_dot(src, w, qa));
                // SAFETY: as above.
                let y = unsafe { avx512::dot::<true>(src, a, w, qa) };
                assert_eq!(y, portable::dot::<true>(src, a, w, qa));
            }
        }
    }
}
