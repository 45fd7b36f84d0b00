//! Adam over a flat parameter vector, with weights clipped after each step, and the cosine
//! learning-rate schedule.

/// Adam's state.
pub struct Adam {
    m: Vec<f32>,
    v: Vec<f32>,
    t: i32,
    /// First-moment decay.
    pub beta1: f32,
    /// Second-moment decay.
    pub beta2: f32,
}

impl Adam {
    /// Fresh state for `n` parameters.
    pub fn new(n: usize) -> Adam {
        Adam {
            m: vec![0.0; n],
            v: vec![0.0; n],
            t: 0,
            beta1: 0.9,
            beta2: 0.999,
        }
    }

    /// The state: first and second moments and the step count.
    pub fn state(&self) -> (&[f32], &[f32], i32) {
        (&self.m, &self.v, self.t)
    }

    /// Adam from a saved state (moments of equal length).
    pub fn from_state(m: Vec<f32>, v: Vec<f32>, t: i32) -> Adam {
        Adam {
            m,
            v,
            t,
            ..Adam::new(0)
        }
    }

    /// One step of size `lr` along `grad`; the first `clipped` parameters are then kept within
    /// ±`clip`.
    pub fn step(&mut self, params: &mut [f32], grad: &[f32], lr: f32, clipped: usize, clip: f32) {
        self.step_with(params, grad, &[(params.len(), lr)], clipped, clip);
    }

    /// `step` with a rate per range of parameters: `rates` holds `(end, lr)` pairs with
    /// ascending ends, the last at least `params.len()`; parameter `i` steps by the `lr` of the
    /// first pair whose `end` exceeds `i`.
    pub fn step_with(
        &mut self,
        params: &mut [f32],
        grad: &[f32],
        rates: &[(usize, f32)],
        clipped: usize,
        clip: f32,
    ) {
        self.t += 1;
        let c1 = 1.0 - self.beta1.powi(self.t);
        let c2 = 1.0 - self.beta2.powi(self.t);
        let (b1, b2) = (self.beta1, self.beta2);
        let mut rates = rates.iter().copied();
        let (mut end, mut lr) = rates.next().unwrap_or((usize::MAX, 0.0));
        for (i, ((p, &g), (m, v))) in params
            .iter_mut()
            .zip(grad)
            .zip(self.m.iter_mut().zip(self.v.iter_mut()))
            .enumerate()
        {
            while i >= end {
                (end, lr) = rates.next().unwrap_or((usize::MAX, 0.0));
            }
            if g == 0.0 && *m == 0.0 {
                continue; // an input never seen yet: nothing to do
            }
            *m = b1 * *m + (1.0 - b1) * g;
            *v = b2 * *v + (1.0 - b2) * g * g;
            *p -= lr * (*m / c1) / ((*v / c2).sqrt() + 1e-8);
            if i < clipped {
                *p = p.clamp(-clip, clip);
            }
        }
    }
}

/// Cosine decay from `lr` to `lr · floor` over `progress` ∈ [0, 1].
pub fn cosine(lr: f32, floor: f32, progress: f32) -> f32 {
    let p = progress.clamp(0.0, 1.0);
    lr * (floor + (1.0 - floor) * 0.5 * (1.0 + (std::f32::consts::PI * p).cos()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adam_minimises_a_quadratic_and_clips() {
        let mut p = vec![3.0f32, -2.0, 5.0];
        let mut adam = Adam::new(3);
        for _ in 0..2000 {
            let g: Vec<f32> = p.iter().map(|&x| 2.0 * (x - 1.0)).collect();
            adam.step(&mut p, &g, 0.01, 2, 1.5);
        }
        assert!(
            (p[0] - 1.0).abs() < 0.01 && (p[1] - 1.0).abs() < 0.01,
            "{p:?}"
        );
        assert!((p[2] - 1.0).abs() < 0.01);
        let mut q = vec![0.0f32];
        let mut adam = Adam::new(1);
        for _ in 0..500 {
            adam.step(&mut q, &[-1.0], 0.1, 1, 0.5);
        }
        assert_eq!(q[0], 0.5);
        // Rates per range: the first parameter frozen, the second moving.
        let mut r = vec![3.0f32, 3.0];
        let mut adam = Adam::new(2);
        for _ in 0..2000 {
            let g: Vec<f32> = r.iter().map(|&x| 2.0 * (x - 1.0)).collect();
            adam.step_with(&mut r, &g, &[(1, 0.0), (2, 0.01)], 0, 0.0);
        }
        assert_eq!(r[0], 3.0);
        assert!((r[1] - 1.0).abs() < 0.01, "{r:?}");
        assert_eq!(cosine(1.0, 0.1, 0.0), 1.0);
        assert!((cosine(1.0, 0.1, 1.0) - 0.1).abs() < 1e-6);
    }
}
