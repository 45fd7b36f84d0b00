//! Perft: counting the leaves of the legal move tree, the proof of the move generator.

use crate::board::{Move, Position};
use crate::host::Instant;

/// Number of leaf nodes `depth` plies below `pos` (bulk-counted at the last ply).
pub fn perft(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal() as u64,
        _ => {
            let moves = pos.legal_moves();
            let mut n = 0;
            for m in moves.iter() {
                n += perft(&pos.play(m), depth - 1);
            }
            n
        }
    }
}

/// As `perft`, but `None` soon after `stop()` returns true (it is asked at every node more
/// than one ply above the leaves, a few microseconds apart).
pub fn perft_until(pos: &Position, depth: u32, stop: &dyn Fn() -> bool) -> Option<u64> {
    match depth {
        0 => Some(1),
        1 => Some(pos.count_legal() as u64),
        _ => {
            if stop() {
                return None;
            }
            let moves = pos.legal_moves();
            let mut n = 0;
            for m in moves.iter() {
                n += perft_until(&pos.play(m), depth - 1, stop)?;
            }
            Some(n)
        }
    }
}

/// Leaf counts per root move (`divide`), in generation order. With `threads > 1` the root moves
/// are shared out between threads; the counts are the same.
pub fn divide(pos: &Position, depth: u32, threads: usize) -> Vec<(Move, u64)> {
    divide_until(pos, depth, threads, &|| false).0
}

/// As `divide`, giving up soon after `stop()` returns true: the counts of the root moves
/// finished by then (in generation order), and whether that is all of them.
pub fn divide_until(
    pos: &Position,
    depth: u32,
    threads: usize,
    stop: &(dyn Fn() -> bool + Sync),
) -> (Vec<(Move, u64)>, bool) {
    let moves: Vec<Move> = pos.legal_moves().iter().collect();
    let sub = depth.saturating_sub(1);
    if threads <= 1 || moves.len() < 2 {
        let done: Vec<(Move, u64)> = moves
            .iter()
            .map_while(|&m| perft_until(&pos.play(m), sub, stop).map(|n| (m, n)))
            .collect();
        let complete = done.len() == moves.len();
        return (done, complete);
    }
    let next = std::sync::atomic::AtomicUsize::new(0);
    let mut counts: Vec<Option<u64>> = vec![None; moves.len()];
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                s.spawn(|| {
                    let mut done = Vec::new();
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        if i >= moves.len() {
                            break;
                        }
                        match perft_until(&pos.play(moves[i]), sub, stop) {
                            Some(n) => done.push((i, Some(n))),
                            None => {
                                done.push((i, None));
                                break;
                            }
                        }
                    }
                    done
                })
            })
            .collect();
        for h in handles {
            for (i, n) in h.join().expect("perft thread") {
                counts[i] = n;
            }
        }
    });
    let complete = counts.iter().all(Option::is_some);
    let done = moves
        .into_iter()
        .zip(counts)
        .filter_map(|(m, n)| Some((m, n?)))
        .collect();
    (done, complete)
}

/// Runs `divide` and writes Stockfish-style output: one `move: count` line per root move, a
/// blank line, `Nodes searched: N`; then time and leaves per second on `timing`.
pub fn run(
    pos: &Position,
    depth: u32,
    threads: usize,
    out: &mut dyn std::io::Write,
    timing: &mut dyn std::io::Write,
) -> std::io::Result<u64> {
    Ok(run_until(pos, depth, threads, &|| false, out, timing)?.unwrap_or(0))
}

/// As `run`, giving up soon after `stop()` returns true: then it writes the root moves counted
/// so far and, on `timing`, `perft stopped: K of N root moves counted, L leaves` (no `Nodes
/// searched` line), and returns `None`.
pub fn run_until(
    pos: &Position,
    depth: u32,
    threads: usize,
    stop: &(dyn Fn() -> bool + Sync),
    out: &mut dyn std::io::Write,
    timing: &mut dyn std::io::Write,
) -> std::io::Result<Option<u64>> {
    let start = Instant::now();
    let (lines, complete) = if depth == 0 {
        (Vec::new(), true)
    } else {
        divide_until(pos, depth, threads, stop)
    };
    let total: u64 = if depth == 0 {
        1
    } else {
        lines.iter().map(|(_, n)| n).sum()
    };
    let secs = start.elapsed().as_secs_f64();
    for (m, n) in &lines {
        writeln!(out, "{m}: {n}")?;
    }
    if !complete {
        out.flush()?;
        let roots = pos.legal_moves().iter().count();
        writeln!(
            timing,
            "perft stopped: {} of {roots} root moves counted, {total} leaves",
            lines.len()
        )?;
        return Ok(None);
    }
    writeln!(out)?;
    writeln!(out, "Nodes searched: {total}")?;
    out.flush()?;
    let nps = if secs > 0.0 { total as f64 / secs } else { 0.0 };
    writeln!(timing, "Time: {:.3} s, {:.1} M leaves/s", secs, nps / 1e6)?;
    Ok(Some(total))
}
