//! Perft: counting the leaves of the legal move tree, the proof of the move generator.

use crate::board::{Move, Position};
use std::time::Instant;

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

/// Leaf counts per root move (`divide`), in generation order. With `threads > 1` the root moves
/// are shared out between threads; the counts are the same.
pub fn divide(pos: &Position, depth: u32, threads: usize) -> Vec<(Move, u64)> {
    let moves: Vec<Move> = pos.legal_moves().iter().collect();
    let sub = depth.saturating_sub(1);
    if threads <= 1 || moves.len() < 2 {
        return moves
            .iter()
            .map(|&m| (m, perft(&pos.play(m), sub)))
            .collect();
    }
    let next = std::sync::atomic::AtomicUsize::new(0);
    let mut counts = vec![0u64; moves.len()];
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
                        done.push((i, perft(&pos.play(moves[i]), sub)));
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
    moves.into_iter().zip(counts).collect()
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
    let start = Instant::now();
    let (lines, total) = if depth == 0 {
        (Vec::new(), 1)
    } else {
        let d = divide(pos, depth, threads);
        let total = d.iter().map(|(_, n)| n).sum();
        (d, total)
    };
    let secs = start.elapsed().as_secs_f64();
    for (m, n) in &lines {
        writeln!(out, "{m}: {n}")?;
    }
    writeln!(out)?;
    writeln!(out, "Nodes searched: {total}")?;
    out.flush()?;
    let nps = if secs > 0.0 { total as f64 / secs } else { 0.0 };
    writeln!(timing, "Time: {:.3} s, {:.1} M leaves/s", secs, nps / 1e6)?;
    Ok(total)
}
