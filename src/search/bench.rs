//! `bench`: a fixed-depth search over the positions of `positions/bench.epd`.
//!
//! The node total is the search's signature: it changes only when search behaviour changes.
//! Each position is searched with fresh tables (the default hash, `DEFAULT_HASH_MB`: 16 MiB;
//! one thread, no clock), with the
//! default evaluation (the embedded network) unless another is asked for.

use crate::board::{Game, Position};
use crate::host::Instant;
use crate::search::{Limits, NullSink, Searcher, Signals};
use std::sync::Arc;

/// The bench positions (FENs), one per line of `positions/bench.epd`.
pub const POSITIONS: &str = include_str!("../../positions/bench.epd");

/// Default bench depth.
pub const DEFAULT_DEPTH: u32 = 8;

/// Total nodes and elapsed seconds of a bench at `depth` with the default evaluation (the
/// embedded network). Only the searches are timed, not the allocation of each position's tables.
pub fn bench(depth: u32) -> (u64, f64) {
    bench_with(depth, Some(crate::eval::nnue::default_network()))
}

/// As `bench`, evaluating with `net`, or classically when `None`.
pub fn bench_with(depth: u32, net: Option<Arc<crate::eval::nnue::Network>>) -> (u64, f64) {
    bench_until(depth, net, &Arc::new(Signals::new(false))).unwrap_or((0, 0.0))
}

/// As `bench_with`, every search polling `signals`: `None` once they are stopped (the search
/// running then ends within its polling interval, and the rest are not started).
pub fn bench_until(
    depth: u32,
    net: Option<Arc<crate::eval::nnue::Network>>,
    signals: &Arc<Signals>,
) -> Option<(u64, f64)> {
    let mut secs = 0.0;
    let mut nodes = 0;
    for line in POSITIONS.lines() {
        if signals.stopped() {
            return None;
        }
        let fen = line.split(';').next().unwrap_or("").trim();
        let Ok(pos) = fen.parse::<Position>() else {
            continue;
        };
        let mut searcher = Searcher::default();
        searcher.set_network(net.clone());
        let limits = Limits {
            depth: Some(depth),
            ..Default::default()
        };
        let start = Instant::now();
        let r = searcher.search(&Game::new(pos), &limits, signals, &mut NullSink);
        secs += start.elapsed().as_secs_f64();
        nodes += r.nodes;
    }
    if signals.stopped() {
        return None;
    }
    Some((nodes, secs))
}

/// Runs the bench with `net` (`None`: the classical evaluation) and writes its last line:
/// `<nodes> nodes <nps> nps`.
pub fn run(
    depth: Option<u32>,
    net: Option<Arc<crate::eval::nnue::Network>>,
    out: &mut dyn std::io::Write,
) -> std::io::Result<u64> {
    let signals = Arc::new(Signals::new(false));
    Ok(run_until(depth, net, &signals, out)?.unwrap_or(0))
}

/// As `run`, stopping with `signals`: then it writes nothing and returns `None`.
pub fn run_until(
    depth: Option<u32>,
    net: Option<Arc<crate::eval::nnue::Network>>,
    signals: &Arc<Signals>,
    out: &mut dyn std::io::Write,
) -> std::io::Result<Option<u64>> {
    let Some((nodes, secs)) = bench_until(depth.unwrap_or(DEFAULT_DEPTH), net, signals) else {
        return Ok(None);
    };
    let nps = (nodes as f64 / secs.max(1e-9)) as u64;
    writeln!(out, "{nodes} nodes {nps} nps")?;
    out.flush()?;
    Ok(Some(nodes))
}
