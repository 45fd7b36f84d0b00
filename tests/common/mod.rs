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

/// Search limits of a fixed depth.
pub fn depth(d: u32) -> chariot::search::Limits {
    chariot::search::Limits {
        depth: Some(d),
        ..Default::default()
    }
}
