//! The option changes the driver makes (`Toggle`), the engine option each one changes (its
//! row in `OPTIONS`, which gives the names in both dialects and the default), and the deck they
//! are dealt from, so that every kind is made as often as the others.

use crate::protocol::options::{Kind, Spec, OPTIONS};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;

/// The option changes the driver makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Toggle {
    /// `Threads` 1 ↔ 2.
    Threads,
    /// `Hash` to another size.
    Hash,
    /// `MultiPV` 1–4.
    MultiPv,
    /// `Ponder` on or off (on: the driver sends `go ponder` after the engine's moves).
    Ponder,
    /// `Skill Level`: below full strength, or back to it.
    Skill,
    /// `UCI_LimitStrength` on (with a random `UCI_Elo`) or off.
    LimitStrength,
    /// `Clear Hash`.
    ClearHash,
    /// `UCI_ShowWDL` on or off.
    ShowWdl,
    /// `EvalFile` naming a missing file or one that is not a network: must be refused.
    EvalFileBad,
    /// `EvalFile` empty: the built-in network.
    EvalFileBuiltIn,
    /// `EvalFile` naming another valid network.
    EvalFileOther,
    /// `Use NNUE` on or off.
    UseNnue,
}

/// The engine options the soak sets, by their UCI names in `OPTIONS`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Opt {
    Threads,
    Hash,
    MultiPv,
    Ponder,
    Skill,
    LimitStrength,
    Elo,
    ClearHash,
    ShowWdl,
    EvalFile,
    UseNnue,
}

impl Opt {
    /// The option's row in `OPTIONS`.
    pub(super) fn spec(self) -> &'static Spec {
        let uci = match self {
            Opt::Threads => "Threads",
            Opt::Hash => "Hash",
            Opt::MultiPv => "MultiPV",
            Opt::Ponder => "Ponder",
            Opt::Skill => "Skill Level",
            Opt::LimitStrength => "UCI_LimitStrength",
            Opt::Elo => "UCI_Elo",
            Opt::ClearHash => "Clear Hash",
            Opt::ShowWdl => "UCI_ShowWDL",
            Opt::EvalFile => "EvalFile",
            Opt::UseNnue => "Use NNUE",
        };
        OPTIONS
            .iter()
            .find(|s| s.uci == Some(uci))
            .expect("every option the soak sets is a row of OPTIONS")
    }

    /// The UCI name.
    pub(super) fn uci(self) -> &'static str {
        let spec = self.spec();
        spec.uci.or(spec.ucci).unwrap_or_default()
    }

    /// The UCCI name.
    pub(super) fn ucci(self) -> &'static str {
        let spec = self.spec();
        spec.ucci.or(spec.uci).unwrap_or_default()
    }

    /// The default of a check option (false for any other).
    pub(super) fn check_default(self) -> bool {
        matches!(self.spec().kind, Kind::Check { default: true })
    }

    /// The default of a spin option (0 for any other).
    pub(super) fn spin_default(self) -> u32 {
        match self.spec().kind {
            Kind::Spin { default, .. } => u32::try_from(default).unwrap_or(0),
            _ => 0,
        }
    }
}

impl Toggle {
    /// Every kind, in report order.
    pub const ALL: [Toggle; 12] = [
        Toggle::Threads,
        Toggle::Hash,
        Toggle::MultiPv,
        Toggle::Ponder,
        Toggle::Skill,
        Toggle::LimitStrength,
        Toggle::ClearHash,
        Toggle::ShowWdl,
        Toggle::EvalFileBad,
        Toggle::EvalFileBuiltIn,
        Toggle::EvalFileOther,
        Toggle::UseNnue,
    ];

    /// The engine option it changes.
    pub(super) fn option(self) -> Opt {
        match self {
            Toggle::Threads => Opt::Threads,
            Toggle::Hash => Opt::Hash,
            Toggle::MultiPv => Opt::MultiPv,
            Toggle::Ponder => Opt::Ponder,
            Toggle::Skill => Opt::Skill,
            Toggle::LimitStrength => Opt::LimitStrength,
            Toggle::ClearHash => Opt::ClearHash,
            Toggle::ShowWdl => Opt::ShowWdl,
            Toggle::EvalFileBad | Toggle::EvalFileBuiltIn | Toggle::EvalFileOther => Opt::EvalFile,
            Toggle::UseNnue => Opt::UseNnue,
        }
    }

    /// Whether the change concerns the evaluation (and so `eval` is always checked after it).
    pub(super) fn about_eval(self) -> bool {
        self.option() == Opt::EvalFile || self == Toggle::UseNnue
    }

    /// The name in the report: the option's UCI name, and for `EvalFile` which kind of file.
    pub fn name(self) -> &'static str {
        match self {
            Toggle::EvalFileBad => "EvalFile refused",
            Toggle::EvalFileBuiltIn => "EvalFile built-in",
            Toggle::EvalFileOther => "EvalFile other",
            t => t.option().uci(),
        }
    }
}

/// A deck of option changes: every kind once, shuffled, then again, so that every kind is
/// made as often as the others.
#[derive(Default)]
pub(super) struct Deck(Vec<Toggle>);

impl Deck {
    /// The next change.
    pub(super) fn draw(&mut self, rng: &mut StdRng) -> Toggle {
        if self.0.is_empty() {
            self.0 = Toggle::ALL.to_vec();
            self.0.shuffle(rng);
        }
        self.0.pop().unwrap_or(Toggle::ClearHash)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::options::DEFAULT_HASH_MB;
    use rand::SeedableRng;

    #[test]
    fn the_deck_deals_every_kind() {
        let mut rng = StdRng::seed_from_u64(3);
        let mut deck = Deck::default();
        let mut seen: Vec<Toggle> = (0..Toggle::ALL.len())
            .map(|_| deck.draw(&mut rng))
            .collect();
        seen.sort();
        assert_eq!(seen, Toggle::ALL.to_vec());
    }

    #[test]
    fn every_option_is_a_row_of_the_table() {
        for t in Toggle::ALL {
            let o = t.option();
            assert!(!o.uci().is_empty() && !o.ucci().is_empty(), "{t:?}");
        }
        assert_eq!(Toggle::Skill.name(), "Skill Level");
        assert_eq!(Opt::Elo.ucci(), "ucielo");
        assert_eq!(i64::from(Opt::Hash.spin_default()), DEFAULT_HASH_MB);
        assert!(Opt::UseNnue.check_default() && !Opt::Ponder.check_default());
    }
}
