//! `scripts/cluster.py` on a real local Ray cluster of 2 CPUs: datagen shards that `chariot
//! train` reads, shards that stay whole when a worker's `chariot datagen` is killed, a run
//! stopped by SIGTERM and taken up again, and a match whose W/D/L adds up.
//!
//! These tests need Python with Ray (`scripts/requirements-cluster.txt`); `.ci/run` installs
//! it in a virtual environment and runs them with `CHARIOT_PYTHON` pointing at its python:
//!
//! ```text
//! python3 -m venv target/venv && target/venv/bin/pip install -r scripts/requirements-cluster.txt
//! CHARIOT_PYTHON=target/venv/bin/python cargo test --release --test cluster -- --ignored
//! ```

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

const CHARIOT: &str = env!("CARGO_BIN_EXE_chariot");
const RECORD: u64 = 32;

/// One Ray cluster at a time: the machine has two CPUs, and each run starts its own.
static ONE_CLUSTER: Mutex<()> = Mutex::new(());

fn python() -> String {
    std::env::var("CHARIOT_PYTHON").unwrap_or_else(|_| "python3".into())
}

fn cluster(words: &[&str]) -> Command {
    let mut c = Command::new(python());
    c.arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/cluster.py"));
    c.args(["--local", "2"]).args(words);
    c
}

fn folder(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("chariot-cluster-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn text(out: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The shard files of `dir`, sorted, and each one's record count (its header not counted).
/// Every shard must be whole: a header, then whole 32-byte records.
fn shards(dir: &Path) -> Vec<(PathBuf, u64)> {
    let mut found: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "bin"))
        .collect();
    found.sort();
    let leftovers: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "temporary files left: {leftovers:?}");
    found
        .into_iter()
        .map(|p| {
            let bytes = std::fs::read(&p).unwrap();
            assert_eq!(
                bytes.len() as u64 % RECORD,
                0,
                "{} is cut short",
                p.display()
            );
            assert_eq!(
                &bytes[..11],
                b"CHARIOTDATA",
                "{} has no header",
                p.display()
            );
            let n = bytes.len() as u64 / RECORD - 1;
            (p, n)
        })
        .collect()
}

#[test]
#[ignore = "needs Python with Ray (scripts/requirements-cluster.txt): .ci/run installs it"]
fn datagen_shards_are_distinct_and_train_reads_them() {
    let _one = ONE_CLUSTER.lock().unwrap_or_else(|e| e.into_inner());
    let dir = folder("four");
    let out = cluster(&["datagen", "--chariot", CHARIOT, "--out"])
        .arg(&dir)
        .args(["--shards", "4", "--positions", "2000", "--nodes", "1000"])
        .output()
        .unwrap();
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    let found = shards(&dir);
    assert_eq!(found.len(), 4, "{found:?}");
    assert!(found.iter().all(|(_, n)| *n >= 500), "{found:?}");
    let total: u64 = found.iter().map(|(_, n)| n).sum();
    assert!(total >= 2000, "{total} records");
    assert!(stdout.contains(&format!("datagen: {total} positions in 4 of 4 shards")));
    let contents: std::collections::HashSet<Vec<u8>> = found
        .iter()
        .map(|(p, _)| std::fs::read(p).unwrap()[32..].to_vec())
        .collect();
    assert_eq!(contents.len(), 4, "two shards hold the same games");

    // Run again: every shard is whole already, so nothing is made.
    let again = cluster(&["datagen", "--chariot", CHARIOT, "--out"])
        .arg(&dir)
        .args(["--shards", "4", "--positions", "2000", "--nodes", "1000"])
        .output()
        .unwrap();
    let (stdout, stderr) = text(&again);
    assert!(again.status.success(), "{stderr}");
    assert!(stderr.contains("4 of 4 shards already whole"), "{stderr}");
    assert!(stdout.contains("made 0 in"), "{stdout}");

    // Other settings in the same folder are refused before anything starts.
    let other = cluster(&["datagen", "--chariot", CHARIOT, "--out"])
        .arg(&dir)
        .args(["--shards", "5", "--positions", "2000"])
        .output()
        .unwrap();
    assert_eq!(other.status.code(), Some(2), "{}", text(&other).1);

    let net = dir.join("net.nnue");
    let mut train = Command::new(CHARIOT);
    train.arg("train");
    for (p, _) in &found {
        train.arg(p);
    }
    let trained = train
        .arg("-o")
        .arg(&net)
        .args([
            "--epochs",
            "1",
            "--batch",
            "256",
            "--threads",
            "1",
            "--quiet",
        ])
        .output()
        .unwrap();
    assert!(trained.status.success(), "{}", text(&trained).1);
    assert!(std::fs::metadata(&net).unwrap().len() > 0);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The pids of running `chariot datagen` processes of shard seed `seed`.
fn datagen_pids(seed: u64) -> Vec<u32> {
    let mut pids = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let Ok(cmd) = std::fs::read(entry.path().join("cmdline")) else {
            continue;
        };
        let words: Vec<String> = cmd
            .split(|&b| b == 0)
            .map(|w| String::from_utf8_lossy(w).into_owned())
            .collect();
        let is_shard = words.get(1).is_some_and(|w| w == "datagen")
            && words
                .windows(2)
                .any(|w| w[0] == "--seed" && w[1] == seed.to_string());
        if is_shard {
            pids.push(pid);
        }
    }
    pids
}

#[test]
#[ignore = "needs Python with Ray (scripts/requirements-cluster.txt): .ci/run installs it"]
fn a_killed_datagen_process_is_retried_and_every_shard_is_whole() {
    let _one = ONE_CLUSTER.lock().unwrap_or_else(|e| e.into_inner());
    let dir = folder("six");
    // Shard k runs with seed 7100 + k: shard 1 is killed once it has written some records.
    let run = cluster(&["datagen", "--chariot", CHARIOT, "--out"])
        .arg(&dir)
        .args(["--shards", "6", "--positions", "18000", "--seed", "7100"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    let killed = loop {
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "shard 1 never ran"
        );
        if let Some(&pid) = datagen_pids(7101).first() {
            std::thread::sleep(Duration::from_secs(2));
            let status = Command::new("kill").args(["-9", &pid.to_string()]).status();
            assert!(status.unwrap().success());
            break pid;
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    let out = run.wait_with_output().unwrap();
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(
        stderr.contains("shard 1: chariot datagen exited -9")
            && stderr.contains("attempt 1 of 4; it is run again"),
        "the kill of {killed} was not reported:\n{stderr}"
    );
    let found = shards(&dir);
    assert_eq!(found.len(), 6, "{found:?}");
    assert!(found.iter().all(|(_, n)| *n >= 3000), "{found:?}");

    // The retried shard is the shard its seed makes: the same bytes as a plain run.
    let plain = dir.join("plain.data");
    let made = Command::new(CHARIOT)
        .args([
            "datagen",
            "--positions",
            "3000",
            "--seed",
            "7101",
            "--threads",
            "1",
        ])
        .arg("--output")
        .arg(&plain)
        .output()
        .unwrap();
    assert!(made.status.success(), "{}", text(&made).1);
    assert!(std::fs::read(&plain).unwrap() == std::fs::read(&found[1].0).unwrap());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
#[ignore = "needs Python with Ray (scripts/requirements-cluster.txt): .ci/run installs it"]
fn a_run_stopped_by_sigterm_says_what_it_made_and_the_same_command_ends_it() {
    let _one = ONE_CLUSTER.lock().unwrap_or_else(|e| e.into_inner());
    let dir = folder("stopped");
    let words = [
        "--shards",
        "10",
        "--positions",
        "5000",
        "--nodes",
        "500",
        "--seed",
        "7300",
    ];
    let run = cluster(&["datagen", "--chariot", CHARIOT, "--out"])
        .arg(&dir)
        .args(words)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Stop it with SIGTERM, as `kill PID` stops a long run, once a shard is whole.
    let started = Instant::now();
    let whole = |dir: &Path| {
        std::fs::read_dir(dir).map_or(0, |d| {
            d.flatten()
                .filter(|e| e.file_name().to_string_lossy().ends_with(".bin"))
                .count()
        })
    };
    while whole(&dir) == 0 {
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "no shard was made"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    let status = Command::new("kill")
        .args(["-TERM", &run.id().to_string()])
        .status();
    assert!(status.unwrap().success());
    let out = run.wait_with_output().unwrap();
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(130), "{stdout}\n{stderr}");
    // No shard's chariot outlives the run.
    let stopped = Instant::now();
    while (7300..7310).any(|seed| !datagen_pids(seed).is_empty()) {
        assert!(
            stopped.elapsed() < Duration::from_secs(10),
            "a chariot datagen outlived the stopped run"
        );
        std::thread::sleep(Duration::from_millis(100));
    }

    // Only whole shards are left, and the run says what it made before it stopped.
    let kept = shards(&dir);
    assert!(!kept.is_empty() && kept.len() < 10, "{kept:?}");
    let total: u64 = kept.iter().map(|(_, n)| n).sum();
    assert!(
        stdout.contains(&format!(
            "datagen: {total} positions in {} of 10 shards",
            kept.len()
        )) && stdout.contains(&format!("made {total} in ")),
        "{stdout}"
    );
    assert!(
        stderr.contains(&format!("interrupted: {} whole shards", kept.len())),
        "{stderr}"
    );

    // The same command makes the rest and leaves the kept shards as they were.
    let before: Vec<Vec<u8>> = kept
        .iter()
        .map(|(p, _)| std::fs::read(p).unwrap())
        .collect();
    let again = cluster(&["datagen", "--chariot", CHARIOT, "--out"])
        .arg(&dir)
        .args(words)
        .output()
        .unwrap();
    let (stdout, stderr) = text(&again);
    assert!(again.status.success(), "{stdout}\n{stderr}");
    assert!(
        stderr.contains(&format!("{} of 10 shards already whole", kept.len())),
        "{stderr}"
    );
    let all = shards(&dir);
    assert_eq!(all.len(), 10, "{all:?}");
    let grand: u64 = all.iter().map(|(_, n)| n).sum();
    assert!(
        stdout.contains(&format!("datagen: {grand} positions in 10 of 10 shards"))
            && stdout.contains(&format!("made {} in ", grand - total)),
        "{stdout}"
    );
    for ((p, _), bytes) in kept.iter().zip(&before) {
        assert!(
            std::fs::read(p).unwrap() == *bytes,
            "{} changed",
            p.display()
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
#[ignore = "needs Python with Ray (scripts/requirements-cluster.txt): .ci/run installs it"]
fn a_match_on_the_cluster_adds_up() {
    let _one = ONE_CLUSTER.lock().unwrap_or_else(|e| e.into_inner());
    let dir = folder("match");
    std::fs::create_dir_all(&dir).unwrap();
    let pgn = dir.join("games.pgn");
    let out = cluster(&["match", "--engine1", CHARIOT, "--engine2", CHARIOT])
        .args(["--chariot", CHARIOT, "--nodes", "2000", "--games", "8"])
        .arg("--pgn")
        .arg(&pgn)
        .output()
        .unwrap();
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    let wdl: Vec<&str> = stdout
        .lines()
        .filter(|l| l.starts_with("W/D/L: "))
        .collect();
    assert_eq!(wdl.len(), 1, "{stdout}");
    let sum: u32 = wdl[0]["W/D/L: ".len()..]
        .split('/')
        .map(|n| n.parse::<u32>().unwrap())
        .sum();
    assert_eq!(sum, 8, "{stdout}");
    // One PGN with every game, rounds 1 to 8, and the same summary from `chariot tally`.
    let games = std::fs::read_to_string(&pgn).unwrap();
    let mut rounds: Vec<u32> = games
        .lines()
        .filter_map(|l| {
            l.strip_prefix("[Round \"")?
                .strip_suffix("\"]")?
                .parse()
                .ok()
        })
        .collect();
    rounds.sort();
    assert_eq!(rounds, (1..=8).collect::<Vec<_>>());
    let tally = Command::new(CHARIOT)
        .arg("tally")
        .arg(&pgn)
        .output()
        .unwrap();
    assert_eq!(text(&tally).0, stdout);

    // A bad flag is refused before any task starts.
    let bad = cluster(&["match", "--chariot", CHARIOT, "--games", "4", "--tc", "1+x"])
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
    assert!(text(&bad).1.contains("bad --tc"), "{}", text(&bad).1);
    let _ = std::fs::remove_dir_all(&dir);
}
