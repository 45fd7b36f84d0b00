//! The ladder of skill levels in short node-limited matches (the same games on any machine,
//! up to the levels' random choices): each checked level beats the one five below it, and the
//! lowest level does not outscore a one-ply search. The full table, with 40 games per pair of
//! neighbours, is in `docs/strength/stage1.md`.

use std::process::Command;

/// Engine 1's points and the number of games of `chariot match` with `args`; every level
/// limits itself, so the shared `--nodes` is only a ceiling.
fn points(args: &[&str]) -> (f64, u32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_chariot"))
        .arg("match")
        .args(["--nodes", "100000000", "--concurrency", "2"])
        .args(args)
        .output()
        .expect("run chariot match");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let wdl = stdout
        .lines()
        .find_map(|l| l.strip_prefix("W/D/L: "))
        .expect("W/D/L line");
    let n: Vec<u32> = wdl
        .split('/')
        .map(|x| x.trim().parse().expect("count"))
        .collect();
    (n[0] as f64 + n[1] as f64 / 2.0, n.iter().sum(), stdout)
}

/// `upper` against `lower` (Skill Levels), `games` games: `upper`'s points.
fn level_against(upper: u32, lower: u32, games: u32) -> (f64, String) {
    let (o1, o2) = (
        format!("Skill Level={upper}"),
        format!("Skill Level={lower}"),
    );
    let g = games.to_string();
    let (p, n, text) = points(&["--games", &g, "--option1", &o1, "--option2", &o2]);
    assert_eq!(n, games, "{text}");
    (p, text)
}

/// Five levels apart (about 500 Elo on the measured ladder, an expected score near 95 %), the
/// higher level takes at least two thirds of the points, all the way up the ladder.
#[test]
fn the_ladder_is_monotonic() {
    for (upper, lower) in [(5, 0), (10, 5), (15, 10)] {
        let (p, text) = level_against(upper, lower, 12);
        assert!(p >= 8.0, "level {upper} against level {lower}: {text}");
    }
}

/// Full strength (here at 20,000 nodes a move) beats the lowest level.
#[test]
fn full_strength_beats_the_lowest_level() {
    let (p, n, text) = points(&[
        "--games",
        "10",
        "--nodes1",
        "20000",
        "--option1",
        "Skill Level=20",
        "--option2",
        "Skill Level=0",
    ]);
    assert_eq!(n, 10, "{text}");
    assert!(p >= 9.0, "full strength against level 0: {text}");
}

/// Level 0 is weak enough for a beginner: it scores less than half against a one-ply search
/// (full strength at `go depth 1`); the test fails only if it clearly outscores it.
#[test]
fn level_zero_does_not_outscore_a_one_ply_search() {
    let (p, n, text) = points(&[
        "--games",
        "20",
        "--option1",
        "Skill Level=0",
        "--depth2",
        "1",
    ]);
    assert_eq!(n, 20, "{text}");
    assert!(p <= 11.0, "level 0 against a one-ply search: {text}");
}
