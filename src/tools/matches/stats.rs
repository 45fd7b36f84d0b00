//! Match statistics: score, Elo difference with a 95% interval, likelihood of superiority, and
//! the SPRT.
//!
//! Elo comes from the score fraction with the logistic model (`s = 1 / (1 + 10^(−elo/400))`);
//! its interval maps the normal 95% interval of the mean score (per-game trinomial variance)
//! through the same model, as cutechess does. The SPRT is fishtest's generalised SPRT on
//! trinomial results (Van den Bergh): the log-likelihood ratio of the maximum-likelihood
//! win/draw/loss distributions whose expected scores are s0 and s1 (the scores of elo0 and elo1
//! in the logistic model), with bounds `ln(β/(1−α))` and `ln((1−β)/α)`. It stays well-behaved
//! on one-sided results (all wins, all draws). With no wins or no losses the Elo is
//! infinite and shown as `inf`.

/// Wins, draws and losses from the first engine's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games won by the first engine.
    pub wins: u32,
    /// Drawn games.
    pub draws: u32,
    /// Games lost by the first engine.
    pub losses: u32,
}

/// SPRT parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// Elo of the null hypothesis.
    pub elo0: f64,
    /// Elo of the alternative.
    pub elo1: f64,
    /// False positive rate.
    pub alpha: f64,
    /// False negative rate.
    pub beta: f64,
}

/// An SPRT decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// H0 accepted (the change is not better than elo0).
    H0,
    /// H1 accepted (the change is at least elo1).
    H1,
}

fn expected_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

fn elo_of(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

/// The error function (Abramowitz and Stegun 7.1.26, |error| < 1.5e-7).
fn erf(x: f64) -> f64 {
    let t = 1.0 / (1.0 + 0.327_591_1 * x.abs());
    let poly = t
        * (0.254_829_592
            + t * (-0.284_496_736
                + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    let y = 1.0 - poly * (-x * x).exp();
    if x < 0.0 {
        -y
    } else {
        y
    }
}

/// The Lagrange multiplier `x` of the maximum-likelihood distribution with mean score `s`
/// closest to `p` (pairs of score and probability): `p_i(s) = p_i / (1 + x (a_i − s))`, where
/// `Σ p_i (a_i − s) / (1 + x (a_i − s)) = 0`. The sum falls with `x`, from +∞ to −∞ over the
/// interval where every denominator is positive; bisection finds the root. `s` must lie
/// strictly between the smallest and largest score.
fn mle_multiplier(p: &[(f64, f64)], s: f64) -> f64 {
    let amax = p.iter().map(|&(a, _)| a).fold(f64::MIN, f64::max);
    let amin = p.iter().map(|&(a, _)| a).fold(f64::MAX, f64::min);
    let (mut lo, mut hi) = (-1.0 / (amax - s), -1.0 / (amin - s));
    let f = |x: f64| -> f64 {
        p.iter()
            .map(|&(a, pi)| pi * (a - s) / (1.0 + x * (a - s)))
            .sum()
    };
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

/// Formats an Elo value: one decimal, `inf`/`-inf` when unbounded, never `-0.0`.
pub fn fmt_elo(v: f64) -> String {
    if v.is_nan() {
        "nan".into()
    } else if v.is_infinite() {
        if v > 0.0 { "inf" } else { "-inf" }.into()
    } else {
        format!("{:.1}", v + 0.0)
    }
}

impl Tally {
    /// Number of games.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Score fraction of the first engine (0.5 with no games).
    pub fn score(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            return 0.5;
        }
        (self.wins as f64 + 0.5 * self.draws as f64) / n as f64
    }

    fn variance(&self) -> f64 {
        let n = self.games() as f64;
        let s = self.score();
        if n == 0.0 {
            return 0.0;
        }
        (self.wins as f64 * (1.0 - s).powi(2)
            + self.draws as f64 * (0.5 - s).powi(2)
            + self.losses as f64 * s.powi(2))
            / n
    }

    /// Elo difference and the half-width of its 95% interval (infinite when unbounded).
    pub fn elo(&self) -> (f64, f64) {
        let n = self.games() as f64;
        if n == 0.0 {
            return (0.0, 0.0);
        }
        let s = self.score();
        let se = (self.variance() / n).sqrt();
        let lo = elo_of(s - 1.959964 * se);
        let hi = elo_of(s + 1.959964 * se);
        let err = if lo.is_finite() && hi.is_finite() {
            (hi - lo) / 2.0
        } else {
            f64::INFINITY
        };
        (elo_of(s), err)
    }

    /// Likelihood of superiority of the first engine, in [0, 1] (draws ignored).
    pub fn los(&self) -> f64 {
        let decisive = f64::from(self.wins + self.losses);
        if decisive == 0.0 {
            return 0.5;
        }
        0.5 * (1.0 + erf((f64::from(self.wins) - f64::from(self.losses)) / (2.0 * decisive).sqrt()))
    }

    /// Fraction of drawn games.
    pub fn draw_ratio(&self) -> f64 {
        match self.games() {
            0 => 0.0,
            n => f64::from(self.draws) / f64::from(n),
        }
    }

    /// Log-likelihood ratio of H1 against H0 (0 with no games): fishtest's trinomial GSPRT.
    /// The empirical win/draw/loss distribution (zero counts regularised to 0.001) is projected
    /// onto the distributions with expected score s0 and s1 by maximum likelihood, and the LLR
    /// is `N Σ p̂ ln(p1 / p0)` over the three outcomes.
    pub fn llr(&self, sprt: &Sprt) -> f64 {
        let n = f64::from(self.games());
        if n == 0.0 {
            return 0.0;
        }
        let reg = |c: u32| if c == 0 { 1e-3 } else { f64::from(c) };
        let counts = [
            (1.0, reg(self.wins)),
            (0.5, reg(self.draws)),
            (0.0, reg(self.losses)),
        ];
        let total: f64 = counts.iter().map(|&(_, c)| c).sum();
        let p: Vec<(f64, f64)> = counts.iter().map(|&(a, c)| (a, c / total)).collect();
        let (s0, s1) = (expected_score(sprt.elo0), expected_score(sprt.elo1));
        let (x0, x1) = (mle_multiplier(&p, s0), mle_multiplier(&p, s1));
        n * p
            .iter()
            .map(|&(a, pi)| pi * ((1.0 + x0 * (a - s0)).ln() - (1.0 + x1 * (a - s1)).ln()))
            .sum::<f64>()
    }

    /// The SPRT decision, if the LLR left its bounds.
    pub fn decide(&self, sprt: &Sprt) -> Option<Decision> {
        let (lo, hi) = sprt.bounds();
        let llr = self.llr(sprt);
        if llr >= hi {
            Some(Decision::H1)
        } else if llr <= lo {
            Some(Decision::H0)
        } else {
            None
        }
    }
}

/// Why an SPRT spec (`--sprt`) was refused; each carries the spec as given.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SprtError {
    /// Not two or four comma-separated numbers.
    #[error("bad --sprt '{0}': expected ELO0,ELO1[,ALPHA,BETA]")]
    Syntax(String),
    /// The numbers do not make a test.
    #[error("bad --sprt '{0}': need ELO0 < ELO1 and 0 < ALPHA, BETA < 0.5")]
    Range(String),
}

impl Sprt {
    /// Parses `ELO0,ELO1[,ALPHA,BETA]` (alpha and beta default to 0.05).
    pub fn parse(s: &str) -> Result<Sprt, SprtError> {
        let v: Vec<f64> = s
            .split(',')
            .map(|x| x.trim().parse::<f64>())
            .collect::<Result<_, _>>()
            .map_err(|_| SprtError::Syntax(s.to_string()))?;
        let sprt = match v.as_slice() {
            [e0, e1] => Sprt {
                elo0: *e0,
                elo1: *e1,
                alpha: 0.05,
                beta: 0.05,
            },
            [e0, e1, a, b] => Sprt {
                elo0: *e0,
                elo1: *e1,
                alpha: *a,
                beta: *b,
            },
            _ => return Err(SprtError::Syntax(s.to_string())),
        };
        if sprt.elo0 >= sprt.elo1
            || !(0.0..0.5).contains(&sprt.alpha)
            || !(0.0..0.5).contains(&sprt.beta)
            || sprt.alpha == 0.0
            || sprt.beta == 0.0
        {
            return Err(SprtError::Range(s.to_string()));
        }
        Ok(sprt)
    }

    /// (lower, upper) LLR bounds.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_and_sprt() {
        let even = Tally {
            wins: 10,
            draws: 10,
            losses: 10,
        };
        assert!(even.elo().0.abs() < 1e-9);
        assert!((even.los() - 0.5).abs() < 1e-9);
        assert!((even.draw_ratio() - 1.0 / 3.0).abs() < 1e-9);
        let sweep = Tally {
            wins: 3,
            draws: 0,
            losses: 0,
        };
        assert_eq!(fmt_elo(sweep.elo().0), "inf");
        assert_eq!(fmt_elo(sweep.elo().1), "inf");
        assert_eq!(fmt_elo(-0.0), "0.0");
        assert!(sweep.los() > 0.95 && sweep.los() < 0.97, "{}", sweep.los());
        let sprt = Sprt::parse("0,10").unwrap();
        let all_wins = Tally {
            wins: 40,
            draws: 0,
            losses: 0,
        };
        // Each win is worth ln(s1 / s0): 40 of them do not separate 0 from 10 Elo (1.13), but
        // they do separate 0 from 50 (5.3).
        assert_eq!(all_wins.decide(&sprt), None);
        assert_eq!(
            all_wins.decide(&Sprt::parse("0,50").unwrap()),
            Some(Decision::H1)
        );
        let all_draws = Tally {
            wins: 0,
            draws: 400,
            losses: 0,
        };
        assert_eq!(all_draws.decide(&sprt), Some(Decision::H0));
        assert!((erf(1.0) - 0.842_700_79).abs() < 1e-6);
        let one_win = Tally {
            wins: 1,
            draws: 0,
            losses: 0,
        };
        let sprt50 = Sprt::parse("0,50").unwrap();
        let l = one_win.llr(&sprt50);
        // One win is worth about ln(s1 / s0) = 0.13.
        assert!(l > 0.0 && l < 0.3, "{l}");
        assert_eq!(one_win.decide(&sprt50), None);
        let good = Tally {
            wins: 60,
            draws: 20,
            losses: 20,
        };
        let (elo, err) = good.elo();
        assert!((elo - 147.2).abs() < 1.0, "{elo}");
        assert!(err > 30.0 && err < 120.0, "{err}");
        let sprt = Sprt::parse("0,10").unwrap();
        assert_eq!(good.decide(&sprt), None, "LLR {}", good.llr(&sprt));
        let good = Tally {
            wins: 300,
            draws: 100,
            losses: 100,
        };
        assert_eq!(good.decide(&sprt), Some(Decision::H1));
        let bad = Tally {
            wins: 100,
            draws: 100,
            losses: 300,
        };
        assert_eq!(bad.decide(&sprt), Some(Decision::H0));
        assert_eq!(
            Tally {
                wins: 1,
                draws: 0,
                losses: 1
            }
            .decide(&sprt),
            None
        );
        assert!(Sprt::parse("5,0").is_err());
        assert!(Sprt::parse("x").is_err());
        assert_eq!(Sprt::parse("0,5,0.1,0.2").unwrap().beta, 0.2);
    }

    #[test]
    fn bad_sprt_specs_are_named() {
        let syntax = "expected ELO0,ELO1[,ALPHA,BETA]";
        let range = "need ELO0 < ELO1 and 0 < ALPHA, BETA < 0.5";
        for (spec, why) in [
            ("x", syntax),
            ("0,5,0.05", syntax),
            ("0,,5", syntax),
            ("5,0", range),
            ("0,5,0,0.05", range),
            ("0,5,0.05,0.5", range),
        ] {
            let e = Sprt::parse(spec).unwrap_err();
            assert_eq!(e.to_string(), format!("bad --sprt '{spec}': {why}"));
        }
    }
}
