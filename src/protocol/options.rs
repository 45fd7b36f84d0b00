//! The engine's options: what is announced in each dialect, and how a `setoption` applies.

use super::Dialect;
use crate::search::params::Params;
use crate::search::skill;
use crate::search::threads::MAX_THREADS;
use crate::search::DEFAULT_HASH_MB;
use vampirc_uci::{Serializable, UciMessage, UciOptionConfig};

/// Largest hash table in MiB.
pub const MAX_HASH_MB: i64 = 4096;
/// Largest MultiPV.
pub const MAX_MULTIPV: i64 = 128;

/// Current option values. `Options::new` is every option at its default, from `OPTIONS`;
/// `Default` leaves every field empty (0, false, "") but the search parameters.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Hash table size in MiB.
    pub hash_mb: i64,
    /// Whether the GUI may ask for pondering.
    pub ponder: bool,
    /// Milliseconds subtracted from every time budget.
    pub move_overhead: i64,
    /// UCCI times in milliseconds (true) or seconds (false).
    pub usemillisec: bool,
    /// Search threads (Lazy SMP), 1–`MAX_THREADS`.
    pub threads: i64,
    /// Principal variations reported, 1–`MAX_MULTIPV`.
    pub multipv: i64,
    /// `UCI_ShowWDL`: win/draw/loss per mille on every `info` line with a score.
    pub show_wdl: bool,
    /// `UCI_AnalyseMode`: the GUI analyses rather than plays (accepted; the search is the same).
    pub analyse_mode: bool,
    /// `Skill Level` 0–20 (20 = full strength).
    pub skill_level: i64,
    /// `UCI_LimitStrength`: play at `UCI_Elo` (overrides `Skill Level`).
    pub limit_strength: bool,
    /// `UCI_Elo`, `skill::MIN_ELO`–`skill::MAX_ELO`.
    pub elo: i64,
    /// Evaluate with the network (true) or the classical evaluation.
    pub use_nnue: bool,
    /// Network file to load; empty: the embedded network.
    pub eval_file: String,
    /// The search's tuning numbers: hidden options, set by name
    /// (`setoption name rfp_margin value 90`) and listed by `params`, never announced.
    pub params: Params,
}

impl Options {
    /// Every option at the default of its row in `OPTIONS`, the search parameters at theirs.
    pub fn new() -> Options {
        let mut o = Options::default();
        for spec in OPTIONS {
            spec.reset(&mut o);
        }
        o
    }

    /// The strength in force: from `UCI_Elo` when strength is limited, else `Skill Level`.
    pub fn skill(&self) -> skill::Skill {
        skill::Skill::new(if self.limit_strength {
            skill::level_for_elo(self.elo as u32)
        } else {
            self.skill_level as u32
        })
    }
}

/// What a `setoption` asks the controller to do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    /// Nothing more (value stored or option accepted without effect).
    None,
    /// Resize the hash table to `Options::hash_mb`.
    ResizeHash,
    /// Make the thread pool `Options::threads` strong.
    Threads,
    /// Clear the hash table and histories.
    ClearHash,
    /// A new game.
    NewGame,
    /// Load `Options::eval_file` (or the embedded network when empty).
    LoadNetwork,
    /// Switch between the network and the classical evaluation per `Options::use_nnue`.
    ChooseEvaluation,
    /// Give the searcher `Options::params`.
    Params,
}

/// An option's type, default and range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A boolean (`true false on off yes no 1 0`).
    Check {
        /// Value at start.
        default: bool,
    },
    /// An integer in `min..=max`.
    Spin {
        /// Value at start.
        default: i64,
        /// Smallest value.
        min: i64,
        /// Largest value.
        max: i64,
        /// UCCI's `hashsize 0` / `threads 0`: 0 means "the engine's choice", the default.
        zero_is_default: bool,
    },
    /// An action; any value is ignored.
    Button,
    /// Free text (`<empty>` is the empty string).
    Text {
        /// Value at start.
        default: &'static str,
    },
}

/// Where an option's value lives in `Options`.
enum Slot<'a> {
    Check(&'a mut bool),
    Spin(&'a mut i64),
    Text(&'a mut String),
    /// A button: nothing is stored.
    Nothing,
}

/// One row of the option table.
pub struct Spec {
    /// The UCI name (as Pikafish spells it where it has the option), or `None` for a
    /// UCCI-only option.
    pub uci: Option<&'static str>,
    /// The UCCI name (the `ucci` answer announces it), or `None` for a UCI-only option.
    pub ucci: Option<&'static str>,
    /// Further names `setoption` accepts (compared like the others).
    pub aliases: &'static [&'static str],
    /// Type, default and range.
    pub kind: Kind,
    /// What setting it asks the controller to do.
    pub effect: Effect,
    /// What the option does (for the manual and `help`).
    pub doc: &'static str,
    slot: fn(&mut Options) -> Slot<'_>,
}

/// Every option the engine has, in the order the `uci` answer lists them (Pikafish's order
/// for the options Pikafish has). The defaults, both handshakes' announcements and `setoption`
/// are all read from here.
pub const OPTIONS: &[Spec] = &[
    Spec {
        uci: None,
        ucci: Some("usemillisec"),
        aliases: &[],
        kind: Kind::Check { default: true },
        effect: Effect::None,
        doc: "UCCI times in milliseconds (true) or seconds",
        slot: |o| Slot::Check(&mut o.usemillisec),
    },
    Spec {
        uci: Some("Threads"),
        ucci: Some("threads"),
        aliases: &[],
        kind: Kind::Spin {
            default: 1,
            min: 1,
            max: MAX_THREADS as i64,
            zero_is_default: true,
        },
        effect: Effect::Threads,
        doc: "search threads (Lazy SMP)",
        slot: |o| Slot::Spin(&mut o.threads),
    },
    Spec {
        uci: Some("Hash"),
        ucci: Some("hashsize"),
        aliases: &[],
        kind: Kind::Spin {
            default: DEFAULT_HASH_MB as i64,
            min: 1,
            max: MAX_HASH_MB,
            zero_is_default: true,
        },
        effect: Effect::ResizeHash,
        doc: "hash table size in MiB",
        slot: |o| Slot::Spin(&mut o.hash_mb),
    },
    Spec {
        uci: Some("Clear Hash"),
        ucci: Some("clearhash"),
        aliases: &[],
        kind: Kind::Button,
        effect: Effect::ClearHash,
        doc: "clear the hash table and histories",
        slot: |_| Slot::Nothing,
    },
    Spec {
        uci: Some("Ponder"),
        ucci: Some("ponder"),
        aliases: &[],
        kind: Kind::Check { default: false },
        effect: Effect::None,
        doc: "the GUI may ask for pondering",
        slot: |o| Slot::Check(&mut o.ponder),
    },
    Spec {
        uci: Some("MultiPV"),
        ucci: Some("multipv"),
        aliases: &[],
        kind: Kind::Spin {
            default: 1,
            min: 1,
            max: MAX_MULTIPV,
            zero_is_default: false,
        },
        effect: Effect::None,
        doc: "principal variations reported",
        slot: |o| Slot::Spin(&mut o.multipv),
    },
    Spec {
        uci: Some("Move Overhead"),
        ucci: Some("moveoverhead"),
        aliases: &[],
        kind: Kind::Spin {
            default: 10,
            min: 0,
            max: 5000,
            zero_is_default: false,
        },
        effect: Effect::None,
        doc: "milliseconds kept back from every time budget",
        slot: |o| Slot::Spin(&mut o.move_overhead),
    },
    Spec {
        uci: Some("UCI_ShowWDL"),
        ucci: Some("ucishowwdl"),
        aliases: &[],
        kind: Kind::Check { default: false },
        effect: Effect::None,
        doc: "win/draw/loss per mille on every info line with a score",
        slot: |o| Slot::Check(&mut o.show_wdl),
    },
    Spec {
        uci: Some("UCI_AnalyseMode"),
        ucci: Some("ucianalysemode"),
        aliases: &[],
        kind: Kind::Check { default: false },
        effect: Effect::None,
        doc: "the GUI analyses rather than plays (the search is the same)",
        slot: |o| Slot::Check(&mut o.analyse_mode),
    },
    Spec {
        uci: Some("Skill Level"),
        ucci: Some("skilllevel"),
        aliases: &[],
        kind: Kind::Spin {
            default: skill::MAX_LEVEL as i64,
            min: 0,
            max: skill::MAX_LEVEL as i64,
            zero_is_default: false,
        },
        effect: Effect::None,
        doc: "playing strength, 20 = full strength",
        slot: |o| Slot::Spin(&mut o.skill_level),
    },
    Spec {
        uci: Some("UCI_LimitStrength"),
        ucci: Some("ucilimitstrength"),
        aliases: &[],
        kind: Kind::Check { default: false },
        effect: Effect::None,
        doc: "play at UCI_Elo (overrides Skill Level)",
        slot: |o| Slot::Check(&mut o.limit_strength),
    },
    Spec {
        uci: Some("UCI_Elo"),
        ucci: Some("ucielo"),
        aliases: &[],
        kind: Kind::Spin {
            default: skill::MAX_ELO as i64,
            min: skill::MIN_ELO as i64,
            max: skill::MAX_ELO as i64,
            zero_is_default: false,
        },
        effect: Effect::None,
        doc: "the strength played with UCI_LimitStrength",
        slot: |o| Slot::Spin(&mut o.elo),
    },
    Spec {
        uci: None,
        ucci: Some("newgame"),
        aliases: &["ucinewgame"],
        kind: Kind::Button,
        effect: Effect::NewGame,
        doc: "a new game: clear the hash table and histories",
        slot: |_| Slot::Nothing,
    },
    Spec {
        uci: Some("Use NNUE"),
        ucci: Some("usennue"),
        aliases: &[],
        kind: Kind::Check { default: true },
        effect: Effect::ChooseEvaluation,
        doc: "evaluate with the network (true) or the classical evaluation",
        slot: |o| Slot::Check(&mut o.use_nnue),
    },
    Spec {
        uci: Some("EvalFile"),
        ucci: Some("evalfile"),
        aliases: &[],
        kind: Kind::Text { default: "" },
        effect: Effect::LoadNetwork,
        doc: "network file to load; empty: the embedded network",
        slot: |o| Slot::Text(&mut o.eval_file),
    },
];

impl Spec {
    /// Whether `setoption` name `key` (normalised) names this option.
    fn is(&self, key: &str) -> bool {
        self.uci
            .into_iter()
            .chain(self.ucci)
            .chain(self.aliases.iter().copied())
            .any(|n| normalise(n) == key)
    }

    /// Puts the default value in `o`.
    fn reset(&self, o: &mut Options) {
        match ((self.slot)(o), self.kind) {
            (Slot::Check(b), Kind::Check { default }) => *b = default,
            (Slot::Spin(v), Kind::Spin { default, .. }) => *v = default,
            (Slot::Text(t), Kind::Text { default }) => *t = default.to_string(),
            _ => {}
        }
    }

    /// Stores `value` in `o` if it is valid for this option; `shown` names it in the error.
    fn store(&self, o: &mut Options, shown: &str, value: &str) -> Result<(), OptionError> {
        let value = value.trim();
        match ((self.slot)(o), self.kind) {
            (Slot::Check(b), Kind::Check { .. }) => {
                *b = check(value).ok_or_else(|| OptionError::NotBoolean {
                    name: shown.to_string(),
                })?
            }
            (
                Slot::Spin(v),
                Kind::Spin {
                    default,
                    min,
                    max,
                    zero_is_default,
                },
            ) => {
                *v = match value.parse::<i64>() {
                    Ok(0) if zero_is_default => default,
                    Ok(n) if (min..=max).contains(&n) => n,
                    _ => {
                        return Err(OptionError::NotInRange {
                            name: shown.to_string(),
                            min,
                            max,
                        })
                    }
                }
            }
            (Slot::Text(t), Kind::Text { .. }) => {
                *t = if value == "<empty>" {
                    String::new()
                } else {
                    value.to_string()
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// The `option …` line announcing this option in `dialect`, if it is announced there.
    fn announcement(&self, dialect: Dialect) -> Option<String> {
        match dialect {
            Dialect::Uci => {
                let name = self.uci?.to_string();
                let config = match self.kind {
                    Kind::Check { default } => UciOptionConfig::Check {
                        name,
                        default: Some(default),
                    },
                    Kind::Spin {
                        default, min, max, ..
                    } => UciOptionConfig::Spin {
                        name,
                        default: Some(default),
                        min: Some(min),
                        max: Some(max),
                    },
                    Kind::Button => UciOptionConfig::Button { name },
                    Kind::Text { default } => UciOptionConfig::String {
                        name,
                        default: Some(default.to_string()),
                    },
                };
                Some(UciMessage::Option(config).serialize())
            }
            Dialect::Ucci => {
                let name = self.ucci?;
                let rest = match self.kind {
                    Kind::Check { default } => format!("check default {default}"),
                    Kind::Spin {
                        default, min, max, ..
                    } => format!("spin min {min} max {max} default {default}"),
                    Kind::Button => "button".to_string(),
                    Kind::Text { default } => format!("string default {default}"),
                };
                Some(format!("option {name} type {rest}").trim_end().to_string())
            }
        }
    }
}

/// The handshake block between `id` and the ok line.
pub fn announce(dialect: Dialect) -> Vec<String> {
    OPTIONS
        .iter()
        .filter_map(|spec| spec.announcement(dialect))
        .collect()
}

/// The `params` answer: each search parameter as an option line with its current value (a
/// whole-number parameter as a spin, a real one as a string).
pub fn params_announcement(params: &Params) -> Vec<String> {
    Params::table()
        .map(|p| {
            let v = params.get(p.name).unwrap_or(p.default);
            if p.integer {
                format!(
                    "option name {} type spin default {v} min {} max {}",
                    p.name, p.min, p.max
                )
            } else {
                format!("option name {} type string default {v}", p.name)
            }
        })
        .collect()
}

/// Options accepted and ignored (protocol document §5.3), in normalised form.
const IGNORED: &[&str] = &[
    "batch",
    "debug",
    "usebook",
    "bookfiles",
    "useegtb",
    "egtbpaths",
    "usehash",
    "promotion",
    "idle",
    "pruning",
    "knowledge",
    "randomness",
    "style",
    "ucivariant",
    "ucichess960",
    "uccixiangqi",
];

fn normalise(name: &str) -> String {
    name.chars()
        .filter(|c| !c.is_whitespace() && *c != '_')
        .flat_map(char::to_lowercase)
        .collect()
}

fn check(value: &str) -> Option<bool> {
    match value.to_ascii_lowercase().as_str() {
        "true" | "on" | "1" | "yes" => Some(true),
        "false" | "off" | "0" | "no" => Some(false),
        _ => None,
    }
}

/// Why a `setoption` was refused; `Display` is the `info string` text.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum OptionError {
    /// A spin option's value is not an integer in its range.
    #[error("bad value for {name}: expected an integer from {min} to {max}")]
    NotInRange {
        /// The option's name as given.
        name: String,
        /// Smallest value.
        min: i64,
        /// Largest value.
        max: i64,
    },
    /// A check option's value is not a boolean word.
    #[error("bad value for {name}: expected true, false, on, off, yes, no, 1 or 0")]
    NotBoolean {
        /// The option's name as given.
        name: String,
    },
    /// A search parameter's value is not a number in its range.
    #[error("bad value for {name}: expected a number from {min} to {max}")]
    NotANumber {
        /// The parameter's name as given.
        name: String,
        /// Smallest value.
        min: f64,
        /// Largest value.
        max: f64,
    },
    /// An option this engine does not have (reported in UCI only).
    #[error("unknown option {name}")]
    Unknown {
        /// The option's name as given.
        name: String,
    },
}

impl Options {
    /// Applies `setoption`: finds the option's row in `OPTIONS` and stores the value, or
    /// keeps the old one and says why. An unknown option is an error in UCI; in UCCI it is
    /// passed over without a word, like the ignored ones.
    pub fn set(
        &mut self,
        dialect: Dialect,
        name: &str,
        value: &str,
    ) -> Result<Effect, OptionError> {
        let key = normalise(name);
        let shown =
            super::command::echo_text(&name.split_whitespace().collect::<Vec<_>>().join(" "));
        if let Some(spec) = OPTIONS.iter().find(|s| s.is(&key)) {
            spec.store(self, &shown, value)?;
            return Ok(spec.effect);
        }
        if let Some(p) = Params::table().find(|p| normalise(p.name) == key) {
            let v = value.trim().parse::<f64>().ok().filter(|v| v.is_finite());
            return match v.map(|v| self.params.set(p.name, v)) {
                Some(Ok(())) => Ok(Effect::Params),
                _ => Err(OptionError::NotANumber {
                    name: shown,
                    min: p.min,
                    max: p.max,
                }),
            };
        }
        if IGNORED.contains(&key.as_str()) || dialect == Dialect::Ucci {
            return Ok(Effect::None);
        }
        Err(OptionError::Unknown { name: shown })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refusals_name_the_option() {
        let mut o = Options::new();
        let e = o.set(Dialect::Uci, "Hash", "lots").unwrap_err();
        assert_eq!(
            e.to_string(),
            format!("bad value for Hash: expected an integer from 1 to {MAX_HASH_MB}")
        );
        let e = o.set(Dialect::Uci, "Ponder", "maybe").unwrap_err();
        assert_eq!(
            e.to_string(),
            "bad value for Ponder: expected true, false, on, off, yes, no, 1 or 0"
        );
        let e = o.set(Dialect::Uci, "Skill Level", "99").unwrap_err();
        assert_eq!(
            e.to_string(),
            "bad value for Skill Level: expected an integer from 0 to 20"
        );
        let e = o.set(Dialect::Uci, "Move  Overhead", "-1").unwrap_err();
        assert!(
            e.to_string().starts_with("bad value for Move Overhead:"),
            "{e}"
        );
        let e = o.set(Dialect::Uci, "Nonsense", "1").unwrap_err();
        assert_eq!(e.to_string(), "unknown option Nonsense");
        assert_eq!(o.set(Dialect::Ucci, "nonsense", "1"), Ok(Effect::None));
    }

    #[test]
    fn search_parameters_are_hidden_options() {
        let mut o = Options::new();
        assert!(!announce(Dialect::Uci)
            .iter()
            .any(|l| l.contains("rfp_margin")));
        let lines = params_announcement(&o.params);
        let margin = format!(
            "option name rfp_margin type spin default {} min 20 max 300",
            Params::default().rfp_margin
        );
        assert!(lines.contains(&margin), "{lines:?}");
        assert_eq!(o.set(Dialect::Uci, "rfp_margin", "90"), Ok(Effect::Params));
        assert_eq!(o.set(Dialect::Ucci, "lmrbase", "0.75"), Ok(Effect::Params));
        assert_eq!((o.params.rfp_margin, o.params.lmr_base), (90, 0.75));
        let e = o.set(Dialect::Uci, "rfp_margin", "1000").unwrap_err();
        assert_eq!(
            e.to_string(),
            "bad value for rfp_margin: expected a number from 20 to 300"
        );
        assert_eq!(o.params.rfp_margin, 90);
        assert!(params_announcement(&o.params)
            .contains(&"option name lmr_base type string default 0.75".into()));
    }

    #[test]
    fn one_table_gives_defaults_announcements_and_setoption() {
        let o = Options::new();
        assert_eq!(
            (o.hash_mb, o.threads, o.multipv),
            (DEFAULT_HASH_MB as i64, 1, 1)
        );
        assert_eq!((o.move_overhead, o.skill_level), (10, 20));
        assert!(o.usemillisec && o.use_nnue && !o.ponder && o.eval_file.is_empty());
        let uci = announce(Dialect::Uci);
        assert_eq!(
            uci[0],
            format!("option name Threads type spin default 1 min 1 max {MAX_THREADS}")
        );
        assert!(
            uci.contains(&"option name Move Overhead type spin default 10 min 0 max 5000".into())
        );
        assert!(uci.contains(&"option name Clear Hash type button".into()));
        let ucci = announce(Dialect::Ucci);
        assert_eq!(ucci[0], "option usemillisec type check default true");
        assert!(ucci.contains(&"option evalfile type string default".into()));
        // Every spin takes its bounds in either name and refuses one past them, keeping the
        // value it had.
        for spec in OPTIONS {
            let Kind::Spin { min, max, .. } = spec.kind else {
                continue;
            };
            for name in spec.uci.into_iter().chain(spec.ucci) {
                let mut o = Options::new();
                assert_eq!(o.set(Dialect::Uci, name, &max.to_string()), Ok(spec.effect));
                assert_eq!(o.set(Dialect::Uci, name, &min.to_string()), Ok(spec.effect));
                let before = format!("{o:?}");
                assert!(o.set(Dialect::Uci, name, &(max + 1).to_string()).is_err());
                assert_eq!(format!("{o:?}"), before, "{name}");
            }
        }
        let mut o = Options::new();
        assert_eq!(
            o.set(Dialect::Ucci, "hashsize", "0"),
            Ok(Effect::ResizeHash)
        );
        assert_eq!(o.hash_mb, DEFAULT_HASH_MB as i64);
        assert_eq!(
            o.set(Dialect::Uci, "UCI_Elo", "0").map(|_| ()),
            Err(OptionError::NotInRange {
                name: "UCI_Elo".into(),
                min: skill::MIN_ELO as i64,
                max: skill::MAX_ELO as i64
            })
        );
    }
}
