//! The npm package `chariot-xiangqi` as a user gets it: `npm pack` of `target/web/` (assembled
//! by `bash scripts/web.sh`), installed from the tarball into an empty folder with no registry
//! (`npm install --offline`), then `tests/npm/check.mjs` imports it by name in Node and runs
//! it; this test compares what it saw with the native binary:
//!
//! - `go depth 6` from the README's position gives the native nodes and bestmove: isolated
//!   (the SIMD module, lines through shared memory), not isolated (the plain module, lines
//!   posted to the worker), two engines at once, and again after a `stop` replaced the worker
//!   (the position given to the new worker);
//! - lines posted before the engine is ready are answered;
//! - a list of bad lines is answered line for line as natively, in both modes;
//! - `stop` during `go infinite` answers in both modes (measured), not isolated with the best
//!   move reported so far; `isready` answers during the search; `ponderhit` and a new `go`
//!   during a search each give one bestmove;
//! - `terminate()` ends the worker (no more lines, and Node exits);
//! - a wrong `base` (a missing folder, an HTTP 404) rejects naming the URL;
//! - the rules-only module is less than half the network's size (no copy of it);
//! - notation and records (`notate`, `readMove`, `readRecord`, `writePgn`, the same from
//!   `loadRules`): the notation oracle's sample (`scripts/notation_oracle_sample.tsv`, pyffish's
//!   WXF and cchess's Chinese) written and read back, a game in all three notations as the
//!   library writes it, a Chinese, a WXF and a Big5 PGN, an XQF file and a DhtmlXQ text read
//!   to the independent readers' main lines (`tests/data/records/expected.tsv`), PGN written
//!   in each notation and read back to the same moves, tags and comments, bad input answered
//!   with one message (never thrown) and the engine still giving the native depth 6 after it;
//! - `review` in its own worker (the engine answers `isready` meanwhile) gives the native
//!   `chariot annotate` PGN at the same nodes; a bad record, a bad option and bad input reject
//!   naming the problem; two reviews at once are both answered.
//!
//! It needs Node 20 and npm; `.ci/run` runs it after building the package:
//!
//! ```text
//! bash scripts/web.sh
//! cargo test --release --test npm -- --ignored
//! ```

mod common;

use chariot::board::Notation;
use chariot::record::json;
use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The native engine's output for `lines` (its input closed after them).
fn native(lines: &[String]) -> Vec<String> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_chariot"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the native binary runs");
    let mut input = child.stdin.take().unwrap();
    let text = lines.join("\n") + "\n";
    let writer = std::thread::spawn(move || input.write_all(text.as_bytes()));
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_string)
        .collect()
}

/// The lines every engine must answer as the native loop does. None starts a search: a search
/// stopped at once says what the clock allowed (`go depth x` warns, then searches without a
/// limit).
fn bad_lines() -> Vec<String> {
    let mut lines: Vec<String> = [
        "go depth 0",
        "position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN w",
        "position startpos moves h2e2 h2e2",
        "position startpos moves 炮二平五",
        "setoption name Hash value lots",
        "setoption name NoSuchOption value 1",
        "setoption name Skill Level value 99",
        "position fen",
        "frobnicate",
        "stop",
        "ponderhit",
        "banmoves zz",
        "probe fen bad",
        "bench 99",
        "ucci",
        "setoption Hash lots",
        "stop",
        "uci",
        "",
        "   ",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    lines.push("x".repeat(100));
    // Over the 1 MiB limit: refused whole ("line too long").
    lines.push(format!(
        "position startpos moves {}",
        "h2e2 ".repeat(500_000)
    ));
    lines
}

/// The sections of check.mjs's output: `== NAME` lines, each followed by its lines.
fn sections(text: &str) -> HashMap<String, Vec<String>> {
    let mut map: HashMap<String, Vec<String>> = HashMap::new();
    let mut name = String::new();
    for line in text.lines() {
        if let Some(n) = line.strip_prefix("== ") {
            name = n.to_string();
            map.entry(name.clone()).or_default();
        } else {
            map.entry(name.clone()).or_default().push(line.to_string());
        }
    }
    map
}

/// The nodes of the depth-6 report and the bestmove's move.
fn depth6(lines: &[String]) -> (u64, String) {
    let info = lines
        .iter()
        .rfind(|l| l.starts_with("info depth 6 "))
        .unwrap_or_else(|| panic!("no depth 6: {lines:?}"));
    let words: Vec<&str> = info.split_whitespace().collect();
    let at = words.iter().position(|w| *w == "nodes").unwrap();
    let best = lines
        .iter()
        .rfind(|l| l.starts_with("bestmove"))
        .unwrap_or_else(|| panic!("no bestmove: {lines:?}"));
    (
        words[at + 1].parse().unwrap(),
        best.split_whitespace().nth(1).unwrap().to_string(),
    )
}

/// Runs `program args` in `dir`; its stdout, or a panic with its stderr.
fn run(program: &str, args: &[&str], dir: &Path) -> String {
    let out = Command::new(program)
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {program}: {e}"));
    assert!(
        out.status.success(),
        "{program} {args:?} failed ({}):\n{}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Packs `target/web/`, installs the tarball into an empty folder, runs check.mjs there.
fn run_check(site: &Path, work: &Path) -> String {
    let packed = run(
        "npm",
        &["pack", "--pack-destination", work.to_str().unwrap()],
        site,
    );
    let tarball = work.join(packed.lines().last().expect("npm pack names its tarball"));
    let size = std::fs::metadata(&tarball).map(|m| m.len()).unwrap_or(0);
    println!("{}: {size} bytes", tarball.display());
    let app = work.join("app");
    std::fs::create_dir_all(&app).unwrap();
    std::fs::write(
        app.join("package.json"),
        "{\"name\":\"npm-check\",\"private\":true,\"type\":\"module\"}\n",
    )
    .unwrap();
    let install = ["install", "--offline", "--no-audit", "--no-fund"];
    run(
        "npm",
        &[&install[..], &[tarball.to_str().unwrap()]].concat(),
        &app,
    );
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    std::fs::copy(root.join("tests/npm/check.mjs"), app.join("check.mjs")).unwrap();
    let bad = bad_lines().join("\n") + "\n";
    std::fs::write(app.join("bad.txt"), bad).unwrap();
    run(
        "node",
        &["check.mjs", "bad.txt", root.to_str().unwrap()],
        &app,
    )
}

/// A `stop` record of check.mjs (`isready_ms stop_ms again_ms pv bestmove …`): the
/// milliseconds of `isready` and `stop`, the move of the pv before `stop`, the bestmove's.
fn stops(lines: &[String]) -> Vec<(f64, f64, String, String)> {
    lines
        .iter()
        .map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            assert_eq!(w.get(4), Some(&"bestmove"), "{l}");
            let ms = |i: usize| w[i].parse::<f64>().unwrap();
            (ms(0), ms(1), w[3].to_string(), w[5].to_string())
        })
        .collect()
}

#[test]
#[ignore = "needs node, npm and the built package (bash scripts/web.sh): .ci/run runs it"]
fn packed_package_in_node() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let site = root.join("target/web");
    for file in [
        "package.json",
        "chariot.js",
        "chariot.wasm",
        "chariot-simd.wasm",
        "chariot-rules.wasm",
    ] {
        assert!(
            site.join(file).exists(),
            "no target/web/{file}: run `bash scripts/web.sh` first"
        );
    }
    // `rules` needs no second copy of the network: the rules module leaves it out.
    let size = |path: PathBuf| std::fs::metadata(path).unwrap().len();
    let (rules, net) = (
        size(site.join("chariot-rules.wasm")),
        size(root.join("src/eval/nnue/nets/default.nnue")),
    );
    assert!(rules < net / 2, "chariot-rules.wasm has {rules} bytes");
    let work: PathBuf = std::env::temp_dir().join(format!("chariot-npm-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&work);
    std::fs::create_dir_all(&work).unwrap();
    let out = run_check(&site, &work);
    let _ = std::fs::remove_dir_all(&work);
    println!("{out}");
    let s = sections(&out);
    let get = |name: &str| {
        s.get(name)
            .unwrap_or_else(|| panic!("no section {name}:\n{out}"))
    };

    // Lines posted before ready are answered.
    let queued = get("queued");
    assert_eq!(queued[0], "ready false", "posted before ready");
    assert!(queued.contains(&"uciok".to_string()) && queued.last().unwrap() == "readyok");
    assert_eq!(get("mode"), &["isolated true simd true"]);
    assert_eq!(get("other mode"), &["isolated false simd false"]);

    // The native depth-6 answer, in every mode.
    let want = depth6(&native(&[
        "position startpos moves h2e2 h9g7".into(),
        "go depth 6".into(),
    ]));
    for name in [
        "depth6 ring",
        "depth6 message",
        "depth6 ring again",
        "depth6 after stop",
    ] {
        assert_eq!(depth6(get(name)), want, "{name}");
    }

    // Bad lines, line for line.
    let mut lines = bad_lines();
    lines.push("isready".into());
    let mut want = native(&lines);
    // Up to the answer to `isready` (then the end of input: UCCI's `bye`).
    let end = want.iter().position(|l| l == "readyok").expect("readyok");
    want.truncate(end + 1);
    assert_eq!(get("bad ring"), &want, "bad lines, isolated");
    assert_eq!(get("bad message"), &want, "bad lines, not isolated");

    // stop: legal moves; not isolated, the best move reported before it.
    let rules = &get("rules");
    assert!(rules[0].starts_with("{\"ok\":true,") && rules[0].contains("\"turn\":\"w\""));
    assert!(rules[1].starts_with("{\"ok\":false,"), "{}", rules[1]);
    for (ready, ms, _, best) in stops(get("stop ring")) {
        assert!(
            ms < 200.0 && ready < 200.0,
            "stop took {ms} ms, isready {ready} ms"
        );
        assert!(
            rules[0].contains(&format!("\"{best}\"")),
            "{best} not legal"
        );
    }
    for (ready, ms, pv, best) in stops(get("stop message")) {
        assert!(
            ms < 200.0 && ready < 200.0,
            "stop took {ms} ms, isready {ready} ms"
        );
        assert_eq!(pv, best, "the best move reported so far");
    }

    // ponderhit and a superseding go: one bestmove each, legal.
    let ponder = get("ponderhit");
    let best = best_move(ponder);
    assert!(
        get("legal")[0].split(' ').any(|m| m == best),
        "{best} after ponderhit"
    );
    let superseded = get("superseded");
    assert_eq!(
        superseded
            .iter()
            .filter(|l| l.starts_with("bestmove"))
            .count(),
        2
    );
    assert_eq!(get("lines after terminate"), &["0"]);

    records_match(get("records"), root);
    assert_eq!(
        depth6(get("depth6 after records")),
        depth6(&native(&[
            "position startpos moves h2e2 h9g7".into(),
            "go depth 6".into(),
        ])),
        "depth 6 after the bad records"
    );

    // A wrong base names the URL.
    let wrong = get("wrong base");
    assert!(
        wrong[0].starts_with("chariot: cannot load file:///nonexistent/chariot/chariot-"),
        "{}",
        wrong[0]
    );
    assert!(
        wrong[1].starts_with("chariot: cannot load http://127.0.0.1:")
            && wrong[1].contains("/nowhere/chariot-")
            && wrong[1].contains(": 404"),
        "{}",
        wrong[1]
    );
}

/// The 24 plies of check.mjs's `GAME`.
const GAME: &str = "h2e2 h9g7 h0g2 i9h9 i0h0 b9c7 c3c4 g6g5 b0c2 b7b3 e3e4 h7h3 a0a1 b3c3 c0a2 a9b9 a1d1 b9b3 d1d7 g9e7 d7c7 f9e8 f0e1 h3h4";

/// `items` as a JSON array of strings, as `JSON.stringify` writes it.
fn json_strings<S: AsRef<str>>(items: impl IntoIterator<Item = S>) -> String {
    let items: Vec<String> = items
        .into_iter()
        .map(|s| json::string(s.as_ref()))
        .collect();
    format!("[{}]", items.join(","))
}

/// The main line `tests/data/records/expected.tsv` (or `dhtmlxq/expected.tsv`) gives game
/// `game` of `file`, as a JSON array.
fn expected_moves(root: &Path, table: &str, file: &str, game: usize) -> String {
    let text = std::fs::read_to_string(root.join("tests/data/records").join(table)).unwrap();
    let line = text
        .lines()
        .find(|l| l.starts_with(&format!("{file}\t{game}\t")))
        .unwrap_or_else(|| panic!("{file} {game} not in {table}"));
    json_strings(line.split('\t').nth(3).unwrap_or("").split_whitespace())
}

/// check.mjs's `records` section against the library, the oracle's sample and the native
/// `chariot annotate`.
fn records_match(lines: &[String], root: &Path) {
    let got: HashMap<&str, &str> = lines.iter().filter_map(|l| l.split_once('\t')).collect();
    let get = |name: &str| {
        *got.get(name)
            .unwrap_or_else(|| panic!("no {name}: {lines:?}"))
    };
    // The oracle's sample: each move in each notation, and read back from each.
    let sample = std::fs::read_to_string(root.join("scripts/notation_oracle_sample.tsv")).unwrap();
    for (i, line) in sample.trim().lines().enumerate() {
        let f: Vec<&str> = line.split('\t').collect();
        for (n, text) in ["iccs", "wxf", "chinese"].iter().zip(&f[1..4]) {
            let want = format!("{{\"ok\":true,\"texts\":[{}]}}", json::string(text));
            assert_eq!(get(&format!("notate {i} {n}")), want, "{line}");
            let want = format!("{{\"ok\":true,\"move\":{}}}", json::string(f[1]));
            assert_eq!(get(&format!("readMove {i} {n}")), want, "{line}");
        }
    }
    // A game: each move in its own position, as the library writes it.
    let game = chariot::record::json::spec_game(&format!("startpos moves {GAME}")).unwrap();
    for n in Notation::ALL {
        let mut pos = game.start().clone();
        let mut texts = Vec::new();
        for &m in game.moves() {
            texts.push(pos.move_text(m, n));
            pos = pos.play(m);
        }
        let want = format!("{{\"ok\":true,\"texts\":{}}}", json_strings(&texts));
        assert_eq!(get(&format!("notate game {n}")), want);
        assert_eq!(get(&format!("alone notate game {n}")), want);
    }
    // Records: the independent readers' main lines.
    for (file, table) in [
        ("pgn/utf8-wukong-chinese.pgn", "expected.tsv"),
        ("pgn/wxf-wukong-fullwidth.pgn", "expected.tsv"),
        ("pgn/big5-ccpd-zj-00000001.pgn", "expected.tsv"),
        ("xqf/v10-jindai-05.xqf", "expected.tsv"),
    ] {
        let answer = get(&format!("record {file}"));
        let moves = expected_moves(root, table, file, 0);
        assert!(
            answer.starts_with("{\"ok\":true,\"count\":"),
            "{file}: {answer}"
        );
        assert!(
            answer.contains(&format!("\"moves\":{moves}")),
            "{file}: {answer}"
        );
    }
    let chinese = get("record pgn/utf8-wukong-chinese.pgn");
    assert!(
        chinese.starts_with("{\"ok\":true,\"count\":15,\"start\":null,"),
        "{chinese}"
    );
    let big5 = get("record pgn/big5-ccpd-zj-00000001.pgn");
    assert!(
        big5.contains("\"start\":\"4kab2/4a4/2R1b1P2/9/p3p4/5p3/P3P1c2/N2Cr4/4A4/3AK4 b"),
        "{big5}"
    );
    let xqf = get("record xqf/v10-jindai-05.xqf");
    assert!(
        xqf.contains("\"Red\":\"黄松轩\"") && xqf.contains("\"result\":\"1-0\""),
        "{xqf}"
    );
    let dhtml = get("record dhtmlxq/dpxq_liuyongfu_zhangyongsheng.txt");
    let moves = expected_moves(
        root,
        "dhtmlxq/expected.tsv",
        "dpxq_liuyongfu_zhangyongsheng.txt",
        1,
    );
    assert!(dhtml.contains(&format!("\"moves\":{moves}")), "{dhtml}");
    assert!(
        get("record fen").starts_with("{\"ok\":true,\"count\":1,\"start\":\"4k4/9/9/9/9/9/9/9/4A4/3AK4 w - - 0 1\",\"moves\":[]"),
        "{}",
        get("record fen")
    );
    // PGN written in each notation reads back to the same game, tags and comments.
    let moves = json_strings(GAME.split(' '));
    for n in Notation::ALL {
        let written = get(&format!("writePgn {n}"));
        assert!(
            written.starts_with("{\"ok\":true,\"pgn\":\"[Event \\\"Club match\\\"]"),
            "{written}"
        );
        let back = get(&format!("readback {n}"));
        assert!(back.contains(&format!("\"moves\":{moves}")), "{n}: {back}");
        assert!(
            back.contains("\"comments\":[null,\"马跳正\",null,null,\"two lines\",null,"),
            "{back}"
        );
        assert!(back.contains("\"tags\":{\"Event\":\"Club match\",\"Red\":\"胡荣华\",\"Black\":\"Bob\",\"Result\":\"*\"}"), "{back}");
    }
    assert!(get("writePgn chinese").contains("1. 炮二平五 马８进７ {马跳正}"));
    assert!(
        get("writePgn mate").contains("[Result \\\"1-0\\\"]"),
        "{}",
        get("writePgn mate")
    );
    // Bad input: one message each, none thrown.
    let bad: Vec<&String> = lines.iter().filter(|l| l.starts_with("bad ")).collect();
    assert_eq!(bad.len(), 14);
    for line in bad {
        assert!(line.contains("\t{\"ok\":false,\"error\":\""), "{line}");
    }
    for (i, want) in [
        "malformed move zz at ply 2",
        "unknown notation 'klingon'",
        "no legal move is 炮二进九",
        "no move typed",
        "FEN",
        "game 1, ply 3: illegal move h2h8",
        "unreadable FEN: FEN has 3 ranks",
        "no game in the record",
        "\"error\":\"",
        "readRecord takes text",
        "game 1",
        "bad option line: tag Bad?name x",
        "comment on ply 9: the game has 1 plies",
        "illegal move h2h8 at ply 1",
    ]
    .iter()
    .enumerate()
    {
        let line = lines
            .iter()
            .filter(|l| l.starts_with("bad "))
            .nth(i)
            .unwrap();
        assert!(line.contains(want), "{line}: no {want}");
    }
    assert!(get("rules after bad").starts_with("{\"ok\":true,\"fen\":"));
    review_matches(&got, lines);
}

/// check.mjs's reviews against the native `chariot annotate` at the same nodes and hash.
fn review_matches(got: &HashMap<&str, &str>, lines: &[String]) {
    let get = |name: &str| {
        *got.get(name)
            .unwrap_or_else(|| panic!("no {name}: {lines:?}"))
    };
    assert_eq!(get("isready during review"), "readyok");
    let review = get("review");
    assert!(
        review.starts_with("{\"ok\":true,\"complete\":true,"),
        "{review}"
    );
    assert_eq!(review.matches("{\"ply\":").count(), 24, "{review}");
    assert!(review.contains("\"accuracy\":{\"red\":") && review.contains("\"judgement\":"));
    let dir = std::env::temp_dir().join(format!("chariot-npm-review-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("game.pgn"),
        format!("[Event \"Test\"]\n\n{GAME} *\n"),
    )
    .unwrap();
    let args = [
        "annotate",
        "--nodes",
        "20000",
        "--hash",
        "16",
        "--notation",
        "chinese",
        "game.pgn",
    ];
    let native = run(env!("CARGO_BIN_EXE_chariot"), &args, &dir);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(
        get("review pgn"),
        json::string(native.trim()),
        "the review's PGN and native annotate's"
    );
    assert!(get("review bad").contains("chariot: review: game 1, ply 3: illegal move h2h8"));
    assert!(get("review option").contains("nodes: not a number: lots"));
    assert!(get("review input").contains("review takes a record"));
    assert_eq!(get("two reviews"), "2 2");
    let ms: f64 = get("review ms").parse().unwrap();
    println!("review of 24 plies at 20000 nodes: {ms} ms");
}

/// The move of the last bestmove line.
fn best_move(lines: &[String]) -> String {
    let best = lines
        .iter()
        .rfind(|l| l.starts_with("bestmove"))
        .unwrap_or_else(|| panic!("no bestmove: {lines:?}"));
    best.split_whitespace().nth(1).unwrap().to_string()
}

#[test]
#[ignore = "needs node and the WebAssembly WASI standard library (rustup target add wasm32-wasip1)"]
fn simd128_loops_give_the_portable_integers() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let runner = root.join("scripts/wasi_run.mjs");
    common::simd_loops_pass(
        "wasm32-wasip1",
        &["-C", "target-feature=+simd128"],
        &["node", runner.to_str().expect("a UTF-8 path")],
    );
}
