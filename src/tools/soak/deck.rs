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

/// An engine option the soak sets: its row in `OPTIONS`.
#[derive(Clone, Copy)]
pub(super) struct Opt(&'static Spec);

impl Opt {
    /// The option whose UCI name is `uci`.
    pub(super) fn named(uci: &str) -> Opt {
        Opt(OPTIONS
            .iter()
            .find(|s| s.uci == Some(uci))
            .expect("every option the soak sets is a row of OPTIONS"))
    }

    /// `UCI_Elo`, set with `UCI_LimitStrength`.
    pub(super) fn elo() -> Opt {
        Opt::named("UCI_Elo")
    }

    /// The UCI name.
    pub(super) fn uci(self) -> &'static str {
        self.0.uci.or(self.0.ucci).unwrap_or_default()
    }

    /// The UCCI name.
    pub(super) fn ucci(self) -> &'static str {
        self.0.ucci.or(self.0.uci).unwrap_or_default()
    }

    /// The default of a check option (false for any other).
    pub(super) fn check_default(self) -> bool {
        matches!(self.0.kind, Kind::Check { default: true })
    }

    /// The default of a spin option (0 for any other).
    pub(super) fn spin_default(self) -> u32 {
        match self.0.kind {
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
        Opt::named(match self {
            Toggle::Threads => "Threads",
            Toggle::Hash => "Hash",
            Toggle::MultiPv => "MultiPV",
            Toggle::Ponder => "Ponder",
            Toggle::Skill => "Skill Level",
            Toggle::LimitStrength => "UCI_LimitStrength",
            Toggle::ClearHash => "Clear Hash",
            Toggle::ShowWdl => "UCI_ShowWDL",
            Toggle::EvalFileBad | Toggle::EvalFileBuiltIn | Toggle::EvalFileOther => "EvalFile",
            Toggle::UseNnue => "Use NNUE",
        })
    }

    /// Whether the change concerns the evaluation (and so `eval` is always checked after it).
    pub(super) fn about_eval(self) -> bool {
        matches!(
            self,
            Toggle::EvalFileBad | Toggle::EvalFileBuiltIn | Toggle::EvalFileOther | Toggle::UseNnue
        )
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
    use crate::search::DEFAULT_HASH_MB;
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
        assert_eq!(Opt::elo().ucci(), "ucielo");
        assert_eq!(
            Toggle::Hash.option().spin_default() as usize,
            DEFAULT_HASH_MB
        );
        assert!(Toggle::UseNnue.option().check_default());
        assert!(!Toggle::Ponder.option().check_default());
    }
}
