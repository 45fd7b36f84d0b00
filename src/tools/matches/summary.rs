//! A match's summary: the results and endings of its games, and the lines `chariot match`
//! prints at the end (`Score of …`, `W/D/L: …`, `Elo difference: …`, `Endings: …`, `SPRT: …`).
//!
//! The same summary is made from a PGN file that `chariot match --pgn` wrote (`chariot tally`),
//! so the games of several runs, or of the slices of one match played apart
//! (`chariot match --first`), add up to the summary one long match would have printed. In such a
//! file engine 1 is Red in the odd rounds (round `i + 1` is game `i`).

use super::stats::{fmt_elo, Decision, Sprt, Tally};
use crate::tools::pgn::{self, PgnError};
use std::collections::BTreeMap;
use std::fmt::Write;

/// The results and endings of a match's games, engine 1's point of view.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    /// Wins, draws and losses of engine 1.
    pub tally: Tally,
    /// How many games ended each way (`checkmate`, `ElephantEye lost on time`, …).
    pub endings: BTreeMap<String, u32>,
}

/// Why a PGN file cannot be summed up.
#[derive(Debug, thiserror::Error)]
pub enum TallyError {
    /// The file is not readable PGN.
    #[error(transparent)]
    Pgn(#[from] PgnError),
    /// A game without a round number, so engine 1's colour is unknown.
    #[error("game {0} has no Round tag: engine 1's colour is unknown")]
    Round(usize),
    /// A game without a result.
    #[error("game {0} (round {1}) has no result")]
    Unfinished(usize, usize),
    /// No games at all.
    #[error("no games in the file")]
    Empty,
}

/// A game's ending for the summary: the reason without its details, with the engine's name
/// instead of its colour (`ElephantEye resigned`, `checkmate`).
pub fn ending(termination: &str, red: &str, black: &str) -> String {
    let why = termination.split(" (").next().unwrap_or("");
    if let Some(rest) = why.strip_prefix("red ") {
        format!("{red} {rest}")
    } else if let Some(rest) = why.strip_prefix("black ") {
        format!("{black} {rest}")
    } else {
        why.to_string()
    }
}

impl Summary {
    /// Adds a game that engine 1 scored `score` (1, 0.5 or 0) in, ended as `ending`.
    pub fn add(&mut self, score: f64, ending: String) {
        match score {
            s if s > 0.75 => self.tally.wins += 1,
            s if s < 0.25 => self.tally.losses += 1,
            _ => self.tally.draws += 1,
        }
        *self.endings.entry(ending).or_default() += 1;
    }

    /// The summary of the games of PGN files written by `chariot match --pgn` (each file's
    /// bytes), with the engines' names `[engine 1, engine 2]`.
    pub fn from_records(files: &[Vec<u8>]) -> Result<(Summary, [String; 2]), TallyError> {
        let mut games = Vec::new();
        for f in files {
            games.extend(pgn::read(f)?);
        }
        let mut summary = Summary::default();
        let mut names: [String; 2] = Default::default();
        for (i, g) in games.iter().enumerate() {
            let round: usize = g
                .tag("Round")
                .and_then(|r| r.trim().parse().ok())
                .filter(|&r| r > 0)
                .ok_or(TallyError::Round(i + 1))?;
            let red_points = g.red_points().ok_or(TallyError::Unfinished(i + 1, round))?;
            let (red, black) = (g.red().unwrap_or("?"), g.tag("Black").unwrap_or("?"));
            let e1_red = round % 2 == 1;
            if names[0].is_empty() {
                names = if e1_red { [red, black] } else { [black, red] }.map(String::from);
            }
            let score = f64::from(if e1_red { red_points } else { 1.0 - red_points });
            let termination = g.tag("Termination").unwrap_or("");
            summary.add(score, ending(termination, red, black));
        }
        if games.is_empty() {
            return Err(TallyError::Empty);
        }
        Ok((summary, names))
    }

    /// The SPRT's decision on these games, if it has decided.
    pub fn decide(&self, sprt: &Sprt) -> Option<Decision> {
        self.tally.decide(sprt)
    }

    /// The closing lines of a match between `names`, with the SPRT and its decision if it ran
    /// (the decision the match stopped at: games still running then may move the LLR on).
    pub fn lines(&self, names: &[String; 2], sprt: Option<(&Sprt, Option<Decision>)>) -> String {
        let t = &self.tally;
        let (elo, err) = t.elo();
        let mut s = String::new();
        let _ = writeln!(
            s,
            "Score of {} vs {}: {} - {} - {} [{:.3}] {}",
            names[0],
            names[1],
            t.wins,
            t.losses,
            t.draws,
            t.score(),
            t.games()
        );
        let _ = writeln!(s, "W/D/L: {}/{}/{}", t.wins, t.draws, t.losses);
        let _ = writeln!(
            s,
            "Elo difference: {} +/- {} (95%), LOS: {:.1}%, draw ratio: {:.1}%",
            fmt_elo(elo),
            fmt_elo(err),
            t.los() * 100.0,
            t.draw_ratio() * 100.0
        );
        let endings: Vec<String> = self
            .endings
            .iter()
            .map(|(k, v)| format!("{k}: {v}"))
            .collect();
        let _ = writeln!(s, "Endings: {}", endings.join(", "));
        if let Some((sp, decision)) = sprt {
            let (lo, hi) = sp.bounds();
            let verdict = match decision {
                Some(Decision::H1) => "H1 accepted",
                Some(Decision::H0) => "H0 accepted",
                None => "undecided",
            };
            let _ = writeln!(
                s,
                "SPRT: elo0 {} elo1 {} alpha {} beta {}: llr {:.2}, lbound {:.2}, ubound {:.2} - {verdict}",
                sp.elo0,
                sp.elo1,
                sp.alpha,
                sp.beta,
                t.llr(sp),
                lo,
                hi
            );
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::START_FEN;

    fn record(round: usize, red: &str, black: &str, result: &str, why: &str) -> String {
        let r = pgn::Record {
            round,
            red: red.into(),
            black: black.into(),
            fen: START_FEN.into(),
            moves: Vec::new(),
            comments: Vec::new(),
            result: result.into(),
            termination: why.into(),
            time_control: [None, None],
        };
        pgn::write(&r, "test", "2026.01.01")
    }

    #[test]
    fn endings_name_the_engine() {
        let why = "black lost on time (5 ms used, 1 ms left)";
        assert_eq!(ending(why, "A", "B"), "B lost on time");
        let claim = "red claimed a draw (100 plies without capture)";
        assert_eq!(ending(claim, "A", "B"), "A claimed a draw");
        assert_eq!(ending("checkmate", "A", "B"), "checkmate");
    }

    #[test]
    fn a_pgn_sums_up_from_engine_one_side() {
        // Round 1: A Red wins; round 2: A Black wins; round 4: A Black loses; round 5: draw.
        let text = [
            record(1, "A", "B", "1-0", "checkmate"),
            record(2, "B", "A", "0-1", "red lost on time (1 ms left)"),
            record(4, "B", "A", "1-0", "checkmate"),
            record(5, "A", "B", "1/2-1/2", "draw by repetition"),
        ]
        .concat();
        let (s, names) = Summary::from_records(&[text.into_bytes()]).unwrap();
        assert_eq!(names, ["A".to_string(), "B".to_string()]);
        assert_eq!((s.tally.wins, s.tally.draws, s.tally.losses), (2, 1, 1));
        assert_eq!(s.endings["checkmate"], 2);
        assert_eq!(s.endings["B lost on time"], 1);
        let lines = s.lines(&names, None);
        assert!(lines.contains("Score of A vs B: 2 - 1 - 1 [0.625] 4\nW/D/L: 2/1/1\n"));
        assert!(!lines.contains("SPRT"));
        let sprt = Sprt::parse("0,5").unwrap();
        let decision = s.decide(&sprt);
        assert_eq!(decision, None);
        assert!(s
            .lines(&names, Some((&sprt, decision)))
            .contains("- undecided"));
    }

    #[test]
    fn a_pgn_without_rounds_or_results_is_refused() {
        let mut text = record(1, "A", "B", "1-0", "checkmate");
        text = text.replace("[Round \"1\"]\n", "");
        assert!(matches!(
            Summary::from_records(&[text.into_bytes()]),
            Err(TallyError::Round(1))
        ));
        let unfinished = record(3, "A", "B", "*", "stopped");
        assert!(matches!(
            Summary::from_records(&[unfinished.into_bytes()]),
            Err(TallyError::Unfinished(1, 3))
        ));
        assert!(matches!(Summary::from_records(&[]), Err(TallyError::Empty)));
    }
}
