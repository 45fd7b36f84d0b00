//! The search's tuning numbers, in one place: margins, depth limits, reduction and history
//! formulas. `Params::default()` is the search as it plays; the table (`Params::table`) gives
//! each number's name, default, range and step, so that a tuner (SPSA over matches) can set any
//! of them by name with `Params::set`.
//!
//! The values are those `chariot spsa` found in self-play at 0.333 s + 0.0033 s, all numbers
//! at once (docs/strength/stage3.md, "The search tuned by SPSA at a thirtieth"), except `qs_checks`,
//! which the mate track sets, and the squash of the network's won scores, which the peers chose
//! (self-play cannot see either). Where a number was measured on its own, its line says which
//! page of `docs/strength/` holds the match. The numbers that SPSA has not tuned yet (the
//! time allocation's but `time_moves` and `time_inc_pct`, the extensions' caps, the
//! reductions' steps, `mate_depth_*`) keep the values they had as constants before they came
//! here.

/// A number of the search could not be set.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ParamError {
    /// No search parameter has this name.
    #[error("no search parameter is called '{0}'")]
    Unknown(String),
    /// The value is outside the parameter's range (or not a number).
    #[error("{name} must be within {min}..={max}, not {value}")]
    OutOfRange {
        /// The parameter.
        name: &'static str,
        /// The value refused.
        value: f64,
        /// The smallest value allowed.
        min: f64,
        /// The largest value allowed.
        max: f64,
    },
}

/// One row of the table: a tunable number of the search.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Spec {
    /// Its name (the field of `Params`).
    pub name: &'static str,
    /// What it does (the field's documentation line).
    pub doc: &'static str,
    /// Today's value.
    pub default: f64,
    /// The smallest value allowed.
    pub min: f64,
    /// The largest value allowed.
    pub max: f64,
    /// A sensible perturbation for a tuner (SPSA's `c`).
    pub step: f64,
    /// Whether the value is a whole number (the field is an `i32`; `set` rounds).
    pub integer: bool,
}

/// A field type of `Params`.
trait Value: Copy {
    const INTEGER: bool;
    fn from_f64(v: f64) -> Self;
    fn to_f64(self) -> f64;
}

impl Value for i32 {
    const INTEGER: bool = true;
    fn from_f64(v: f64) -> i32 {
        v.round() as i32
    }
    fn to_f64(self) -> f64 {
        self as f64
    }
}

impl Value for f64 {
    const INTEGER: bool = false;
    fn from_f64(v: f64) -> f64 {
        v
    }
    fn to_f64(self) -> f64 {
        self
    }
}

macro_rules! params {
    ($(
        $(#[doc = $doc:literal])+
        $name:ident: $ty:ident = $default:literal, $min:literal..=$max:literal, step $step:literal;
    )*) => {
        /// The search's tuning numbers (see the module documentation).
        #[derive(Debug, Clone, PartialEq)]
        pub struct Params {
            $(
                $(#[doc = $doc])+
                pub $name: $ty,
            )*
        }

        impl Default for Params {
            fn default() -> Params {
                Params { $($name: $default,)* }
            }
        }

        const TABLE: &[Spec] = &[$(
            Spec {
                name: stringify!($name),
                doc: concat!($($doc),+).trim_ascii(),
                default: $default as f64,
                min: $min as f64,
                max: $max as f64,
                step: $step as f64,
                integer: <$ty as Value>::INTEGER,
            },
        )*];

        impl Params {
            /// The value of the parameter `name`, if there is one.
            pub fn get(&self, name: &str) -> Option<f64> {
                match name {
                    $(stringify!($name) => Some(self.$name.to_f64()),)*
                    _ => None,
                }
            }

            fn store(&mut self, name: &str, value: f64) {
                match name {
                    $(stringify!($name) => self.$name = <$ty as Value>::from_f64(value),)*
                    _ => {}
                }
            }
        }
    };
}

params! {
    /// Check extension: a node in check is searched a ply deeper at plies below this many
    /// times the iteration's depth…
    check_ext_mul: i32 = 2, 1..=4, step 1;
    /// …plus this many.
    check_ext_add: i32 = 8, 0..=32, step 2;
    /// Reverse futility pruning applies at this depth or less.
    rfp_depth: i32 = 2, 1..=12, step 1;
    /// Reverse futility margin per ply of depth (centipawns).
    rfp_margin: i32 = 77, 20..=300, step 8;
    /// Reverse futility: the margin is this much smaller where the evaluation is improving.
    rfp_improving: i32 = 41, 0..=200, step 6;
    /// The null move is tried at this depth or more.
    nmp_depth: i32 = 2, 1..=8, step 1;
    /// Null-move reduction: this many plies…
    nmp_base: i32 = 4, 1..=6, step 1;
    /// …plus one per this many plies of depth…
    nmp_depth_div: i32 = 4, 1..=12, step 1;
    /// …plus one per this many centipawns the evaluation exceeds beta…
    nmp_eval_div: i32 = 183, 50..=800, step 20;
    /// …but at most this many for the evaluation.
    nmp_eval_max: i32 = 2, 0..=6, step 1;
    /// Razoring applies at this depth or less.
    razor_depth: i32 = 1, 0..=6, step 1;
    /// Razoring margin per ply of depth (centipawns).
    razor_margin: i32 = 249, 50..=800, step 20;
    /// Internal iterative reduction: a node without a hash move at this depth or more is
    /// searched a ply shallower (measured in docs/strength/stage1.md, "The search re-tuned for the
    /// network", with the singular extension).
    iir_depth: i32 = 3, 2..=12, step 1;
    /// Singular extension: the hash move is tested at this depth or more (measured with the
    /// internal iterative reduction)…
    se_depth: i32 = 6, 4..=14, step 1;
    /// …at plies below this many times the iteration's depth…
    se_ply_mul: i32 = 2, 1..=4, step 1;
    /// …by a search of `(depth − 1) / se_depth_div` plies without it…
    se_depth_div: i32 = 2, 1..=4, step 1;
    /// …and extended this many plies when it is singular.
    se_extension: i32 = 1, 0..=2, step 1;
    /// …and searched this many plies shallower when it is not, yet the hash score is at
    /// least beta: another move likely cuts off too (0: off; docs/strength/stage4.md, "The
    /// hash move searched shallower").
    se_negative: i32 = 1, 0..=2, step 1;
    /// Multi-cut: 1 cuts the node where the singular test's score (not only its bound) is at
    /// least beta, as Stockfish does (0: off).
    se_multicut: i32 = 0, 0..=1, step 1;
    /// Where the singular test fails at an expected cut node whose hash score is below beta,
    /// the hash move is searched this many plies shallower (0: off).
    se_negative_cut: i32 = 0, 0..=2, step 1;
    /// Singular extension: the hash entry must be at most this many plies shallower.
    se_tt_depth: i32 = 2, 1..=6, step 1;
    /// Singular extension: the test's bound lies this many centipawns per ply of depth below
    /// the hash score.
    se_margin: i32 = 3, 1..=8, step 1;
    /// ProbCut: at a non-PV node this deep or deeper (0: off), a capture that clears
    /// `probcut_margin` above beta by static exchange and then by quiescence and a search
    /// `probcut_reduction` plies shallower is taken to cut the node, as Stockfish does…
    probcut_depth: i32 = 4, 0..=10, step 1;
    /// …with this margin above beta (centipawns)…
    probcut_margin: i32 = 150, 50..=600, step 20;
    /// …this much smaller where the evaluation is improving…
    probcut_improving: i32 = 60, 0..=200, step 10;
    /// …and its search this many plies shallower than the node.
    probcut_reduction: i32 = 4, 2..=6, step 1;
    /// Late move pruning applies at this depth or less.
    lmp_depth: i32 = 5, 1..=8, step 1;
    /// Late move pruning: quiet moves past `lmp_base + depth²` are skipped…
    lmp_base: i32 = 4, 1..=12, step 1;
    /// …or past `lmp_base + lmp_improving · depth²` where the evaluation is improving.
    lmp_improving: i32 = 2, 1..=4, step 1;
    /// Futility pruning of quiet moves applies at this depth or less.
    fut_depth: i32 = 3, 1..=8, step 1;
    /// Futility margin: this many centipawns…
    fut_base: i32 = 100, 0..=400, step 10;
    /// …plus this many per ply of depth.
    fut_margin: i32 = 84, 20..=300, step 8;
    /// Static exchange pruning applies at this depth or less (0: off; 6 gained in self-play
    /// but not against the peers, docs/strength/stage4.md, "Static exchange")…
    see_depth: i32 = 0, 0..=10, step 1;
    /// …to a capture that loses more than this many centipawns per ply of depth by static
    /// exchange (`Position::see_ge`)…
    see_capture: i32 = 100, 0..=1000, step 20;
    /// …and to a quiet move that loses more than this many per ply of depth squared.
    see_quiet: i32 = 20, 0..=200, step 4;
    /// History pruning: a quiet move whose ordering score (history and continuations) is
    /// below `−hist_prune_margin · depth` is skipped at this depth or less (0: off; 3 was
    /// tried with `see_depth` 6, the same page)…
    hist_prune_depth: i32 = 0, 0..=8, step 1;
    /// …with this margin per ply.
    hist_prune_margin: i32 = 4000, 500..=20000, step 500;
    /// A quiet move of a rook out of the attack of a lesser piece orders this much higher,
    /// one into such an attack this much lower; half as much for a horse or a cannon, a
    /// quarter for the others (`ordering::Threats`; 0: off; 32000 screened worse).
    threat_order: i32 = 16000, 0..=32000, step 1000;
    /// Late move reductions apply at this depth or more…
    lmr_depth: i32 = 2, 2..=8, step 1;
    /// …to the quiet moves after the first this many.
    lmr_moves: i32 = 2, 1..=8, step 1;
    /// Late move reduction: `lmr_base + ln(depth) · ln(move number) / lmr_div` plies…
    lmr_base: f64 = 0.6439, -1.0..=2.0, step 0.1;
    /// …with this divisor.
    lmr_div: f64 = 2.1973, 1.0..=5.0, step 0.15;
    /// Late move reduction: this many plies less at a PV node…
    lmr_pv: i32 = 1, 0..=3, step 1;
    /// …this many less for a killer or a counter-move…
    lmr_refutation: i32 = 1, 0..=3, step 1;
    /// …this many more where the evaluation is not improving…
    lmr_not_improving: i32 = 1, 0..=3, step 1;
    /// …and this many less when the null move showed a mate threat.
    lmr_threat: i32 = 2, 0..=4, step 1;
    /// Late move reduction: this many more at an expected cut node (a null-window node
    /// searched to refute its parent's move; 0: off).
    lmr_cut: i32 = 0, 0..=3, step 1;
    /// Late move reduction: one ply less (more) per this much good (bad) ordering score of a
    /// quiet move (history and continuations)…
    lmr_history_div: i32 = 7750, 1000..=32000, step 500;
    /// …at most this many plies either way.
    lmr_history_max: i32 = 2, 0..=4, step 1;
    /// Late move reduction of a capture that loses by static exchange, as a quiet move of no
    /// history: 1 on, 0 off (captures are not reduced).
    lmr_bad_captures: i32 = 0, 0..=1, step 1;
    /// History bonus on a cut-off: this many per ply of depth… (docs/strength/stage1.md, "The
    /// search re-tuned for the network": linear in depth instead of 4·d²)
    hist_bonus_mul: i32 = 132, 20..=400, step 10;
    /// …less this many…
    hist_bonus_sub: i32 = 59, 0..=400, step 10;
    /// …and at most this many.
    hist_bonus_max: i32 = 1639, 400..=4000, step 100;
    /// The malus to the moves tried before the cut-off move is this percentage of its bonus.
    hist_malus_pct: i32 = 100, 25..=200, step 5;
    /// A hash cut-off at a fail high gives its quiet hash move the cut-off's history bonus
    /// (no killer, no malus), as Stockfish does: 1 on, 0 off.
    hist_tt_cut: i32 = 0, 0..=1, step 1;
    /// Quiescence delta pruning: a capture is skipped when the stand-pat plus the victim plus
    /// this many centipawns cannot reach alpha.
    qs_delta: i32 = 231, 0..=1000, step 20;
    /// Quiescence: the hash move, when it is among the moves searched, comes first (1; 0:
    /// captures by MVV-LVA alone).
    qs_tt_move: i32 = 0, 0..=1, step 1;
    /// Quiescence: quiet moves that give check are searched in this many of a line's
    /// quiescence plies of the side that checks (0: captures only); mates by checks past the
    /// horizon are seen (docs/strength/stage3.md; 2 since "The network's won
    /// scores squashed").
    qs_checks: i32 = 2, 0..=3, step 1;
    /// The network's evaluation past this many centipawns either way is compressed
    /// (`Params::squash`): its scores in won positions run to +70 pawns, where every margin
    /// below is noise and the mating quiet move is pruned for a material line that scores
    /// higher (docs/strength/stage3.md, "The network's won scores squashed")…
    eval_knee: i32 = 600, 200..=30000, step 100;
    /// …by this divisor (1: not at all, see `Params::no_squash`).
    eval_knee_div: i32 = 8, 1..=16, step 1;
    /// A side whose static evaluation is at least this many centipawns hunts the general: its
    /// quiet moves that close the net (attack a point the enemy general could step to that
    /// the piece did not attack before) are never pruned… (docs/strength/stage3.md, "Quiet moves
    /// that close the net")
    hem_eval: i32 = 400, 0..=2000, step 50;
    /// …and reduced this many plies less.
    hem_lmr: i32 = 1, 0..=3, step 1;
    /// A quiet move that makes a threat (`negamax::threatens`) is spared as one that hems
    /// the general: 1 on, 0 off.
    threat_spare: i32 = 0, 0..=1, step 1;
    /// Aspiration windows are used from this iteration on.
    asp_depth: i32 = 4, 1..=10, step 1;
    /// Aspiration window: first half-width (centipawns), doubled at each fail.
    asp_delta: i32 = 33, 5..=200, step 4;
    /// Aspiration window: past this half-width the window opens fully.
    asp_max_delta: i32 = 1069, 100..=5000, step 100;
    /// Best-move instability decays by this factor each iteration (it stretches the time
    /// target, see `time`).
    instability_decay: f64 = 0.7203, 0.0..=1.0, step 0.05;
    /// A proven mate in p plies ends the search (unless the GUI asked for a depth) once the
    /// iteration's depth is over this many times p…
    mate_depth_mul: i32 = 2, 1..=4, step 1;
    /// …plus this many.
    mate_depth_add: i32 = 4, 0..=16, step 1;
    /// Time (see `time`): a clock without `movestogo` is shared out over this many moves…
    /// (30 again with the 50 ms reserve and `time_fall`, was 20: docs/strength/stage4.md, "The
    /// clock over 30 moves, stretched when the score falls")
    time_moves: i32 = 30, 5..=80, step 3;
    /// …and a `movestogo` over at most this many.
    time_max_moves: i32 = 50, 5..=120, step 5;
    /// Time: the hard limit is at most this many times the target…
    time_hard_mul: i32 = 5, 1..=10, step 1;
    /// …and at most the clock and the increment divided by this…
    time_hard_div: i32 = 2, 1..=8, step 1;
    /// …but it may reach the clock divided by this (into the reserve) in any case.
    time_floor_div: i32 = 8, 2..=32, step 1;
    /// Time: a move may spend this percentage of the increment… (100, was 75: the same page)
    time_inc_pct: i32 = 100, 0..=100, step 5;
    /// …but not more than the clock divided by this.
    time_inc_div: i32 = 4, 1..=16, step 1;
    /// Time: milliseconds kept back from every clock, on top of the user's `Move Overhead`,
    /// for the process's own latency on a busy machine (`time::budget`; 30, was 50: the
    /// worst move on a loaded machine used 16 ms of it and the `Move Overhead`,
    /// docs/strength/stage4.md, "A 30 ms reserve over 30 moves"; 50, was 100: "The reserve
    /// halved").
    time_reserve: i32 = 30, 0..=1000, step 10;
    /// Time: a clock also keeps back this many times the worst lag the GUI charged lately
    /// (`search::lag`: nothing on a quiet machine).
    time_lag_mul: f64 = 4.0, 0.0..=8.0, step 0.5;
    /// Time: once other work takes more than this percentage of the search's core
    /// (`search::lag::CoreShare`)…
    time_busy_taken: i32 = 15, 0..=100, step 5;
    /// …a clock keeps back this many milliseconds more, for the stalls of a busy machine
    /// (moves charged up to 200 ms beside two busy processes, docs/engine.md).
    time_busy_reserve: i32 = 200, 0..=1000, step 25;
    /// Time: the target stops no search before this iteration is done, only the hard limit
    /// does (a few milliseconds reach it on an idle core; on a machine shared with the opponent
    /// a search held up that long used to stop after one ply, at a thirtieth of a peer's clock
    /// one move in twelve).
    time_min_depth: i32 = 5, 1..=12, step 1;
    /// Time: no new iteration starts past this share of the target…
    time_soft: f64 = 0.6, 0.1..=1.0, step 0.05;
    /// …stretched by `1 + instability`, the instability counting up to this much.
    time_instability_max: f64 = 1.5, 0.0..=4.0, step 0.2;
    /// Time: the target stretches by this share per pawn the score fell since the last move
    /// (shrinks as much per pawn it rose; `time::fall_scale`; 1, was 0: the same page)…
    time_fall: f64 = 1.0, 0.0..=4.0, step 0.25;
    /// …within this factor either way.
    time_fall_max: f64 = 1.5, 1.0..=3.0, step 0.1;
    /// Time: when the best move took at least this percentage of the search's nodes, the
    /// target shrinks by `time_effort_scale` (Stockfish's node effort; 0: off)…
    time_effort: i32 = 0, 0..=100, step 2;
    /// …to this share.
    time_effort_scale: f64 = 0.76, 0.3..=1.0, step 0.04;
}

impl Params {
    /// Every tunable number: name, what it does, default, range and step.
    pub fn table() -> std::slice::Iter<'static, Spec> {
        TABLE.iter()
    }

    /// The table row of `name`, if there is one.
    pub fn spec(name: &str) -> Option<&'static Spec> {
        TABLE.iter().find(|s| s.name == name)
    }

    /// Sets the parameter `name` to `value` (rounded to a whole number for an integer one).
    /// Unknown names and values outside the parameter's range are refused, changing nothing.
    pub fn set(&mut self, name: &str, value: f64) -> Result<(), ParamError> {
        let spec = Params::spec(name).ok_or_else(|| ParamError::Unknown(name.to_string()))?;
        if !(spec.min..=spec.max).contains(&value) {
            return Err(ParamError::OutOfRange {
                name: spec.name,
                value,
                min: spec.min,
                max: spec.max,
            });
        }
        self.store(spec.name, value);
        Ok(())
    }

    /// Switches the squash off (`eval_knee_div` 1, inside its range): the search sees the
    /// network's evaluation as it is, as the labels of training data must.
    pub fn no_squash(&mut self) {
        self.eval_knee_div = 1;
    }

    /// The history bonus of a cut-off `depth` plies deep.
    #[inline]
    pub fn history_bonus(&self, depth: i32) -> i32 {
        (self.hist_bonus_mul * depth - self.hist_bonus_sub).min(self.hist_bonus_max)
    }

    /// The network's evaluation `v` (centipawns) as the search sees it: unchanged within
    /// `eval_knee` of zero, beyond it growing `eval_knee_div` times slower. Monotone, so it
    /// orders positions as the network does; only the margins see the difference.
    #[inline]
    pub fn squash(&self, v: i32) -> i32 {
        let knee = self.eval_knee;
        if v.abs() <= knee {
            v
        } else {
            v.signum() * (knee + (v.abs() - knee) / self.eval_knee_div)
        }
    }
}

/// The late move reductions, `[depth][move number]` (both clamped to 1..=63), computed once
/// from `lmr_base` and `lmr_div`.
#[derive(Clone)]
pub struct Reductions(Box<[[i8; 64]; 64]>);

impl Reductions {
    /// The table for `p`.
    pub fn new(p: &Params) -> Reductions {
        let mut t = Box::new([[0i8; 64]; 64]);
        for (d, row) in t.iter_mut().enumerate().skip(1) {
            for (m, r) in row.iter_mut().enumerate().skip(1) {
                let v = p.lmr_base + (d as f64).ln() * (m as f64).ln() / p.lmr_div;
                *r = (v as i32).clamp(i8::MIN as i32, i8::MAX as i32) as i8;
            }
        }
        Reductions(t)
    }

    /// The reduction in plies at `depth` for the `n`th move.
    #[inline]
    pub fn get(&self, depth: i32, n: usize) -> i32 {
        self.0[depth.clamp(1, 63) as usize][n.clamp(1, 63)] as i32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_matches_the_defaults() {
        let p = Params::default();
        let names: Vec<&str> = Params::table().map(|s| s.name).collect();
        let mut unique = names.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), names.len());
        for s in Params::table() {
            assert_eq!(p.get(s.name), Some(s.default), "{}", s.name);
            assert!(s.min <= s.default && s.default <= s.max, "{}", s.name);
            assert!(s.step > 0.0 && !s.doc.is_empty(), "{}", s.name);
        }
    }

    #[test]
    fn set_by_name() {
        let mut p = Params::default();
        p.set("rfp_margin", 90.4).unwrap();
        assert_eq!(p.rfp_margin, 90);
        p.set("lmr_div", 2.5).unwrap();
        assert_eq!(p.lmr_div, 2.5);
        assert!(matches!(p.set("nope", 1.0), Err(ParamError::Unknown(_))));
        assert!(matches!(
            p.set("asp_delta", 10_000.0),
            Err(ParamError::OutOfRange { .. })
        ));
        assert!(p.set("asp_delta", f64::NAN).is_err());
        assert_eq!(p.asp_delta, Params::default().asp_delta);
    }

    #[test]
    fn squash_is_monotone_and_odd() {
        let p = Params::default();
        let k = p.eval_knee;
        assert_eq!(p.squash(k), k);
        assert_eq!(p.squash(-k + 1), -k + 1);
        assert_eq!(p.squash(k + 8 * p.eval_knee_div), k + 8);
        let mut last = p.squash(-40_000);
        for v in -40_000..=40_000 {
            let s = p.squash(v);
            assert!(s >= last, "{v}");
            assert_eq!(s, -p.squash(-v), "{v}");
            assert!(s.abs() <= v.abs(), "{v}");
            last = s;
        }
    }

    #[test]
    fn the_squash_switched_off_is_the_identity_within_the_ranges() {
        let mut p = Params::default();
        p.no_squash();
        for s in Params::table() {
            let v = p.get(s.name).unwrap();
            assert!((s.min..=s.max).contains(&v), "{}: {v}", s.name);
        }
        for v in (-40_000..=40_000).step_by(7) {
            assert_eq!(p.squash(v), v);
        }
    }

    #[test]
    fn reductions_are_the_formula() {
        let mut other = Params::default();
        other.set("lmr_base", 1.25).unwrap();
        other.set("lmr_div", 3.5).unwrap();
        for p in [Params::default(), other] {
            let r = Reductions::new(&p);
            for depth in -2..70 {
                for n in 0..70usize {
                    let d = depth.clamp(1, 63) as f64;
                    let m = n.clamp(1, 63) as f64;
                    let formula = p.lmr_base + d.ln() * m.ln() / p.lmr_div;
                    assert_eq!(r.get(depth, n), formula as i32);
                }
            }
        }
    }
}
