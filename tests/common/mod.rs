//! Helpers shared by the integration tests.
#![allow(dead_code)]

pub mod reference;

/// One line of an EPD file: the FEN and its `;`-separated operations.
pub struct Epd {
    pub fen: String,
    pub ops: Vec<(String, String)>,
}

/// Parses `<fen> ;op value ;op value …` lines (blank lines and `#` comments skipped).
pub fn read_epd(text: &str) -> Vec<Epd> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            let mut parts = l.split(';');
            let fen = parts.next().unwrap_or("").trim().to_string();
            let ops = parts
                .map(|p| {
                    let p = p.trim();
                    let (k, v) = p.split_once(' ').unwrap_or((p, ""));
                    (k.to_string(), v.trim().to_string())
                })
                .collect();
            Epd { fen, ops }
        })
        .collect()
}

/// Node budget per position: the slowest mate of the file takes about a tenth of it.
pub const MATE_NODES: u64 = 12_000_000;

/// The limits of a mates.epd search: a mate for the side to move is searched as `go mate N`
/// (stop once a mate in at most N moves is proved), a mate against it to twice its distance in
/// plies plus eight; both within [`MATE_NODES`], so the mate must be proved by then and, by
/// the end, reported at its exact distance.
pub fn mate_limits(dm: i32) -> chariot::search::Limits {
    chariot::search::Limits {
        mate: (dm > 0).then_some(dm.unsigned_abs()),
        depth: (dm < 0).then_some(2 * dm.unsigned_abs() + 8),
        nodes: Some(MATE_NODES),
        ..Default::default()
    }
}

/// Search limits of a fixed depth.
pub fn depth(d: u32) -> chariot::search::Limits {
    chariot::search::Limits {
        depth: Some(d),
        ..Default::default()
    }
}
