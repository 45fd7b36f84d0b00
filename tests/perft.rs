//! Perft: every count of `positions/perft.epd` and the start position, exactly.

mod common;

use chariot::board::perft::{divide, perft};
use chariot::board::Position;

#[test]
fn start_position_depths_1_to_5() {
    let pos = Position::startpos();
    let expected = [44u64, 1_920, 79_666, 3_290_240, 133_312_995];
    for (d, &n) in expected.iter().enumerate() {
        assert_eq!(
            perft(&pos, d as u32 + 1),
            n,
            "start position depth {}",
            d + 1
        );
    }
}

#[test]
#[ignore = "5.4 billion leaves: run with `cargo test --release -- --ignored`"]
fn start_position_depth_6() {
    assert_eq!(perft(&Position::startpos(), 6), 5_392_831_844);
}

#[test]
fn perft_epd_every_listed_depth() {
    let lines = common::read_epd(include_str!("../positions/perft.epd"));
    assert!(lines.len() >= 30, "perft.epd has {} lines", lines.len());
    let mut checked = 0;
    for epd in &lines {
        let pos: Position = epd
            .fen
            .parse()
            .unwrap_or_else(|e| panic!("{}: {e}", epd.fen));
        for (op, value) in &epd.ops {
            let depth: u32 = op
                .strip_prefix('D')
                .and_then(|d| d.parse().ok())
                .unwrap_or_else(|| panic!("bad op {op}"));
            let n: u64 = value.parse().expect("count");
            assert_eq!(perft(&pos, depth), n, "{} depth {depth}", epd.fen);
            checked += 1;
        }
    }
    assert!(checked >= 130);
}

#[test]
fn divide_sums_to_perft_and_threads_agree() {
    let pos: Position = "2bakabnr/9/1c5c1/pPp1p4/9/1C1p2n2/4P3P/6NC1/9/R1BAKAB2 w"
        .parse()
        .expect("valid FEN");
    let single = divide(&pos, 3, 1);
    let multi = divide(&pos, 3, 2);
    assert_eq!(single, multi);
    assert_eq!(single.iter().map(|(_, n)| n).sum::<u64>(), 75_947);
    assert_eq!(single.len(), 40);
}

#[test]
fn perft_command_line_output() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_chariot"))
        .args(["perft", "2"])
        .output()
        .expect("run chariot perft");
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("h2e2: "), "{text}");
    assert_eq!(
        text.lines()
            .filter(|l| l.contains(": ") && !l.starts_with("Nodes"))
            .count(),
        44
    );
    assert!(text.lines().any(|l| l == "Nodes searched: 1920"), "{text}");
    let bad = std::process::Command::new(env!("CARGO_BIN_EXE_chariot"))
        .args(["perft", "2", "4k4/9/9/9/9/9/9/9/9/4K4 w"])
        .output()
        .expect("run chariot perft");
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("invalid FEN"));
}
