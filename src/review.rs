//! Game review: the engine's search over every position of a game's main line, and what it
//! makes of each move. This module owns the review's numbers (the expected score of a score,
//! the loss of a move, its judgement, each side's accuracy) and the annotated record
//! (`annotate`); the command line (`chariot annotate`) and the page (`web`'s `review`) only
//! call it.
//!
//! A `Reviewer` searches each position of the main line in order, before every move and the
//! final position, each within the same limits (`Settings`: 100 000 nodes by default). Its one
//! `Searcher` is reused from position to position, so the hash table and the move-ordering
//! histories learnt at one position help the next, as in a game; both are cleared at the start
//! of each game, so a game's review does not depend on the games reviewed before it (with one
//! thread and a node limit, a review is the same on every run). The final position of a game
//! that is over (mate, a move-less position, a repetition verdict) is scored by the rules,
//! unsearched.
//!
//! The numbers (every `Score` in a `Review` is from Red's view):
//!
//! - **Expected score** of a score `s` (side to move's view): `E(s) = W + D/2` of the WDL
//!   model `score::WDL_MODEL`, `W = win(s)`, `L = win(−s)`, `D = 1 − W − L`,
//!   `win(s) = 1 / (1 + exp(−(s − 419.1) / 211.1))` (s in centipawns); so `E(0) = 0.5`,
//!   `E(s) + E(−s) = 1`. A decisive score (a mate, or a win or loss by the repetition rules)
//!   is 1 or 0.
//! - **Loss** of a move: `E(best)` of the position before it, from the mover's view, minus
//!   `E` of the position after it, from the mover's view; at least 0, and 0 when the move
//!   played is the engine's best move (two searches of neighbouring positions disagree a
//!   little: the engine's own move loses nothing by definition).
//! - **Judgement**: loss ≥ `BLUNDER` (0.15) is a blunder `??` (NAG 4), ≥ `MISTAKE` (0.10) a
//!   mistake `?` (NAG 2), ≥ `INACCURACY` (0.05) an inaccuracy `?!` (NAG 6); the engine's own
//!   best move is never judged. These are lichess's thresholds: lichess judges the fall of
//!   the winning chance `2E − 1` (a −1…1 scale) at 0.1, 0.2 and 0.3, which is 0.05, 0.10 and
//!   0.15 of expected score. Near equality they take about 100, 190 and 280 centipawns of
//!   Chariot's scale (a horse or a cannon is worth about 420, a chariot 950, a pawn 60 before
//!   the river): a horse given away is a blunder, as a knight is in chess; twice these (0.10,
//!   0.20, 0.30 of expected score) would call it a mistake.
//! - **Accuracy** of a move, lichess's: with `Δ = 100 × loss` (points of win percentage
//!   `100 E`), `103.1668100711649 × exp(−0.04354415386753951 × Δ) − 3.166924740191411 + 1`
//!   (lichess's "+1" for the analysis' uncertainty), clamped to 0…100; 100 for no loss.
//! - **Accuracy** of a side, lichess's game accuracy: the mean of (a) the mean of its moves'
//!   accuracies weighted by the volatility around each move and (b) their harmonic mean (each
//!   accuracy at least 1 in it). The volatility of move k is the population standard
//!   deviation of a window of `w = clamp(n / 10, 2, 8)` (integer division) win percentages
//!   `100 E` (Red's view) of the n + 1 positions of the n moves reviewed (the start position
//!   is searched, where lichess takes a fixed +0.15), clamped to 0.5…12: the windows slide
//!   over the n + 1 values, and the first `w − 2` moves take the first window.

use crate::board::rules::{Outcome, Reason};
use crate::board::{Color, Game, Move, Notation, Position};
use crate::eval::nnue::default_network;
use crate::record::Record;
use crate::score::{Score, WDL_MODEL};
use crate::search::{Info, InfoSink, Limits, Searcher, Signals, DEFAULT_HASH_MB};
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// The nodes searched in each position unless told otherwise.
pub const DEFAULT_NODES: u64 = 100_000;
/// The loss of expected score from which a move is an inaccuracy (`?!`).
pub const INACCURACY: f64 = 0.05;
/// The loss of expected score from which a move is a mistake (`?`).
pub const MISTAKE: f64 = 0.10;
/// The loss of expected score from which a move is a blunder (`??`).
pub const BLUNDER: f64 = 0.15;
/// The longest engine line a comment shows, in plies.
pub const LINE_PLIES: usize = 8;

/// How long each position is searched, and with what.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    /// Nodes per position (every thread together).
    pub nodes: Option<u64>,
    /// Milliseconds per position. With `nodes` too, the first limit reached ends the search;
    /// with neither, `DEFAULT_NODES`.
    pub movetime_ms: Option<u64>,
    /// Search threads (1: the same review on every run).
    pub threads: usize,
    /// The hash table's size in MiB.
    pub hash_mb: usize,
}

impl Default for Settings {
    /// `DEFAULT_NODES` a position, one thread, a table of `DEFAULT_HASH_MB` MiB.
    fn default() -> Settings {
        Settings {
            nodes: Some(DEFAULT_NODES),
            movetime_ms: None,
            threads: 1,
            hash_mb: DEFAULT_HASH_MB,
        }
    }
}

impl Settings {
    /// The limits of each search.
    fn limits(&self) -> Limits {
        let nodes = match (self.nodes, self.movetime_ms) {
            (None, None) => Some(DEFAULT_NODES),
            (n, _) => n.map(|n| n.max(1)),
        };
        Limits {
            nodes,
            movetime: self.movetime_ms,
            ..Default::default()
        }
    }

    /// The limits in words, as the `Annotator` tag gives them: `100000 nodes`, `500 ms`.
    pub fn describe(&self) -> String {
        let limits = self.limits();
        let mut words = Vec::new();
        if let Some(n) = limits.nodes {
            words.push(format!("{n} nodes"));
        }
        if let Some(ms) = limits.movetime {
            words.push(format!("{ms} ms"));
        }
        words.join(" or ")
    }
}

/// What a review calls a bad move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Judgement {
    /// `?!`: a loss of at least `INACCURACY`.
    Inaccuracy,
    /// `?`: a loss of at least `MISTAKE`.
    Mistake,
    /// `??`: a loss of at least `BLUNDER`.
    Blunder,
}

impl Judgement {
    /// The three, mildest first (the order of `Review::counts`).
    pub const ALL: [Judgement; 3] = [
        Judgement::Inaccuracy,
        Judgement::Mistake,
        Judgement::Blunder,
    ];

    /// The judgement of a move that loses `loss` of expected score, if it deserves one.
    pub fn of(loss: f64) -> Option<Judgement> {
        if loss >= BLUNDER {
            Some(Judgement::Blunder)
        } else if loss >= MISTAKE {
            Some(Judgement::Mistake)
        } else if loss >= INACCURACY {
            Some(Judgement::Inaccuracy)
        } else {
            None
        }
    }

    /// Its numeric annotation glyph: 6 (`?!`), 2 (`?`), 4 (`??`).
    pub const fn nag(self) -> u8 {
        match self {
            Judgement::Inaccuracy => 6,
            Judgement::Mistake => 2,
            Judgement::Blunder => 4,
        }
    }

    /// Its mark: `?!`, `?`, `??`.
    pub const fn mark(self) -> &'static str {
        match self {
            Judgement::Inaccuracy => "?!",
            Judgement::Mistake => "?",
            Judgement::Blunder => "??",
        }
    }

    /// Its name in lower case: `inaccuracy`, `mistake`, `blunder`.
    pub const fn name(self) -> &'static str {
        match self {
            Judgement::Inaccuracy => "inaccuracy",
            Judgement::Mistake => "mistake",
            Judgement::Blunder => "blunder",
        }
    }

    /// Its place in `ALL` and in `Review::counts`.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// `n` of it in words: `1 mistake`, `2 inaccuracies`.
    fn count(self, n: u32) -> String {
        match (self, n) {
            (_, 1) => format!("1 {}", self.name()),
            (Judgement::Inaccuracy, n) => format!("{n} inaccuracies"),
            (_, n) => format!("{n} {}s", self.name()),
        }
    }

    /// The name as a comment starts with it: `Inaccuracy`, `Mistake`, `Blunder`.
    fn title(self) -> &'static str {
        match self {
            Judgement::Inaccuracy => "Inaccuracy",
            Judgement::Mistake => "Mistake",
            Judgement::Blunder => "Blunder",
        }
    }
}

/// A score as a record's `[%eval …]` writes it, from Red's view: pawns, or the moves to a
/// mate (a win by the repetition rules counts as one, as the engine's `mate` scores count it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Eval {
    /// Centipawns (written in pawns with two decimals: `0.35`, `-1.20`).
    Cp(i32),
    /// A forced win in `moves` moves of the winner (0: the game is over): `#5` when Red
    /// wins, `#-3` when Black does.
    Mate {
        /// The winner's moves to the end.
        moves: u32,
        /// Whether Red is the winner.
        red: bool,
    },
}

impl Eval {
    /// The eval of `score`, a score from Red's view.
    pub fn from_red(score: Score) -> Eval {
        match score.plies_to_end() {
            Some(p) => Eval::Mate {
                moves: (p.max(0) as u32).div_ceil(2),
                red: score > Score::DRAW,
            },
            None => Eval::Cp(score.get()),
        }
    }

    /// Reads the first `[%eval …]` of a comment.
    pub fn find_in(comment: &str) -> Option<Eval> {
        let at = comment.find("[%eval ")? + "[%eval ".len();
        let end = comment[at..].find(']')? + at;
        comment[at..end].trim().parse().ok()
    }
}

impl fmt::Display for Eval {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Eval::Cp(cp) => {
                let sign = if cp < 0 { "-" } else { "" };
                let a = cp.unsigned_abs();
                write!(f, "{sign}{}.{:02}", a / 100, a % 100)
            }
            Eval::Mate { moves, red: true } => write!(f, "#{moves}"),
            Eval::Mate { moves, red: false } => write!(f, "#-{moves}"),
        }
    }
}

/// Text that is not an eval as `Eval`'s `Display` writes it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("not an eval: {0}")]
pub struct EvalError(String);

impl std::str::FromStr for Eval {
    type Err = EvalError;
    /// `0.35`, `-1.2`, `#5`, `#-3`, `#-0`.
    fn from_str(s: &str) -> Result<Eval, EvalError> {
        let bad = || EvalError(crate::board::moves::truncate(s));
        if let Some(m) = s.strip_prefix('#') {
            let (red, digits) = match m.strip_prefix('-') {
                Some(d) => (false, d),
                None => (true, m.strip_prefix('+').unwrap_or(m)),
            };
            let moves = digits.parse().map_err(|_| bad())?;
            return Ok(Eval::Mate { moves, red });
        }
        let pawns: f64 = s.parse().map_err(|_| bad())?;
        if !pawns.is_finite() || pawns.abs() > 1e6 {
            return Err(bad());
        }
        Ok(Eval::Cp((pawns * 100.0).round() as i32))
    }
}

/// The expected score `W + D/2` of `score` (side to move's view) by `WDL_MODEL`, from 0 to 1;
/// a decisive score is 1 or 0.
pub fn expected(score: Score) -> f64 {
    if score.is_decisive() {
        return if score > Score::DRAW { 1.0 } else { 0.0 };
    }
    let cp = f64::from(score.get());
    let (w, l) = (WDL_MODEL.win(cp), WDL_MODEL.win(-cp));
    w + (1.0 - w - l) / 2.0
}

/// Lichess's accuracy of a move that loses `loss` of expected score, 0 to 100.
pub fn move_accuracy(loss: f64) -> f64 {
    if loss <= 0.0 {
        return 100.0;
    }
    let drop = 100.0 * loss;
    let raw =
        103.166_810_071_164_9 * (-0.043_544_153_867_539_51 * drop).exp() - 3.166_924_740_191_411;
    (raw + 1.0).clamp(0.0, 100.0)
}

/// One move of the main line as the review sees it.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveReview {
    /// The move played.
    pub mv: Move,
    /// Who played it.
    pub mover: Color,
    /// The engine's score of the position before the move (its best play), Red's view.
    pub before: Score,
    /// The engine's score of the position after the move, Red's view.
    pub after: Score,
    /// The engine's best move in the position before.
    pub best: Move,
    /// The engine's line from the position before, starting with `best`.
    pub pv: Vec<Move>,
    /// The loss of expected score, 0 to 1 (see the module's documentation).
    pub loss: f64,
    /// The move's accuracy, 0 to 100.
    pub accuracy: f64,
    /// What the review calls it; never anything when it is the best move.
    pub judgement: Option<Judgement>,
}

/// A game's review.
#[derive(Clone, Debug, PartialEq)]
pub struct Review {
    /// The main line's moves in order: all of them, or the first ones when stopped.
    pub moves: Vec<MoveReview>,
    /// Each side's accuracy (Red, Black), 0 to 100; `None` for a side with no move reviewed.
    pub accuracy: [Option<f64>; 2],
    /// Each side's (Red, Black) inaccuracies, mistakes and blunders.
    pub counts: [[u32; 3]; 2],
    /// Whether every move was reviewed (false when stopped).
    pub complete: bool,
    /// The main line's length in moves.
    pub plies: usize,
    /// The settings it was made with.
    pub settings: Settings,
    /// Nodes searched.
    pub nodes: u64,
}

impl Review {
    /// One line: `Red 91.2% accuracy, 2 inaccuracies, 1 mistake, 0 blunders; Black …`, and
    /// when stopped, how far it got.
    pub fn summary(&self) -> String {
        let sides: Vec<String> = Color::ALL.iter().map(|&c| self.side_summary(c)).collect();
        let mut s = sides.join("; ");
        if !self.complete {
            s.push_str(&format!(
                " (stopped: {} of {} moves reviewed)",
                self.moves.len(),
                self.plies
            ));
        }
        s
    }

    fn side_summary(&self, side: Color) -> String {
        let name = match side {
            Color::Red => "Red",
            Color::Black => "Black",
        };
        let Some(accuracy) = self.accuracy[side.index()] else {
            return format!("{name} no moves");
        };
        let counts = self.counts[side.index()];
        let words: Vec<String> = Judgement::ALL
            .iter()
            .map(|j| j.count(counts[j.index()]))
            .collect();
        format!("{name} {accuracy:.1}% accuracy, {}", words.join(", "))
    }
}

/// What one search said of one position (side to move's view).
#[derive(Clone, Debug)]
struct Judged {
    score: Score,
    /// `None` only when the game is over there.
    best: Option<Move>,
    pv: Vec<Move>,
}

/// Stops a search at its next iteration once the review's stop flag is raised.
struct StopSink<'a> {
    stop: &'a AtomicBool,
    signals: &'a Signals,
}

impl StopSink<'_> {
    fn check(&self) {
        if self.stop.load(Ordering::Relaxed) {
            self.signals.stop();
        }
    }
}

impl InfoSink for StopSink<'_> {
    fn iteration(&mut self, _info: &Info) {
        self.check();
    }

    fn current_move(&mut self, _depth: u32, _mv: Move, _number: u32) {
        self.check();
    }
}

/// Reviews games: one searcher (with the embedded network) kept from game to game.
pub struct Reviewer {
    searcher: Searcher,
    settings: Settings,
}

impl Reviewer {
    /// A reviewer searching within `settings`.
    pub fn new(settings: Settings) -> Reviewer {
        let mut searcher = Searcher::new(settings.hash_mb);
        searcher.set_threads(settings.threads);
        searcher.set_network(Some(default_network()));
        Reviewer { searcher, settings }
    }

    /// Its settings.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// Reviews `record`'s main line: searches each position in order (the hash table is
    /// kept from one position to the next, and cleared first), calling `progress(done,
    /// total)` after each of the `total` positions. Once `stop` is raised (checked between
    /// searches and at each iteration of a search) it returns what was done: the moves whose
    /// positions before and after were searched to the end, with `complete` false.
    pub fn review(
        &mut self,
        record: &Record,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(usize, usize),
    ) -> Review {
        self.searcher.clear();
        let total = record.moves.len() + 1;
        let mut game = Game::new(record.start.clone());
        let mut judged = Vec::with_capacity(total);
        let mut nodes = 0;
        for i in 0..total {
            if i > 0 && game.play(record.moves[i - 1].mv).is_err() {
                // A record's moves are legal: this is not reached.
                break;
            }
            let Some((j, n)) = self.judge(&game, i + 1 == total, stop) else {
                break;
            };
            judged.push(j);
            nodes += n;
            progress(i + 1, total);
        }
        let mut review = assess(record, &judged, self.settings);
        review.nodes = nodes;
        review
    }

    /// The score, best move and line of the game's current position, and the nodes spent;
    /// `None` if stopped. The final position of a game that is over is scored by the rules,
    /// unsearched.
    fn judge(&mut self, game: &Game, last: bool, stop: &AtomicBool) -> Option<(Judged, u64)> {
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        match game.outcome(usize::MAX).filter(|_| last) {
            Some(outcome) => {
                let score = verdict(game.position(), outcome);
                let j = Judged {
                    score,
                    best: None,
                    pv: Vec::new(),
                };
                Some((j, 0))
            }
            None => self.search(game, stop),
        }
    }

    /// The search of the game's current position; `None` if stopped meanwhile (the search is
    /// then cut short: its answer is not kept).
    fn search(&mut self, game: &Game, stop: &AtomicBool) -> Option<(Judged, u64)> {
        let signals = Arc::new(Signals::new(false));
        let mut sink = StopSink {
            stop,
            signals: &signals,
        };
        let r = self
            .searcher
            .search(game, &self.settings.limits(), &signals, &mut sink);
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        let (score, pv) = match r.lines.first() {
            Some(line) => (line.score, line.pv.clone()),
            None => (r.score, r.best.into_iter().collect()),
        };
        let j = Judged {
            score,
            best: r.best,
            pv,
        };
        Some((j, r.nodes))
    }
}

/// The score (side to move's view) of a position where the game is over.
fn verdict(pos: &Position, outcome: Outcome) -> Score {
    match outcome {
        Outcome::Draw(_) => Score::DRAW,
        Outcome::Win(c, Reason::Checkmate | Reason::Stalemate) if c == pos.side_to_move() => {
            Score::mate_in(0)
        }
        Outcome::Win(_, Reason::Checkmate | Reason::Stalemate) => Score::mated_in(0),
        Outcome::Win(c, _) if c == pos.side_to_move() => Score::ban_win(0),
        Outcome::Win(..) => Score::ban_loss(0),
    }
}

/// `score` (the view of `side`) from Red's view.
fn red_view(score: Score, side: Color) -> Score {
    match side {
        Color::Red => score,
        Color::Black => -score,
    }
}

/// The review of the moves whose positions before and after were judged.
fn assess(record: &Record, judged: &[Judged], settings: Settings) -> Review {
    let mut mover = record.start.side_to_move();
    let mut moves = Vec::new();
    for (node, pair) in record.moves.iter().zip(judged.windows(2)) {
        moves.push(move_review(node.mv, mover, &pair[0], &pair[1]));
        mover = !mover;
    }
    let mut counts = [[0u32; 3]; 2];
    for m in &moves {
        if let Some(j) = m.judgement {
            counts[m.mover.index()][j.index()] += 1;
        }
    }
    let accuracy = game_accuracy(&moves);
    Review {
        complete: moves.len() == record.moves.len(),
        moves,
        accuracy,
        counts,
        plies: record.moves.len(),
        settings,
        nodes: 0,
    }
}

/// The review of `mv`, played by `mover` from the position judged `before` to the one judged
/// `after`.
fn move_review(mv: Move, mover: Color, before: &Judged, after: &Judged) -> MoveReview {
    let best = before.best.unwrap_or(mv);
    let loss = if mv == best {
        0.0
    } else {
        (expected(before.score) - expected(-after.score)).max(0.0)
    };
    let pv = if before.pv.is_empty() {
        vec![best]
    } else {
        before.pv.clone()
    };
    MoveReview {
        mv,
        mover,
        before: red_view(before.score, mover),
        after: red_view(-after.score, mover),
        best,
        pv,
        loss,
        accuracy: move_accuracy(loss),
        judgement: if mv == best {
            None
        } else {
            Judgement::of(loss)
        },
    }
}

/// Each side's accuracy (see the module's documentation).
fn game_accuracy(moves: &[MoveReview]) -> [Option<f64>; 2] {
    let Some(head) = moves.first() else {
        return [None, None];
    };
    let mut wins = vec![100.0 * expected(head.before)];
    wins.extend(moves.iter().map(|m| 100.0 * expected(m.after)));
    let weights = volatility(&wins);
    let mut out = [None, None];
    for side in Color::ALL {
        let mut own = Vec::new();
        for (i, m) in moves.iter().enumerate() {
            if m.mover == side {
                own.push((m.accuracy, weights[i]));
            }
        }
        out[side.index()] = side_accuracy(&own);
    }
    out
}

/// The weight of each move (one fewer than `wins`): the standard deviation of the win
/// percentages around it, clamped to 0.5…12.
fn volatility(wins: &[f64]) -> Vec<f64> {
    let moves = wins.len() - 1;
    let size = (moves / 10).clamp(2, 8).min(wins.len());
    let mut windows: Vec<&[f64]> = vec![&wins[..size]; size - 2];
    windows.extend(wins.windows(size));
    windows
        .iter()
        .take(moves)
        .map(|w| deviation(w).clamp(0.5, 12.0))
        .collect()
}

/// The population standard deviation of `xs` (not empty).
fn deviation(xs: &[f64]) -> f64 {
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    (xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n).sqrt()
}

/// The mean of the weighted mean and the harmonic mean of (accuracy, weight) pairs.
fn side_accuracy(moves: &[(f64, f64)]) -> Option<f64> {
    if moves.is_empty() {
        return None;
    }
    let total: f64 = moves.iter().map(|&(_, w)| w).sum();
    let weighted = moves.iter().map(|&(a, w)| a * w).sum::<f64>() / total;
    let harmonic = moves.len() as f64 / moves.iter().map(|&(a, _)| 1.0 / a.max(1.0)).sum::<f64>();
    Some((weighted + harmonic) / 2.0)
}

/// The program and version an `Annotator` tag names.
const ANNOTATOR: &str = concat!("Chariot ", env!("CARGO_PKG_VERSION"));

/// The marks a review gives or takes away: 1 `!`, 2 `?`, 3 `!!`, 4 `??`, 5 `!?`, 6 `?!`.
const MOVE_MARKS: std::ops::RangeInclusive<u8> = 1..=6;

/// A copy of `record` with `review` written into it, moves in `notation`:
///
/// - each move reviewed gets `[%eval …]` (the position after it, Red's view) at the start of
///   its comment; a move judged bad also gets its mark (`?!`, `?`, `??`: NAG 6, 2, 4, in
///   place of any mark `$1`–`$6` it had) and `Blunder. Best was <line> (<eval>).`, the
///   engine's line (at most `LINE_PLIES` plies) and its eval. The reviewed moves' marks `?!`,
///   `?` and `??` are the review's: a move it does not judge loses them;
/// - the game comment starts with the summary (`Review::summary`); tags `Annotator`
///   (`Chariot <version> (<limits>)`), `RedAccuracy` and `BlackAccuracy` (one decimal).
///
/// What the record said is kept after the review's words, less an earlier review's (its
/// `[%eval …]`, judgement sentences and summary), so annotating an annotated record again
/// gives what annotating the original gives.
pub fn annotate(record: &Record, review: &Review, notation: Notation) -> Record {
    let mut out = record.clone();
    let mut pos = record.start.clone();
    for (node, m) in out.moves.iter_mut().zip(&review.moves) {
        let ours = move_comment(&pos, m, notation);
        node.comment = Some(joined(
            ours,
            node.comment.as_deref().map(strip_move_comment),
        ));
        node.nags.retain(|n| !matches!(n, 2 | 4 | 6));
        if let Some(j) = m.judgement {
            node.nags.retain(|n| !MOVE_MARKS.contains(n));
            node.nags.insert(0, j.nag());
        }
        pos = pos.play(node.mv);
    }
    let summary = format!("{}.", review.summary());
    out.comment = Some(joined(summary, out.comment.as_deref().map(strip_summary)));
    let annotator = format!("{ANNOTATOR} ({})", review.settings.describe());
    out.set_tag("Annotator", &annotator);
    for (side, tag) in Color::ALL.iter().zip(["RedAccuracy", "BlackAccuracy"]) {
        let value = review.accuracy[side.index()].map(|a| format!("{a:.1}"));
        out.set_tag(tag, value.as_deref().unwrap_or_default());
    }
    out
}

/// `ours`, then what is left of the record's own text, if anything.
fn joined(ours: String, theirs: Option<String>) -> String {
    match theirs {
        Some(t) if !t.is_empty() => format!("{ours} {t}"),
        _ => ours,
    }
}

/// The comment a review gives move `m`, played from `pos`.
fn move_comment(pos: &Position, m: &MoveReview, notation: Notation) -> String {
    let mut s = format!("[%eval {}]", Eval::from_red(m.after));
    if let Some(j) = m.judgement {
        s.push_str(&format!(
            " {}. Best was {} ({}).",
            j.title(),
            line_text(pos, &m.pv, notation),
            Eval::from_red(m.before)
        ));
    }
    s
}

/// The first `LINE_PLIES` moves of `line` from `pos` in `notation`, space-separated.
pub fn line_text(pos: &Position, line: &[Move], notation: Notation) -> String {
    let mut pos = pos.clone();
    let mut words = Vec::new();
    for &mv in line.iter().take(LINE_PLIES) {
        if !pos.is_legal(mv) {
            break;
        }
        words.push(pos.move_text(mv, notation));
        pos = pos.play(mv);
    }
    words.join(" ")
}

/// A move's comment without what an earlier review wrote in it: every `[%eval …]`, and a
/// judgement sentence (`Blunder. Best was … (…).`).
fn strip_move_comment(comment: &str) -> String {
    let mut rest = comment.to_string();
    while let Some(at) = rest.find("[%eval") {
        let end = rest[at..].find(']').map_or(rest.len(), |e| at + e + 1);
        rest.replace_range(at..end, "");
    }
    let mut rest = rest.trim();
    for j in Judgement::ALL {
        let lead = format!("{}. Best was ", j.title());
        if let Some(tail) = rest.strip_prefix(lead.as_str()) {
            rest = tail.find(").").map_or("", |e| &tail[e + 2..]).trim_start();
        }
    }
    rest.trim().to_string()
}

/// A game comment without an earlier review's summary at its start.
fn strip_summary(comment: &str) -> String {
    let t = comment.trim();
    let red = t.split(',').next().unwrap_or_default();
    let ours =
        t.starts_with("Red no moves;") || (red.starts_with("Red ") && red.ends_with("% accuracy"));
    if !ours || !t.contains("; Black ") {
        return t.to_string();
    }
    let from = t.find("; Black ").unwrap_or(0);
    // The summary ends with the first full stop after Black's part that ends a sentence.
    let end = t[from..]
        .char_indices()
        .find(|&(i, c)| {
            c == '.'
                && t[from + i + 1..]
                    .chars()
                    .next()
                    .is_none_or(char::is_whitespace)
        })
        .map_or(t.len(), |(i, _)| from + i + 1);
    t[end..].trim().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::Node;

    /// A small node budget: the tests run in debug builds.
    fn settings() -> Settings {
        Settings {
            nodes: Some(3000),
            hash_mb: 1,
            ..Settings::default()
        }
    }

    fn record(fen: &str, moves: &[&str]) -> Record {
        let mut r = Record::new(fen.parse().unwrap());
        let mut pos = r.start.clone();
        for m in moves {
            let mv = pos.parse_move(m).unwrap();
            r.moves.push(Node::new(mv));
            pos = pos.play(mv);
        }
        r
    }

    fn review(r: &Record) -> Review {
        let stop = AtomicBool::new(false);
        Reviewer::new(settings()).review(r, &stop, &mut |_, _| {})
    }

    /// Red's chariot against Black's: Red puts its chariot where Black's takes it.
    const HANGING: &str = "3k4r/9/9/9/9/9/9/9/R8/4K4 w - - 0 1";

    #[test]
    fn a_hung_chariot_is_a_blunder() {
        let r = record(HANGING, &["a1i1", "i9i1", "e0f0"]);
        let review = review(&r);
        assert!(review.complete);
        let hung = &review.moves[0];
        assert_eq!(hung.judgement, Some(Judgement::Blunder), "{hung:?}");
        assert!(hung.loss > 0.3, "{hung:?}");
        assert_eq!(review.counts[0][Judgement::Blunder.index()], 1);
        assert_eq!(review.moves[1].judgement, None, "{:?}", review.moves[1]);
        assert!(review.accuracy[0].unwrap() < review.accuracy[1].unwrap());
        let annotated = annotate(&r, &review, Notation::Iccs);
        assert_eq!(annotated.moves[0].nags, [4]);
        let comment = annotated.moves[0].comment.as_deref().unwrap();
        assert!(comment.contains("Blunder. Best was "), "{comment}");
        let text = crate::record::pgn::write(&annotated, Notation::Chinese);
        assert!(text.contains("??"), "{text}");
    }

    /// A game of the reviewer's own best moves, made as `review` searches.
    fn best_game(fen: &str, plies: usize) -> Record {
        let mut reviewer = Reviewer::new(settings());
        reviewer.searcher.clear();
        let stop = AtomicBool::new(false);
        let mut game = Game::new(fen.parse().unwrap());
        for _ in 0..plies {
            let (j, _) = reviewer.judge(&game, false, &stop).unwrap();
            game.play(j.best.unwrap()).unwrap();
        }
        Record::from_game(&game)
    }

    #[test]
    fn best_moves_are_perfect() {
        let r = best_game(crate::board::START_FEN, 6);
        let review = review(&r);
        for m in &review.moves {
            assert_eq!(m.mv, m.best);
            assert_eq!(m.judgement, None);
            assert_eq!(m.loss, 0.0);
        }
        assert_eq!(review.accuracy, [Some(100.0), Some(100.0)]);
        assert_eq!(review.counts, [[0; 3]; 2]);
        let annotated = annotate(&r, &review, Notation::Chinese);
        assert!(annotated.moves.iter().all(|n| n.nags.is_empty()));
        assert_eq!(annotated.tag("RedAccuracy"), Some("100.0"));
    }

    #[test]
    fn eval_comments_read_back() {
        let r = record(HANGING, &["a1i1", "i9i1", "e0f0", "i1i0"]);
        let review = review(&r);
        let annotated = annotate(&r, &review, Notation::Wxf);
        for (node, m) in annotated.moves.iter().zip(&review.moves) {
            let comment = node.comment.as_deref().unwrap();
            assert_eq!(
                Eval::find_in(comment),
                Some(Eval::from_red(m.after)),
                "{comment}"
            );
        }
        // Through PGN text and back.
        let text = crate::record::pgn::write(&annotated, Notation::Wxf);
        let back = crate::record::pgn::read(&text).remove(0).unwrap();
        assert_eq!(back.moves, annotated.moves);
        for (text, eval) in [
            ("0.35", Eval::Cp(35)),
            ("-1.20", Eval::Cp(-120)),
            ("-0.05", Eval::Cp(-5)),
            ("0.00", Eval::Cp(0)),
            (
                "#5",
                Eval::Mate {
                    moves: 5,
                    red: true,
                },
            ),
            (
                "#-3",
                Eval::Mate {
                    moves: 3,
                    red: false,
                },
            ),
            (
                "#-0",
                Eval::Mate {
                    moves: 0,
                    red: false,
                },
            ),
        ] {
            assert_eq!(eval.to_string(), text);
            assert_eq!(text.parse::<Eval>(), Ok(eval));
        }
        assert!("x".parse::<Eval>().is_err() && "#".parse::<Eval>().is_err());
    }

    #[test]
    fn mates_are_counted_in_the_winners_moves() {
        let red = |s: Score| Eval::from_red(s).to_string();
        assert_eq!(red(Score::mate_in(1)), "#1");
        assert_eq!(red(Score::mate_in(3)), "#2");
        assert_eq!(red(Score::mated_in(2)), "#-1");
        assert_eq!(red(Score::mated_in(0)), "#-0");
        assert_eq!(red(Score::ban_win(5)), "#3");
        assert_eq!(red(Score::cp(-1234)), "-12.34");
    }

    #[test]
    fn a_mate_on_the_board_is_scored_by_the_rules() {
        // Two chariots: b0b9 mates (the king's file is open to Red's king; so does e0e1,
        // leaving Black no move).
        let r = record("3k5/R8/9/9/9/9/9/9/9/1R2K4 w - - 0 1", &["b0b9"]);
        let review = review(&r);
        let mate = &review.moves[0];
        assert_eq!(mate.after, Score::mate_in(0));
        assert_eq!(Eval::from_red(mate.after).to_string(), "#0");
        assert_eq!(mate.before, Score::mate_in(1));
        assert_eq!((mate.loss, mate.judgement), (0.0, None));
        // One search (stopped early by the mate it proved); the final position is not searched.
        assert!(review.nodes > 0 && review.nodes <= 3000, "{}", review.nodes);
        assert_eq!(review.accuracy, [Some(100.0), None]);
        assert!(review.summary().ends_with("; Black no moves"));
    }

    #[test]
    fn annotating_twice_changes_nothing_more() {
        let mut r = record(HANGING, &["a1i1", "i9i1", "e0f0"]);
        r.comment = Some("A test game.".into());
        r.moves[0].comment = Some("Oops.".into());
        r.moves[1].nags = vec![1];
        let review = review(&r);
        let once = annotate(&r, &review, Notation::Chinese);
        let twice = annotate(&once, &review, Notation::Chinese);
        assert_eq!(once, twice);
        assert!(once.comment.as_deref().unwrap().ends_with(". A test game."));
        assert!(once.moves[0]
            .comment
            .as_deref()
            .unwrap()
            .ends_with(" Oops."));
        assert_eq!(once.moves[1].nags, [1]);
    }

    #[test]
    fn a_stop_ends_the_review_with_what_was_done() {
        let r = record(HANGING, &["a1i1", "i9i1", "e0f0", "i1i0"]);
        let stop = AtomicBool::new(false);
        let mut seen = Vec::new();
        let review = Reviewer::new(settings()).review(&r, &stop, &mut |done, total| {
            seen.push((done, total));
            if done == 3 {
                stop.store(true, Ordering::Relaxed);
            }
        });
        assert_eq!(seen, [(1, 5), (2, 5), (3, 5)]);
        assert!(!review.complete);
        assert_eq!(review.moves.len(), 2);
        assert!(review.summary().contains("stopped: 2 of 4 moves"));
        let annotated = annotate(&r, &review, Notation::Iccs);
        assert!(annotated.moves[2].comment.is_none());
        let stopped = AtomicBool::new(true);
        let none = Reviewer::new(settings()).review(&r, &stopped, &mut |_, _| {});
        assert!(none.moves.is_empty() && !none.complete);
        assert_eq!(none.accuracy, [None, None]);
    }

    #[test]
    fn accuracy_follows_lichess() {
        assert_eq!(move_accuracy(0.0), 100.0);
        // 10 points of win percentage: 103.1668 e^−0.4354 − 3.1669 + 1.
        assert!(
            (move_accuracy(0.10) - 64.58).abs() < 0.01,
            "{}",
            move_accuracy(0.10)
        );
        assert_eq!(move_accuracy(1.0), 0.0);
        assert_eq!(expected(Score::DRAW), 0.5);
        assert!((expected(Score::cp(300)) + expected(Score::cp(-300)) - 1.0).abs() < 1e-12);
        assert_eq!(expected(Score::mated_in(4)), 0.0);
        // One perfect move and one at 0 (counted as 1 in the harmonic mean), equal weights.
        let a = side_accuracy(&[(100.0, 1.0), (0.0, 1.0)]).unwrap();
        assert!((a - (50.0 + 2.0 / 1.01) / 2.0).abs() < 1e-9, "{a}");
        // Windows: 2 for 20 moves or fewer, one weight a move.
        let w = volatility(&[50.0, 60.0, 50.0]);
        assert_eq!(w, [5.0, 5.0]);
        assert_eq!(volatility(&vec![50.0; 101]).len(), 100);
    }
}
