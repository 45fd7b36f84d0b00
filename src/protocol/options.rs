//! The engine's options: what is announced in each dialect, and how a `setoption` applies.

use super::Dialect;
use crate::search::skill;
use crate::search::threads::MAX_THREADS;
use vampirc_uci::{Serializable, UciMessage, UciOptionConfig};

/// Largest hash table in MiB.
pub const MAX_HASH_MB: i64 = 4096;
/// Largest MultiPV.
pub const MAX_MULTIPV: i64 = 128;
/// Default hash table in MiB.
pub const DEFAULT_HASH_MB: i64 = 16;

/// Current option values.
#[derive(Clone, Debug)]
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
}

impl Default for Options {
    fn default() -> Self {
        Options {
            hash_mb: DEFAULT_HASH_MB,
            ponder: false,
            move_overhead: 10,
            usemillisec: true,
            threads: 1,
            multipv: 1,
            show_wdl: false,
            analyse_mode: false,
            skill_level: skill::MAX_LEVEL as i64,
            limit_strength: false,
            elo: skill::MAX_ELO as i64,
            use_nnue: true,
            eval_file: String::new(),
        }
    }
}

impl Options {
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
#[derive(Debug, PartialEq, Eq)]
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
}

/// The handshake block between `id` and the ok line.
pub fn announce(dialect: Dialect) -> Vec<String> {
    match dialect {
        Dialect::Uci => {
            let spin = |name: &str, default, min, max| UciOptionConfig::Spin {
                name: name.to_string(),
                default: Some(default),
                min: Some(min),
                max: Some(max),
            };
            [
                spin("Threads", 1, 1, MAX_THREADS as i64),
                spin("Hash", DEFAULT_HASH_MB, 1, MAX_HASH_MB),
                UciOptionConfig::Button {
                    name: "Clear Hash".into(),
                },
                UciOptionConfig::Check {
                    name: "Ponder".into(),
                    default: Some(false),
                },
                spin("MultiPV", 1, 1, MAX_MULTIPV),
                spin("Move Overhead", 10, 0, 5000),
                UciOptionConfig::Check {
                    name: "UCI_ShowWDL".into(),
                    default: Some(false),
                },
                UciOptionConfig::Check {
                    name: "UCI_AnalyseMode".into(),
                    default: Some(false),
                },
                spin("Skill Level", 20, 0, 20),
                UciOptionConfig::Check {
                    name: "UCI_LimitStrength".into(),
                    default: Some(false),
                },
                spin(
                    "UCI_Elo",
                    skill::MAX_ELO as i64,
                    skill::MIN_ELO as i64,
                    skill::MAX_ELO as i64,
                ),
                UciOptionConfig::Check {
                    name: "Use NNUE".into(),
                    default: Some(true),
                },
                UciOptionConfig::String {
                    name: "EvalFile".into(),
                    default: Some(String::new()),
                },
            ]
            .into_iter()
            .map(|o| UciMessage::Option(o).serialize())
            .collect()
        }
        Dialect::Ucci => vec![
            "option usemillisec type check default true".into(),
            format!("option hashsize type spin min 1 max {MAX_HASH_MB} default {DEFAULT_HASH_MB}"),
            format!("option threads type spin min 1 max {MAX_THREADS} default 1"),
            "option ponder type check default false".into(),
            format!("option multipv type spin min 1 max {MAX_MULTIPV} default 1"),
            "option skilllevel type spin min 0 max 20 default 20".into(),
            "option newgame type button".into(),
            "option usennue type check default true".into(),
            "option evalfile type string default".into(),
        ],
    }
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
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
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
    #[error("bad value for {name}: expected true or false")]
    NotBoolean {
        /// The option's name as given.
        name: String,
    },
    /// An option this engine does not have (reported in UCI only).
    #[error("unknown option {name}")]
    Unknown {
        /// The option's name as given.
        name: String,
    },
}

impl Options {
    /// Applies `setoption`. An unknown option is an error in UCI; in UCCI it is passed over
    /// without a word, like the ignored ones.
    pub fn set(
        &mut self,
        dialect: Dialect,
        name: &str,
        value: &str,
    ) -> Result<Effect, OptionError> {
        let key = normalise(name);
        let shown = super::command::echo(name);
        let spin = |min: i64, max: i64, zero_default: Option<i64>| -> Result<i64, OptionError> {
            match value.trim().parse::<i64>() {
                Ok(0) if zero_default.is_some() => Ok(zero_default.unwrap_or(0)),
                Ok(v) if (min..=max).contains(&v) => Ok(v),
                _ => Err(OptionError::NotInRange {
                    name: shown.clone(),
                    min,
                    max,
                }),
            }
        };
        let boolean = || {
            check(value).ok_or_else(|| OptionError::NotBoolean {
                name: shown.clone(),
            })
        };
        match key.as_str() {
            "hash" | "hashsize" => {
                self.hash_mb = spin(1, MAX_HASH_MB, Some(DEFAULT_HASH_MB))?;
                Ok(Effect::ResizeHash)
            }
            "threads" => {
                self.threads = spin(1, MAX_THREADS as i64, Some(1))?;
                Ok(Effect::Threads)
            }
            "clearhash" => Ok(Effect::ClearHash),
            "newgame" | "ucinewgame" => Ok(Effect::NewGame),
            "ponder" => {
                self.ponder = boolean()?;
                Ok(Effect::None)
            }
            "ucishowwdl" => {
                self.show_wdl = boolean()?;
                Ok(Effect::None)
            }
            "ucianalysemode" => {
                self.analyse_mode = boolean()?;
                Ok(Effect::None)
            }
            "skilllevel" => {
                self.skill_level = spin(0, skill::MAX_LEVEL as i64, None)?;
                Ok(Effect::None)
            }
            "ucilimitstrength" => {
                self.limit_strength = boolean()?;
                Ok(Effect::None)
            }
            "ucielo" => {
                self.elo = spin(skill::MIN_ELO as i64, skill::MAX_ELO as i64, None)?;
                Ok(Effect::None)
            }
            "multipv" => {
                self.multipv = spin(1, MAX_MULTIPV, None)?;
                Ok(Effect::None)
            }
            "moveoverhead" => {
                self.move_overhead = spin(0, 5000, None)?;
                Ok(Effect::None)
            }
            "usemillisec" => {
                self.usemillisec = boolean()?;
                Ok(Effect::None)
            }
            "usennue" => {
                self.use_nnue = boolean()?;
                Ok(Effect::ChooseEvaluation)
            }
            "evalfile" => {
                let v = value.trim();
                self.eval_file = if v == "<empty>" {
                    String::new()
                } else {
                    v.to_string()
                };
                Ok(Effect::LoadNetwork)
            }
            k if IGNORED.contains(&k) => Ok(Effect::None),
            _ => match dialect {
                Dialect::Uci => Err(OptionError::Unknown { name: shown }),
                Dialect::Ucci => Ok(Effect::None),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refusals_name_the_option() {
        let mut o = Options::default();
        let e = o.set(Dialect::Uci, "Hash", "lots").unwrap_err();
        assert_eq!(
            e.to_string(),
            format!("bad value for Hash: expected an integer from 1 to {MAX_HASH_MB}")
        );
        let e = o.set(Dialect::Uci, "Ponder", "maybe").unwrap_err();
        assert_eq!(
            e.to_string(),
            "bad value for Ponder: expected true or false"
        );
        let e = o.set(Dialect::Uci, "Nonsense", "1").unwrap_err();
        assert_eq!(e.to_string(), "unknown option Nonsense");
        assert_eq!(o.set(Dialect::Ucci, "nonsense", "1"), Ok(Effect::None));
    }
}
