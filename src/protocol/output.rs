//! Output: one locked writer shared by the command loop and the search thread, and the
//! formatting of search reports in each dialect.
//!
//! Every message is written whole and flushed under the lock, so lines never interleave. A failed
//! write (the GUI is gone) ends the process quietly.

use super::Dialect;
use crate::board::Move;
use crate::score::Score;
use crate::search::{Info, InfoSink, SearchResult};
use std::io::Write;
use std::sync::{Arc, Mutex};

/// A shared, line-oriented writer.
#[derive(Clone)]
pub struct Out {
    inner: Arc<Mutex<Box<dyn Write + Send>>>,
    exit_on_error: bool,
}

impl Out {
    /// Writes to the process's stdout; a failed write exits the process with status 0.
    pub fn stdout() -> Out {
        Out {
            inner: Arc::new(Mutex::new(Box::new(std::io::stdout()))),
            exit_on_error: true,
        }
    }

    /// Writes to `w` (tests); failed writes are ignored.
    pub fn to_writer(w: Box<dyn Write + Send>) -> Out {
        Out {
            inner: Arc::new(Mutex::new(w)),
            exit_on_error: false,
        }
    }

    /// Writes one message (one or more lines, without the final newline) and flushes.
    pub fn line(&self, text: &str) {
        let mut w = match self.inner.lock() {
            Ok(w) => w,
            Err(poisoned) => poisoned.into_inner(),
        };
        let ok = w
            .write_all(text.as_bytes())
            .and_then(|_| w.write_all(b"\n"))
            .and_then(|_| w.flush());
        if ok.is_err() && self.exit_on_error {
            std::process::exit(0);
        }
    }

    /// `info string <text>`.
    pub fn info_string(&self, text: &str) {
        self.line(&format!("info string {text}"));
    }
}

/// UCCI's mate band: a mate `p` plies away is reported as ±(`UCCI_MATE` − p).
pub const UCCI_MATE: i32 = 10_000;
/// UCCI's rule band (ElephantEye's): a rule result `p` plies away is ±(`UCCI_BAN` − p).
pub const UCCI_BAN: i32 = 9_900;
/// UCCI scores outside the bands are clamped to ±this.
const UCCI_LIMIT: i32 = 9_000;

/// A score as UCI reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UciScore {
    /// `score cp N`.
    Cp(i32),
    /// `score mate N` (moves; negative when the side to move is mated).
    Mate(i32),
}

/// The UCI form of a score: mates and rule results as `mate N` moves.
pub fn uci(v: Score) -> UciScore {
    match v.plies_to_end() {
        Some(p) if v > Score::DRAW => UciScore::Mate((p + 1) / 2),
        Some(p) => UciScore::Mate(-(p / 2)),
        None => UciScore::Cp(v.get()),
    }
}

/// The UCCI form of a score: a bare integer, mates as ±(10000 − plies), rule results as
/// ±(9900 − plies), others clamped to ±9000.
pub fn ucci(v: Score) -> i32 {
    let sign = v.get().signum();
    match v.plies_to_end() {
        Some(p) if v.is_mate() => sign * (UCCI_MATE - p),
        Some(p) => sign * (UCCI_BAN - p),
        None => v.get().clamp(-UCCI_LIMIT, UCCI_LIMIT),
    }
}

/// Formats a score in the dialect.
pub fn score_text(dialect: Dialect, v: Score) -> String {
    match dialect {
        Dialect::Uci => match uci(v) {
            UciScore::Cp(c) => format!("score cp {c}"),
            UciScore::Mate(m) => format!("score mate {m}"),
        },
        Dialect::Ucci => format!("score {}", ucci(v)),
    }
}

fn moves_text(pv: &[Move]) -> String {
    pv.iter()
        .map(|m| m.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// One `info` line for a search report.
/// `multi`: MultiPV is above 1 (UCCI then shows `multipv` too); `wdl`: add `wdl W D L`.
pub fn info_line(dialect: Dialect, info: &Info, multi: bool, wdl: bool) -> String {
    let mut s = format!("info depth {} seldepth {}", info.depth, info.seldepth);
    if dialect == Dialect::Uci || multi {
        s.push_str(&format!(" multipv {}", info.multipv));
    }
    s.push(' ');
    s.push_str(&score_text(dialect, info.score));
    if wdl {
        let (w, d, l) = crate::score::WDL_MODEL.wdl(info.score);
        s.push_str(&format!(" wdl {w} {d} {l}"));
    }
    s.push_str(&format!(" nodes {} nps {}", info.nodes, info.nps));
    if dialect == Dialect::Uci {
        s.push_str(&format!(" hashfull {}", info.hashfull));
    }
    s.push_str(&format!(" time {}", info.time_ms));
    if !info.pv.is_empty() {
        s.push_str(" pv ");
        s.push_str(&moves_text(&info.pv));
    }
    s
}

/// The `info` lines that close a search, written just before its `bestmove`, so that the last
/// `info` a GUI reads has the final score: the lines of the last completed iteration (all of
/// them with MultiPV) with the search's final node count, time and hash fill; none when that
/// iteration's report was the last thing searched (it is final already). When the move played
/// is not line 1's (a weakened level picked another), only its line, as line 1. When no
/// iteration completed, one `depth 0` line with the static evaluation and the move played.
pub fn final_info(dialect: Dialect, result: &SearchResult, multi: bool, wdl: bool) -> Vec<String> {
    let info = |multipv: u32, depth: u32, score: Score, pv: &[Move]| Info {
        depth,
        multipv,
        seldepth: result.seldepth,
        score,
        nodes: result.nodes,
        time_ms: result.time_ms,
        nps: result.nodes * 1000 / result.time_ms.max(1),
        hashfull: result.hashfull,
        pv: pv.to_vec(),
    };
    let Some(first) = result.lines.first() else {
        let pv: Vec<Move> = result.best.into_iter().collect();
        return vec![info_line(
            dialect,
            &info(1, 0, result.score, &pv),
            multi,
            wdl,
        )];
    };
    if result.best == first.pv.first().copied() {
        if result.nodes == result.reported_nodes {
            return Vec::new();
        }
        result
            .lines
            .iter()
            .enumerate()
            .map(|(k, l)| {
                let i = info(k as u32 + 1, result.depth, l.score, &l.pv);
                info_line(dialect, &i, multi, wdl)
            })
            .collect()
    } else {
        let played = result
            .lines
            .iter()
            .find(|l| l.pv.first().copied() == result.best);
        let (score, pv) = match played {
            Some(l) => (l.score, l.pv.clone()),
            None => (result.score, result.best.into_iter().collect()),
        };
        vec![info_line(
            dialect,
            &info(1, result.depth, score, &pv),
            multi,
            wdl,
        )]
    }
}

/// `info depth <d> currmove <m> currmovenumber <n>` (both dialects).
pub fn currmove_line(depth: u32, mv: Move, number: u32) -> String {
    format!("info depth {depth} currmove {mv} currmovenumber {number}")
}

/// The `InfoSink` the search thread writes to.
pub struct ProtocolSink {
    /// Where lines go.
    pub out: Out,
    /// Dialect of the session.
    pub dialect: Dialect,
    /// MultiPV is above 1.
    pub multi: bool,
    /// `UCI_ShowWDL`: add win/draw/loss per mille.
    pub wdl: bool,
}

impl InfoSink for ProtocolSink {
    fn iteration(&mut self, info: &Info) {
        self.out
            .line(&info_line(self.dialect, info, self.multi, self.wdl));
    }

    fn current_move(&mut self, depth: u32, mv: Move, number: u32) {
        self.out.line(&currmove_line(depth, mv, number));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reports() {
        assert_eq!(uci(Score::mate_in(1)), UciScore::Mate(1));
        assert_eq!(uci(Score::mated_in(2)), UciScore::Mate(-1));
        assert_eq!(uci(Score::mated_in(4)), UciScore::Mate(-2));
        assert_eq!(uci(Score::mated_in(0)), UciScore::Mate(0));
        assert_eq!(uci(Score::cp(37)), UciScore::Cp(37));
        assert_eq!(ucci(Score::mate_in(1)), 9999);
        assert_eq!(ucci(Score::mated_in(4)), -9996);
        assert_eq!(ucci(Score::ban_win(3)), 9897);
        assert_eq!(ucci(Score::cp(12_000)), 9000);
    }
}
