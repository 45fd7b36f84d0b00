//! The network in floating point, as the trainer sees it: the same architecture as
//! `eval::nnue::network` (the inputs of a feature set → H per perspective, SCReLU, side to move
//! first, output buckets by piece count), one flat parameter vector, forward and backward passes for one entry, and
//! quantization into the engine's format.
//!
//! Output unit: one unit is `SCALE` centipawns, so with `K = SCALE` the predicted win
//! probability is `sigmoid(y)`.
//!
//! King-bucket models train with a factoriser: beside the rows of every bucket, one shared row
//! per plain input, added to each bucket's row of that input. What all buckets have in common
//! is then learnt from every position, and only the differences per bucket from that bucket's
//! positions; the quantized network holds the sums. A plain network to start from becomes the
//! shared rows, with every bucket's own rows zero.

use super::data::{Entry, Inputs};
use crate::board::{Color, Position};
use crate::eval::nnue::features::{all_active, Features, INPUTS};
use crate::eval::nnue::network::{bucket, Network, NetworkError};
use rand::{Rng, SeedableRng};

/// Feature transformer scale of the quantized network.
pub const QA: i16 = 255;
/// Output layer scale of the quantized network.
pub const QB: i16 = 64;
/// Centipawns per unit of network output.
pub const SCALE: i16 = 400;
/// Weights are kept within ±CLIP so that they quantize into i16 without overflow
/// (`CLIP · QB < 128`: the products `clamp(a) · w` then fit in i16).
pub const CLIP: f32 = 1.98;

/// A floating-point network.
#[derive(Clone, Debug)]
pub struct Model {
    /// The input features.
    pub features: Features,
    /// Hidden neurons per perspective.
    pub hidden: usize,
    /// Output buckets.
    pub buckets: usize,
    /// All parameters: feature weights `[inputs][H]`, the factoriser's shared rows
    /// `[factor_rows][H]`, feature biases `[H]`, output weights `[B][2H]`, output biases `[B]`.
    pub params: Vec<f32>,
}

/// Scratch space of one forward pass, reused for the backward pass.
pub struct Scratch {
    us: Vec<f32>,
    them: Vec<f32>,
    delta: Vec<f32>,
    /// The active inputs of the entry at hand.
    pub inputs: Inputs,
}

impl Scratch {
    /// Scratch for a model of `hidden` neurons.
    pub fn new(hidden: usize) -> Scratch {
        Scratch {
            us: vec![0.0; hidden],
            them: vec![0.0; hidden],
            delta: vec![0.0; hidden],
            inputs: Inputs::default(),
        }
    }
}

#[inline(always)]
fn screlu(x: f32) -> f32 {
    let c = x.clamp(0.0, 1.0);
    c * c
}

impl Model {
    /// A model with seeded random initial weights.
    pub fn new(features: Features, hidden: usize, buckets: usize, seed: u64) -> Model {
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
        let mut m = Model::zeros(features, hidden, buckets);
        m.randomize_inputs(0, &mut rng);
        let a = 1.0 / ((2 * hidden) as f32).sqrt();
        let out = m.out_offset();
        for w in &mut m.params[out..out + buckets * 2 * hidden] {
            *w = rng.random_range(-a..a);
        }
        m
    }

    /// Small random input weights and biases for neurons `from..H`. With a factoriser only the
    /// shared rows (and the threat rows) are drawn and the buckets' own rows stay zero: the
    /// neurons start as a plain model's.
    fn randomize_inputs(&mut self, from: usize, rng: &mut rand::rngs::StdRng) {
        let h = self.hidden;
        // With a factoriser the buckets' piece rows stay zero; threat rows are drawn.
        let first = if self.factor_rows() > 0 {
            self.features.piece_inputs()
        } else {
            0
        };
        let rows = self.features.inputs() + self.factor_rows();
        for r in first..rows {
            for w in &mut self.params[r * h + from..(r + 1) * h] {
                *w = rng.random_range(-0.1..0.1);
            }
        }
        let ft = self.bias_offset();
        for b in &mut self.params[ft + from..ft + h] {
            *b = rng.random_range(0.0..0.2);
        }
    }

    /// A model with every parameter zero.
    pub fn zeros(features: Features, hidden: usize, buckets: usize) -> Model {
        let mut m = Model {
            features,
            hidden,
            buckets,
            params: Vec::new(),
        };
        m.params = vec![0.0; m.out_bias_offset() + buckets];
        m
    }

    /// Shared rows of the factoriser: one per plain input for king buckets, none otherwise.
    fn factor_rows(&self) -> usize {
        if self.features.king_relative() {
            INPUTS
        } else {
            0
        }
    }

    /// The shared row of input `f`, if the model has a factoriser and `f` is a piece input.
    #[inline(always)]
    fn factor_of(&self, f: usize) -> Option<usize> {
        (self.features.king_relative() && f < self.features.piece_inputs())
            .then(|| self.features.inputs() + f % INPUTS)
    }

    fn bias_offset(&self) -> usize {
        (self.features.inputs() + self.factor_rows()) * self.hidden
    }

    fn out_offset(&self) -> usize {
        self.bias_offset() + self.hidden
    }

    fn out_bias_offset(&self) -> usize {
        self.out_offset() + self.buckets * 2 * self.hidden
    }

    /// Where the threat inputs' rows are in `params` (empty without threat inputs).
    pub fn threat_rows(&self) -> std::ops::Range<usize> {
        let h = self.hidden;
        self.features.piece_inputs() * h..self.features.inputs() * h
    }

    /// Zeroes the lanes from `width` on of every threat row (`None`: keeps them all).
    pub fn narrow_threats(&mut self, width: Option<usize>) {
        let (h, rows) = (self.hidden, self.threat_rows());
        let Some(w) = width.filter(|&w| w < h) else {
            return;
        };
        for row in self.params[rows].chunks_exact_mut(h) {
            row[w..].fill(0.0);
        }
    }

    /// Number of parameters below which weights are clipped to ±`CLIP` (all but the output
    /// biases).
    pub fn clipped(&self) -> usize {
        self.out_bias_offset()
    }

    /// The network output for the entry `e` (units of `SCALE` centipawns); fills `s`.
    pub fn forward_entry(&self, e: &Entry, s: &mut Scratch) -> f32 {
        let mut inputs = std::mem::take(&mut s.inputs);
        e.inputs(self.features, &mut inputs);
        let y = self.forward(&inputs.us, &inputs.them, inputs.pieces, s);
        s.inputs = inputs;
        y
    }

    /// The network output for the active inputs `us` and `them` with `pieces` pieces on the
    /// board (units of `SCALE` centipawns); fills `s`.
    pub fn forward(&self, us: &[u16], them: &[u16], pieces: usize, s: &mut Scratch) -> f32 {
        let h = self.hidden;
        let bias = &self.params[self.bias_offset()..self.bias_offset() + h];
        for (acc, feats) in [(&mut s.us, us), (&mut s.them, them)] {
            acc.copy_from_slice(bias);
            for &f in feats {
                let f = f as usize;
                for r in std::iter::once(f).chain(self.factor_of(f)) {
                    let row = &self.params[r * h..(r + 1) * h];
                    for (a, &w) in acc.iter_mut().zip(row) {
                        *a += w;
                    }
                }
            }
        }
        let b = bucket(pieces, self.buckets);
        let w = &self.params[self.out_offset() + b * 2 * h..self.out_offset() + (b + 1) * 2 * h];
        let mut y = self.params[self.out_bias_offset() + b];
        for (i, &a) in s.us.iter().enumerate() {
            y += screlu(a) * w[i];
        }
        for (i, &a) in s.them.iter().enumerate() {
            y += screlu(a) * w[h + i];
        }
        y
    }

    /// Squared error of entry `e` against its target; adds the gradient of that error to
    /// `grad` (the parameters' layout).
    pub fn backward(&self, e: &Entry, k: f32, wdl: f32, s: &mut Scratch, grad: &mut [f32]) -> f32 {
        let h = self.hidden;
        let y = self.forward_entry(e, s);
        let pieces = s.inputs.pieces;
        let scale = SCALE as f32 / k;
        let p = 1.0 / (1.0 + (-y * scale).exp());
        let t = e.target(k, wdl);
        let g = 2.0 * (p - t) * p * (1.0 - p) * scale;
        let b = bucket(pieces, self.buckets);
        let out = self.out_offset() + b * 2 * h;
        grad[self.out_bias_offset() + b] += g;
        let bias = self.bias_offset();
        let Scratch {
            us,
            them,
            delta,
            inputs,
        } = s;
        for (half, (acc, feats)) in [(&*us, &inputs.us), (&*them, &inputs.them)]
            .into_iter()
            .enumerate()
        {
            let w = &self.params[out + half * h..out + (half + 1) * h];
            let gw = &mut grad[out + half * h..out + (half + 1) * h];
            for i in 0..h {
                let a = acc[i];
                gw[i] += g * screlu(a);
                delta[i] = if a > 0.0 && a < 1.0 {
                    g * w[i] * 2.0 * a
                } else {
                    0.0
                };
            }
            for (gb, &d) in grad[bias..bias + h].iter_mut().zip(delta.iter()) {
                *gb += d;
            }
            for &f in feats {
                let f = f as usize;
                for r in std::iter::once(f).chain(self.factor_of(f)) {
                    let row = &mut grad[r * h..(r + 1) * h];
                    for (gr, &d) in row.iter_mut().zip(delta.iter()) {
                        *gr += d;
                    }
                }
            }
        }
        (p - t) * (p - t)
    }

    /// The float evaluation of `pos` in centipawns from the side to move's view.
    pub fn evaluate(&self, pos: &Position) -> f32 {
        let us_side = pos.side_to_move();
        let them_side: Color = !us_side;
        let active = |side| -> Vec<u16> {
            all_active(self.features, pos, side)
                .into_iter()
                .map(|i| i as u16)
                .collect()
        };
        let (us, them) = (active(us_side), active(them_side));
        let mut s = Scratch::new(self.hidden);
        let pieces = pos.occupied().count() as usize;
        self.forward(&us, &them, pieces, &mut s) * SCALE as f32
    }

    /// The float model a quantized network stands for (its weights divided by their scales):
    /// the starting point when training goes on from an existing network. `None` if the
    /// network's output unit is not `SCALE` centipawns.
    pub fn from_network(net: &Network) -> Option<Model> {
        let (qa, qb, scale) = net.scales();
        if scale != SCALE {
            return None;
        }
        let (qa, qb) = (qa as f32, qb as f32);
        let mut m = Model::zeros(net.features(), net.hidden(), net.buckets());
        let rows = net.ft_weights().len();
        for (p, &x) in m.params[..rows].iter_mut().zip(net.ft_weights()) {
            *p = x as f32 / qa;
        }
        let (bias, out) = (m.bias_offset(), m.out_offset());
        for (p, &x) in m.params[bias..out].iter_mut().zip(net.ft_bias()) {
            *p = x as f32 / qa;
        }
        let (out_w, out_b) = net.output_layer();
        let out_bias = m.out_bias_offset();
        for (p, &x) in m.params[out..out_bias].iter_mut().zip(out_w) {
            *p = x as f32 / qb;
        }
        for (p, &x) in m.params[out_bias..].iter_mut().zip(out_b) {
            *p = x as f32 / (qa * qb);
        }
        Some(m)
    }

    /// This model with the inputs of `features`: the same; a plain model grown into king
    /// buckets (its rows become the factoriser's shared rows, every bucket's own rows zero, so
    /// it evaluates as before, except that the perspective of a general on file f sees its
    /// board mirrored: nearly the same for a network trained on mirrored data); or a king-bucket
    /// model given threat inputs (their rows zero, so it evaluates exactly as before). `None`
    /// for any other change.
    pub fn with_features(self, features: Features) -> Option<Model> {
        if features == self.features {
            return Some(self);
        }
        let mut m = Model::zeros(features, self.hidden, self.buckets);
        let h = self.hidden;
        match (self.features, features) {
            (Features::Plain, Features::KingBuckets) => {
                let shared = m.features.inputs() * h;
                let rows = self.bias_offset();
                m.params[shared..shared + rows].copy_from_slice(&self.params[..rows]);
            }
            (Features::KingBuckets, Features::Threats | Features::ThreatKinds) => {
                let pieces = self.features.inputs() * h;
                m.params[..pieces].copy_from_slice(&self.params[..pieces]);
                let shared = m.features.inputs() * h;
                m.params[shared..shared + INPUTS * h]
                    .copy_from_slice(&self.params[pieces..pieces + INPUTS * h]);
            }
            _ => return None,
        }
        let rest = m.bias_offset();
        m.params[rest..].copy_from_slice(&self.params[self.bias_offset()..]);
        Some(m)
    }

    /// This model with `hidden` neurons and `buckets` output buckets, evaluating as before: the
    /// new neurons get small random input weights (in the shared rows, with a factoriser),
    /// random biases and zero output weights, so they start silent and learn from there; a
    /// one-bucket output layer is copied into every bucket. `None` if `hidden` is smaller than
    /// the model's, or the buckets change from more than one.
    pub fn widened(self, hidden: usize, buckets: usize, seed: u64) -> Option<Model> {
        let (h0, b0) = (self.hidden, self.buckets);
        if (hidden, buckets) == (h0, b0) {
            return Some(self);
        }
        if hidden < h0 || (buckets != b0 && b0 != 1) {
            return None;
        }
        let mut m = Model::zeros(self.features, hidden, buckets);
        // Every row of input weights, then the biases (the row after the last).
        for r in 0..=self.features.inputs() + self.factor_rows() {
            m.params[r * hidden..r * hidden + h0]
                .copy_from_slice(&self.params[r * h0..(r + 1) * h0]);
        }
        m.randomize_inputs(h0, &mut rand::rngs::StdRng::seed_from_u64(seed));
        for b in 0..buckets {
            let from = if b0 == 1 { 0 } else { b };
            let src = self.out_offset() + from * 2 * h0;
            let dst = m.out_offset() + b * 2 * hidden;
            for half in 0..2 {
                let (s, d) = (src + half * h0, dst + half * hidden);
                m.params[d..d + h0].copy_from_slice(&self.params[s..s + h0]);
            }
            let out_bias = m.out_bias_offset() + b;
            m.params[out_bias] = self.params[self.out_bias_offset() + from];
        }
        Some(m)
    }

    /// The quantized network (weights rounded to QA and QB units; with a factoriser, each
    /// bucket's rows plus the shared rows).
    pub fn quantize(&self) -> Result<Network, NetworkError> {
        let q16 = |x: f32, s: f32| (x * s).round().clamp(i16::MIN as f32, i16::MAX as f32) as i16;
        let (qa, qb) = (QA as f32, QB as f32);
        let p = &self.params;
        let h = self.hidden;
        let ft: Vec<i16> = (0..self.features.inputs() * h)
            .map(|i| {
                let shared = self.factor_of(i / h).map_or(0.0, |r| p[r * h + i % h]);
                q16(p[i] + shared, qa)
            })
            .collect();
        Network::from_parts(
            self.features,
            self.hidden,
            self.buckets,
            (QA, QB, SCALE),
            ft,
            p[self.bias_offset()..self.out_offset()]
                .iter()
                .map(|&x| q16(x, qa))
                .collect(),
            p[self.out_offset()..self.out_bias_offset()]
                .iter()
                .map(|&x| q16(x, qb))
                .collect(),
            p[self.out_bias_offset()..]
                .iter()
                .map(|&x| (x * qa * qb).round() as i32)
                .collect(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plain_model_grown_into_king_buckets_evaluates_the_same() {
        let plain = Model::new(Features::Plain, 32, 2, 5);
        let king = plain.clone().with_features(Features::KingBuckets).unwrap();
        assert_eq!(king.features, Features::KingBuckets);
        assert!(king.clone().with_features(Features::Plain).is_none());
        let positions = [
            Position::startpos(),
            "3k5/4a4/4b4/p8/9/6R2/P8/4B4/4K4/9 w".parse().unwrap(),
            "4ka3/9/4b4/9/2p6/9/9/4B4/3cA4/4K4 b".parse().unwrap(),
        ];
        let (pn, kn) = (plain.quantize().unwrap(), king.quantize().unwrap());
        for pos in &positions {
            assert!((plain.evaluate(pos) - king.evaluate(pos)).abs() < 1e-3);
            let pn =
                crate::eval::nnue::accumulator::evaluate(&std::sync::Arc::new(pn.clone()), pos);
            let kn =
                crate::eval::nnue::accumulator::evaluate(&std::sync::Arc::new(kn.clone()), pos);
            assert_eq!(pn, kn);
        }
        // Widened, the king-bucket network still evaluates the same, through the engine's
        // quantized path too; a one-bucket network splits into buckets the same way. Neither
        // shrinks, and buckets do not re-split.
        let one = Model::new(Features::Plain, 32, 1, 6);
        for (before, (hidden, buckets)) in [(king.clone(), (64, 2)), (one, (48, 3))] {
            let wide = before.clone().widened(hidden, buckets, 9).unwrap();
            assert_eq!((wide.hidden, wide.buckets), (hidden, buckets));
            let (bn, wn) = (before.quantize().unwrap(), wide.quantize().unwrap());
            for pos in &positions {
                assert!((before.evaluate(pos) - wide.evaluate(pos)).abs() < 1e-3);
                let e = |n: &Network| {
                    crate::eval::nnue::accumulator::evaluate(&std::sync::Arc::new(n.clone()), pos)
                };
                assert_eq!(e(&bn), e(&wn));
            }
            assert!(wide.clone().widened(hidden - 16, buckets, 9).is_none());
            assert!(wide.widened(hidden, buckets + 1, 9).is_none());
        }
        // Given threat inputs, the king-bucket model evaluates exactly as before.
        let threats = king.clone().with_features(Features::Threats).unwrap();
        assert!(threats
            .clone()
            .with_features(Features::KingBuckets)
            .is_none());
        let tn = std::sync::Arc::new(threats.quantize().unwrap());
        assert_eq!(tn.features(), Features::Threats);
        for pos in &positions {
            assert!((threats.evaluate(pos) - king.evaluate(pos)).abs() < 1e-3);
            let k = crate::eval::nnue::accumulator::evaluate(&std::sync::Arc::new(kn.clone()), pos);
            assert_eq!(crate::eval::nnue::accumulator::evaluate(&tn, pos), k);
        }
        // Back from the file: the sums, with the shared rows zero.
        let back = Model::from_network(&kn).unwrap();
        assert_eq!(back.features, Features::KingBuckets);
        assert!((back.evaluate(&positions[1]) - king.evaluate(&positions[1])).abs() < 5.0);
    }
}
