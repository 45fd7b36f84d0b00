//! `chariot annotate`: reviews every game of record files with the engine's search
//! (`chariot::review`) and writes them as annotated PGN: an eval on every move, the
//! inaccuracies, mistakes and blunders marked with the engine's better line, each side's
//! accuracy. A progress bar on stderr (when it is a terminal) and one summary line a game.
//!
//! Ctrl-C stops cleanly: the games reviewed to the end are written (whole, as ever), the game
//! being reviewed and those after it are left out, and the exit status is 130.

use super::records::{load, report};
use super::{Exit, Failure};
use chariot::board::Notation;
use chariot::record::{self, Format, Record};
use chariot::review::{self, Review, Reviewer, Settings};
use chariot::tools::write_whole;
use indicatif::{ProgressBar, ProgressStyle};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Once;
use std::time::Instant;

/// Arguments of `chariot annotate`.
#[derive(clap::Args, Debug, Clone)]
pub struct AnnotateArgs {
    /// Record files: PGN (ICCS, WXF or Chinese moves; UTF-8, GBK or Big5), XQF, DhtmlXQ. Every
    /// game of every file is reviewed.
    #[arg(required = true)]
    pub inputs: Vec<PathBuf>,
    /// The PGN file to write (whole, once every game is reviewed); standard output without it.
    #[arg(short, long)]
    pub output: Option<PathBuf>,
    /// The moves' notation, in the moves and in the engine's lines: iccs, wxf or chinese.
    #[arg(long, default_value = "chinese")]
    pub notation: Notation,
    /// Nodes searched in each position (100000 unless --movetime is given).
    #[arg(long, conflicts_with = "movetime")]
    pub nodes: Option<u64>,
    /// Milliseconds of search in each position, instead of a node count.
    #[arg(long, value_name = "MS")]
    pub movetime: Option<u64>,
    /// Search threads (1: the same review on every run).
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Hash table size in MiB.
    #[arg(long, value_name = "MB", default_value_t = chariot::search::DEFAULT_HASH_MB)]
    pub hash: usize,
}

impl AnnotateArgs {
    fn settings(&self) -> Settings {
        Settings {
            nodes: match (self.nodes, self.movetime) {
                (None, None) => Some(review::DEFAULT_NODES),
                (n, _) => n,
            },
            movetime_ms: self.movetime,
            threads: self.threads.max(1),
            hash_mb: self.hash.max(1),
        }
    }
}

/// Raised by Ctrl-C.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);
static HANDLER: Once = Once::new();

/// Runs `chariot annotate`.
pub fn run(args: &AnnotateArgs) -> Result<(), Failure> {
    let (games, bad) = load(&args.inputs)?;
    HANDLER.call_once(|| {
        // A process has one handler; if one is set already, Ctrl-C ends the process as usual.
        let _ = ctrlc::set_handler(|| INTERRUPTED.store(true, Ordering::SeqCst));
    });
    let annotated = review_all(&games, args);
    if !annotated.is_empty() || bad.is_empty() {
        let text = record::write(&annotated, Format::Pgn, args.notation);
        match &args.output {
            Some(out) => write_whole(out, &text)?,
            None => super::say(String::from_utf8_lossy(&text))?,
        }
    }
    if INTERRUPTED.load(Ordering::SeqCst) {
        for line in &bad {
            eprintln!("{line}");
        }
        return Err(Failure::new(
            Exit::Interrupted,
            format!(
                "interrupted: the first {} of {} games reviewed and written",
                annotated.len(),
                games.len()
            ),
        ));
    }
    report(&bad, games.len())
}

/// The games reviewed and annotated, in order, until the last or Ctrl-C.
fn review_all(games: &[Record], args: &AnnotateArgs) -> Vec<Record> {
    let mut reviewer = Reviewer::new(args.settings());
    let positions: usize = games.iter().map(|g| g.moves.len() + 1).sum();
    let bar = progress_bar(positions as u64);
    let mut out = Vec::new();
    let mut done = 0u64;
    for (i, game) in games.iter().enumerate() {
        bar.set_message(format!("game {}/{}", i + 1, games.len()));
        let started = Instant::now();
        let review = reviewer.review(game, &INTERRUPTED, &mut |n, _| {
            bar.set_position(done + n as u64);
        });
        if !review.complete {
            break;
        }
        done += game.moves.len() as u64 + 1;
        let secs = started.elapsed().as_secs_f64();
        bar.suspend(|| eprintln!("{}", summary_line(i + 1, games.len(), game, &review, secs)));
        out.push(review::annotate(game, &review, args.notation));
    }
    bar.finish_and_clear();
    out
}

/// `[3/10] Red name – Black name: <summary>; 102 plies, 10.3 M nodes, 9.8 s`.
fn summary_line(n: usize, of: usize, game: &Record, review: &Review, secs: f64) -> String {
    let red = game.red().unwrap_or("Red");
    let black = game.black().unwrap_or("Black");
    format!(
        "[{n}/{of}] {red} – {black}: {}; {} plies, {:.1} M nodes, {secs:.1} s",
        review.summary(),
        review.plies,
        review.nodes as f64 / 1e6
    )
}

/// A bar of the positions to search, drawn on stderr when it is a terminal.
fn progress_bar(positions: u64) -> ProgressBar {
    let bar = ProgressBar::new(positions);
    let template = "{elapsed_precise} [{bar:30}] {pos}/{len} positions ETA {eta} | {msg}";
    if let Ok(style) = ProgressStyle::with_template(template) {
        bar.set_style(style.progress_chars("=> "));
    }
    bar
}
