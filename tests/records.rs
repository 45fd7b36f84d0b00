//! Notation and game records: every legal move written and read back in all three notations,
//! over positions of real games and made-up positions crowded with tandem pieces; real records
//! read to the main lines an independent reader gives (`tests/data/records/expected.tsv`); every
//! format converted into every other and back without loss; and every reader fed random bytes
//! and mutated real files, none panicking or hanging.
//!
//! The outside oracles (Fairy-Stockfish's WXF through pyffish, the cchess library's Chinese)
//! run in `notation_agrees_with_pyffish_and_cchess`, ignored here because it needs them
//! installed: `.ci/run` installs them in a virtual environment and runs it.

use chariot::board::{Color, Move, Notation, Piece, PieceKind, Position, Square};
use chariot::record::{self, Format, Node, Record};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

fn data(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/records")
        .join(rel)
}

/// Every record file of the real sample (folders `pgn`, `xqf`, `dhtmlxq` and below), with
/// its path relative to the sample folder.
fn sample_files() -> Vec<(String, Vec<u8>)> {
    fn walk(dir: &Path, rel: &str, out: &mut Vec<(String, Vec<u8>)>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        let mut paths: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
        paths.sort();
        for p in paths {
            let name = format!(
                "{rel}/{}",
                p.file_name().unwrap_or_default().to_string_lossy()
            );
            if p.is_dir() {
                walk(&p, &name, out);
            } else if !name.ends_with(".md")
                && !name.ends_with(".tsv")
                && !name.ends_with(".moves.txt")
            {
                out.push((name, std::fs::read(&p).expect("sample file reads")));
            }
        }
    }
    let mut out = Vec::new();
    for dir in ["pgn", "xqf", "dhtmlxq"] {
        walk(&data(dir), dir, &mut out);
    }
    out
}

/// The real games of the sample that read (broken files are meant to fail).
fn sample_games() -> Vec<Record> {
    sample_files()
        .iter()
        .flat_map(|(_, bytes)| record::read(bytes))
        .filter_map(Result::ok)
        .collect()
}

/// Every legal move of `p`, written in each notation, reads back to itself (in that notation
/// and with the notation told from the text). Returns the number of moves checked.
fn round_trip(p: &Position) -> usize {
    let legal = p.legal_moves();
    for m in legal.iter() {
        for n in Notation::ALL {
            let text = p.move_text(m, n);
            assert_eq!(p.read_move(&text), Ok(m), "{n} {text} in {p}");
            assert_eq!(p.read_move_in(&text, n), Ok(m), "{n} {text} in {p}");
        }
    }
    legal.len()
}

/// A position with pieces crowded on files: up to five pawns of the side to move on one or
/// two files past the river, a pair of rooks, horses or cannons on one file, kings apart;
/// `None` when the draw is not a legal position.
fn crowded(rng: &mut StdRng) -> Option<Position> {
    let mut board: [Option<Piece>; 90] = [None; 90];
    let us = if rng.random_bool(0.5) {
        Color::Red
    } else {
        Color::Black
    };
    let them = !us;
    let put = |board: &mut [Option<Piece>; 90], file: u8, rank: u8, p: Piece| -> bool {
        let Some(sq) = Square::new(file, rank) else {
            return false;
        };
        if board[sq.index()].is_some() {
            return false;
        }
        board[sq.index()] = Some(p);
        true
    };
    // Kings in their palaces, on different files.
    let (kf, of) = (rng.random_range(3..6u8), rng.random_range(3..6u8));
    if kf == of {
        return None;
    }
    let own_back = |c: Color, r: u8| if c == Color::Red { r } else { 9 - r };
    put(
        &mut board,
        kf,
        own_back(us, rng.random_range(0..3)),
        Piece::new(us, PieceKind::King),
    );
    put(
        &mut board,
        of,
        own_back(them, rng.random_range(0..3)),
        Piece::new(them, PieceKind::King),
    );
    // Pawns past the river on one or two files.
    let pawns = rng.random_range(2..=5u8);
    let files = [rng.random_range(0..9u8), rng.random_range(0..9u8)];
    for i in 0..pawns {
        let f = files[usize::from(i % 2 == 1 && rng.random_bool(0.6))];
        let r = own_back(us, rng.random_range(5..10));
        put(&mut board, f, r, Piece::new(us, PieceKind::Pawn));
    }
    // A pair of another kind on one file, sometimes for each side.
    for side in [us, them] {
        if rng.random_bool(0.7) {
            let kind =
                [PieceKind::Rook, PieceKind::Horse, PieceKind::Cannon][rng.random_range(0..3)];
            let f = rng.random_range(0..9u8);
            for _ in 0..2 {
                put(
                    &mut board,
                    f,
                    rng.random_range(0..10),
                    Piece::new(side, kind),
                );
            }
        }
    }
    let mut fen = String::new();
    for rank in (0..10u8).rev() {
        let mut empty = 0;
        for file in 0..9u8 {
            match Square::new(file, rank).and_then(|s| board[s.index()]) {
                Some(p) => {
                    if empty > 0 {
                        fen.push_str(&empty.to_string());
                        empty = 0;
                    }
                    fen.push(p.fen_char());
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            fen.push_str(&empty.to_string());
        }
        if rank > 0 {
            fen.push('/');
        }
    }
    fen.push_str(if us == Color::Red {
        " w - - 0 1"
    } else {
        " b - - 0 1"
    });
    fen.parse().ok()
}

#[test]
fn every_move_round_trips_in_crowded_positions() {
    let mut rng = StdRng::seed_from_u64(87);
    let (mut positions, mut moves, mut three_or_more) = (0, 0, 0);
    while positions < 3000 {
        let Some(p) = crowded(&mut rng) else { continue };
        positions += 1;
        moves += round_trip(&p);
        let us = p.side_to_move();
        let pawns = p.pieces(us, PieceKind::Pawn);
        if (0..9u8).any(|f| pawns.into_iter().filter(|s| s.file() == f).count() >= 3) {
            three_or_more += 1;
        }
    }
    assert!(moves > 30_000, "{moves}");
    assert!(three_or_more > 500, "{three_or_more}");
}

#[test]
fn every_move_of_every_real_position_round_trips() {
    let games = sample_games();
    let mut positions = 0;
    for g in &games {
        let mut p = g.start.clone();
        for m in g.mainline() {
            round_trip(&p);
            positions += 1;
            p = p.play(m);
        }
    }
    assert!(
        positions >= 1000,
        "only {positions} positions in the sample"
    );
}

/// The sample's expected main lines: (file, game index, start FEN, moves).
fn expected() -> Vec<(String, usize, String, Vec<String>)> {
    let text = std::fs::read_to_string(data("expected.tsv")).unwrap_or_default();
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .filter_map(|l| {
            let mut f = l.split('\t');
            let file = f.next()?.to_string();
            let index = f.next()?.trim().parse().ok()?;
            let fen = f.next()?.trim().to_string();
            let moves = f
                .next()
                .unwrap_or("")
                .split_whitespace()
                .map(String::from)
                .collect();
            Some((file, index, fen, moves))
        })
        .collect()
}

#[test]
fn real_records_read_to_the_independent_readers_main_lines() {
    let files = sample_files();
    let want = expected();
    assert!(want.len() >= 100, "expected.tsv lists {} games", want.len());
    for (file, index, fen, moves) in &want {
        let bytes = &files
            .iter()
            .find(|(name, _)| name == file)
            .unwrap_or_else(|| panic!("{file} is in expected.tsv but not in the sample"))
            .1;
        let games = record::read(bytes);
        let game = match games.get(*index) {
            Some(Ok(g)) => g,
            Some(Err(e)) => panic!("{file} game {index}: {e}"),
            None => panic!("{file}: no game {index}"),
        };
        let start: Position = fen.parse().expect("expected.tsv FEN");
        assert_eq!(game.start.fen(), start.fen(), "{file} game {index}");
        let got: Vec<String> = game.mainline().map(|m| m.to_string()).collect();
        assert_eq!(&got, moves, "{file} game {index}");
    }
}

#[test]
fn broken_records_fail_with_a_reason() {
    for (name, bytes) in sample_files() {
        if !name.contains("broken") {
            continue;
        }
        let games = record::read(&bytes);
        assert!(
            games.iter().any(Result::is_err),
            "{name} is meant to be broken but reads"
        );
    }
}

/// A record with all the model holds: tags, a start position, comments, marks, variations.
fn rich_record(rng: &mut StdRng) -> Record {
    let mut start = Position::startpos();
    for _ in 0..rng.random_range(0..6) {
        let legal = start.legal_moves();
        start = start.play(legal.get(rng.random_range(0..legal.len())));
    }
    fn line(rng: &mut StdRng, from: &Position, len: usize, depth: u32) -> Vec<Node> {
        let mut pos = from.clone();
        let mut out = Vec::new();
        for i in 0..len {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            let mut node = Node::new(legal.get(rng.random_range(0..legal.len())));
            if rng.random_bool(0.2) {
                node.comment = Some(format!("注{i}: a note, with 中文 and \"quotes\""));
            }
            if depth < 2 && rng.random_bool(0.1) {
                node.variations.push(line(rng, &pos, 4, depth + 1));
            }
            pos = pos.play(node.mv);
            out.push(node);
        }
        out
    }
    let mut r = Record::new(start.clone());
    for (k, v) in [
        ("Event", "全国象棋个人赛"),
        ("Site", "北京"),
        ("Date", "1988.05.01"),
        ("Red", "胡荣华"),
        ("Black", "吕钦"),
        ("Result", "1-0"),
    ] {
        r.set_tag(k, v);
    }
    r.comment = Some("开局".to_string());
    r.moves = line(rng, &start, 60, 0);
    r.moves.retain(|n| !n.variations.iter().any(Vec::is_empty));
    r
}

/// What a format keeps of a record: DhtmlXQ and XQF hold no marks.
fn kept(r: &Record, format: Format) -> Record {
    fn strip(line: &mut [Node]) {
        for n in line {
            n.nags.clear();
            for v in &mut n.variations {
                strip(v);
            }
        }
    }
    let mut r = r.clone();
    r.normalize();
    if format != Format::Pgn {
        strip(&mut r.moves);
    }
    r
}

#[test]
fn every_format_converts_into_every_other_and_back() {
    let mut rng = StdRng::seed_from_u64(88);
    let mut records: Vec<Record> = (0..20).map(|_| rich_record(&mut rng)).collect();
    records.extend(sample_games().into_iter().take(40));
    let formats = [Format::Pgn, Format::Xqf, Format::DhtmlXq];
    for r in &records {
        for a in formats {
            for b in formats {
                for n in Notation::ALL {
                    let once = record::write(std::slice::from_ref(r), a, n);
                    if record::read(&once).len() != 1 {
                        panic!("{a:?} {n}: {}", String::from_utf8_lossy(&once));
                    }
                    let ra = only(&record::read(&once), a);
                    let twice = record::write(std::slice::from_ref(&ra), b, n);
                    if record::read(&twice).len() != 1 {
                        panic!("{a:?}→{b:?} {n}: {:?}", String::from_utf8_lossy(&twice));
                    }
                    let rb = only(&record::read(&twice), b);
                    let back = record::write(std::slice::from_ref(&rb), Format::Pgn, n);
                    if record::read(&back).len() != 1 {
                        panic!("{a:?}→{b:?}→Pgn {n}: {:?}", String::from_utf8_lossy(&back));
                    }
                    let rp = only(&record::read(&back), Format::Pgn);
                    let want = kept(&kept(r, a), b);
                    // XQF and DhtmlXQ hold the board and the side to move, not the counters.
                    assert_eq!(board(&rp.start), board(&want.start), "{a:?} → {b:?} ({n})");
                    assert_eq!(rp.moves, want.moves, "{a:?} → {b:?} ({n})");
                    assert_eq!(rp.comment, want.comment, "{a:?} → {b:?} ({n})");
                    // The tags every format holds.
                    for k in ["Event", "Site", "Date", "Red", "Black", "Result"] {
                        // Dates are PGN's `YYYY.MM.DD` once DhtmlXQ has read them.
                        let same = |t: Option<&str>| {
                            t.filter(|v| !v.trim().is_empty())
                                .map(|v| v.replace('-', "."))
                        };
                        let (got, wanted) = (same(rp.tag(k)), same(want.tag(k)));
                        if a == Format::Xqf || b == Format::Xqf {
                            // XQF's fields have room for 15 or 63 bytes: a longer value is
                            // cut at a character's end.
                            let (g, w) = (got.unwrap_or_default(), wanted.unwrap_or_default());
                            assert!(
                                w.starts_with(&g) && g.is_empty() == w.is_empty(),
                                "tag {k}: {a:?} → {b:?}: {g} / {w}"
                            );
                        } else {
                            assert_eq!(got, wanted, "tag {k}: {a:?} → {b:?}");
                        }
                    }
                }
            }
        }
    }
}

/// A position's board and side to move (FEN's first two fields).
fn board(p: &Position) -> String {
    p.fen()
        .split_whitespace()
        .take(2)
        .collect::<Vec<_>>()
        .join(" ")
}

fn only(games: &[Result<Record, record::RecordError>], f: Format) -> Record {
    assert_eq!(games.len(), 1, "{f:?}: {games:?}");
    games[0].clone().unwrap_or_else(|e| panic!("{f:?}: {e}"))
}

/// Runs `read` on `input` in a thread; fails if it panics or takes over 2 s.
fn survives(input: Vec<u8>, what: &str) {
    let (tx, rx) = std::sync::mpsc::channel();
    let started = Instant::now();
    let handle = std::thread::spawn(move || {
        let n = record::read(&input).len();
        let _ = tx.send(n);
    });
    match rx.recv_timeout(Duration::from_secs(2)) {
        Ok(_) => {}
        Err(_) => panic!(
            "{what}: a reader panicked or hung ({:?})",
            started.elapsed()
        ),
    }
    let _ = handle.join();
}

#[test]
fn readers_survive_random_bytes_and_mutated_files() {
    let mut rng = StdRng::seed_from_u64(89);
    let mut seeds: Vec<Vec<u8>> = sample_files().into_iter().map(|(_, b)| b).collect();
    let mut r = rich_record(&mut rng);
    r.moves.truncate(30);
    for f in [Format::Pgn, Format::Xqf, Format::DhtmlXq] {
        seeds.push(record::write(
            std::slice::from_ref(&r),
            f,
            Notation::Chinese,
        ));
        seeds.push(record::write(std::slice::from_ref(&r), f, Notation::Wxf));
    }
    let mut cases = 0;
    for i in 0..300 {
        let len = rng.random_range(0..2000);
        let mut bytes: Vec<u8> = (0..len).map(|_| rng.random::<u8>()).collect();
        let head: &[u8] = match i % 3 {
            0 => b"XQ",
            1 => b"[DhtmlXQ][DhtmlXQ_movelist]",
            _ => b"[Event \"x\"]\n\n1. ",
        };
        bytes.splice(0..0, head.iter().copied());
        survives(bytes, "random bytes");
        cases += 1;
    }
    for seed in &seeds {
        for _ in 0..60 {
            let mut b = seed.clone();
            match rng.random_range(0..4) {
                0 => b.truncate(rng.random_range(0..=b.len())),
                1 => {
                    for _ in 0..rng.random_range(1..8) {
                        if !b.is_empty() {
                            let at = rng.random_range(0..b.len());
                            b[at] = rng.random();
                        }
                    }
                }
                2 => {
                    let at = rng.random_range(0..=b.len());
                    let junk: Vec<u8> = (0..rng.random_range(1..64))
                        .map(|_| rng.random::<u8>())
                        .collect();
                    b.splice(at..at, junk);
                }
                _ => {
                    if b.len() > 2 {
                        let a = rng.random_range(0..b.len());
                        let z = rng.random_range(a..b.len());
                        b.drain(a..z);
                    }
                }
            }
            survives(b, "a mutated record");
            cases += 1;
        }
    }
    assert!(cases >= 300 + 60 * seeds.len());
}

#[test]
fn moves_in_one_position_read_in_every_form() {
    let p = Position::startpos();
    let h2e2 = Move::new(Square::new(7, 2).unwrap(), Square::new(4, 2).unwrap());
    for text in [
        "h2e2",
        "H2-E2",
        "C2=5",
        "C2.5",
        "Ｃ２＝５",
        "炮二平五",
        "砲二平五",
        "炮２平５",
    ] {
        assert_eq!(p.read_move(text), Ok(h2e2), "{text}");
    }
}

/// The outside oracles: every legal move of thousands of positions (real games, random
/// walks, crowded positions) in our WXF against pyffish's and in our Chinese against cchess's,
/// both read back by cchess. Needs `CHARIOT_ORACLE_PYTHON`, a Python with pyffish and cchess
/// (`scripts/requirements-oracle.txt`), as `.ci/run` makes.
#[test]
#[ignore = "needs pyffish and cchess: CHARIOT_ORACLE_PYTHON=<python with them>"]
fn notation_agrees_with_pyffish_and_cchess() {
    let python = std::env::var("CHARIOT_ORACLE_PYTHON").expect("CHARIOT_ORACLE_PYTHON");
    let mut positions: Vec<Position> = Vec::new();
    for g in sample_games() {
        let mut p = g.start.clone();
        for m in g.mainline() {
            positions.push(p.clone());
            p = p.play(m);
        }
    }
    // The real games' positions, then crowded ones up to the count (the oracles take about
    // 1 ms a move).
    let count: usize = std::env::var("CHARIOT_ORACLE_POSITIONS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(800);
    positions.truncate(count * 3 / 4);
    let mut rng = StdRng::seed_from_u64(90);
    while positions.len() < count {
        if let Some(p) = crowded(&mut rng) {
            positions.push(p);
        }
    }
    let mut lines = String::new();
    for p in &positions {
        for m in p.legal_moves().iter() {
            lines.push_str(&format!(
                "{}\t{}\t{}\t{}\n",
                p.fen(),
                m,
                p.move_text(m, Notation::Wxf),
                p.move_text(m, Notation::Chinese)
            ));
        }
    }
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/notation_oracle.py");
    let mut child = std::process::Command::new(python)
        .arg(script)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("python starts");
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().expect("stdin");
        stdin.write_all(lines.as_bytes()).expect("lines written");
    }
    let out = child.wait_with_output().expect("oracle ends");
    let text = String::from_utf8_lossy(&out.stdout);
    println!("{text}");
    assert!(out.status.success(), "the oracles disagree:\n{text}");
}
