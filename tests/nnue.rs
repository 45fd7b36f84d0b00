//! The learned evaluation: quantized against float, incremental against refresh (through the
//! SIMD path of the build: run under qemu-aarch64 too, see `src/eval/nnue/simd.rs`), bad network
//! files, the data format, and a tiny datagen → train run. The SIMD paths against the portable
//! one are tested in `simd.rs` itself, which compiles alone for any target.

use chariot::board::{Bitboard, Color, Move, Position, START_FEN};
use chariot::eval::nnue::accumulator::{self, AccumulatorStack};
use chariot::eval::nnue::default_network;
use chariot::eval::nnue::features::{Features, Threats};
use chariot::eval::nnue::network::{Network, NetworkError};
use chariot::tools::nnue::datagen;
use chariot::tools::nnue::record;
use chariot::tools::nnue::train::{self, model::Model};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::path::PathBuf;
use std::sync::Arc;

fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("chariot-nnue-{}-{name}", std::process::id()))
}

/// Positions along seeded random games (captures and king moves come up on their own).
fn random_positions(seed: u64, games: usize, plies: usize) -> Vec<Position> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut out = Vec::new();
    for _ in 0..games {
        let mut pos = Position::startpos();
        for _ in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos = pos.play(moves.get(rng.random_range(0..moves.len())));
            out.push(pos.clone());
        }
    }
    out
}

#[test]
fn quantized_evaluation_matches_the_float_forward_pass() {
    for (features, hidden, buckets, seed) in [
        (Features::Plain, 32, 1, 1),
        (Features::Plain, 64, 3, 2),
        (Features::KingBuckets, 32, 2, 3),
    ] {
        let model = Model::new(features, hidden, buckets, seed);
        let net = Arc::new(model.quantize().expect("a valid shape"));
        let mut worst = 0.0f32;
        let mut total = 0.0f32;
        let positions = random_positions(seed, 8, 60);
        for pos in &positions {
            let q = accumulator::evaluate(&net, pos) as f32;
            let f = model.evaluate(pos);
            worst = worst.max((q - f).abs());
            total += (q - f).abs();
        }
        let mean = total / positions.len() as f32;
        // Rounding: weights to 1/255 and 1/64, the division by QA, the final truncation.
        assert!(
            mean < 3.0 && worst < 12.0,
            "H {hidden}: mean {mean} worst {worst}"
        );
    }
}

#[test]
fn incremental_accumulators_equal_a_refresh() {
    incremental_walks(default_network(), 11);
}

#[test]
fn king_bucket_accumulators_equal_a_refresh() {
    // A random king-bucket network: every move of a general refreshes from the cache.
    let net = Model::new(Features::KingBuckets, 32, 2, 7)
        .quantize()
        .unwrap();
    assert_eq!(net.features(), Features::KingBuckets);
    let bytes = net.to_bytes();
    let net = Arc::new(Network::from_bytes(&bytes).expect("a king-bucket file reads back"));
    assert_eq!(net.features(), Features::KingBuckets);
    incremental_walks(net, 12);
}

#[test]
fn threats_carried_over_moves_are_the_threats_counted_afresh() {
    // The list of a position some moves back and the points those moves changed give the
    // list of today's position.
    let mut rng = StdRng::seed_from_u64(14);
    let (mut checks, mut captures, mut threats, mut gaps) = (0, 0, 0, 0);
    for _ in 0..300 {
        let mut pos = Position::startpos();
        let mut list = Threats::of(&pos);
        let mut changed = Bitboard::EMPTY;
        for _ in 0..rng.random_range(20..160) {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            let m = legal.get(rng.random_range(0..legal.len()));
            captures += pos.piece_at(m.to()).is_some() as u32;
            pos = pos.play(m);
            changed = changed.with(m.from()).with(m.to());
            if rng.random_range(0..3) == 0 {
                continue;
            }
            let mut next = Threats::default();
            next.after(&list, &pos, changed);
            let fresh = Threats::of(&pos);
            assert_eq!(next.as_slice(), fresh.as_slice(), "{} after {m}", pos.fen());
            threats += fresh.as_slice().len();
            gaps += (changed.count() > 2) as u32;
            checks += 1;
            (list, changed) = (next, Bitboard::EMPTY);
        }
    }
    assert!(
        checks > 5_000 && captures > 1000 && threats > 30_000 && gaps > 1000,
        "{checks} {captures} {threats} {gaps}"
    );
}

#[test]
fn threat_accumulators_equal_a_refresh() {
    // A random threat network: threats are diffed between the evaluated plies, whatever moved.
    // Its threat rows reach all 32 lanes, or (narrowed as `--threat-width 16` trains them) 16;
    // threats by square, or by kind alone (where one input may count twice).
    for (features, width, lanes) in [
        (Features::Threats, None, 32),
        (Features::Threats, Some(16), 16),
        (Features::ThreatKinds, None, 32),
        (Features::ThreatKinds, Some(16), 16),
    ] {
        let mut model = Model::new(features, 32, 2, 8);
        model.narrow_threats(width);
        let net = model.quantize().unwrap();
        let net = Arc::new(Network::from_bytes(&net.to_bytes()).expect("a threat file reads back"));
        assert_eq!(net.features(), features);
        assert_eq!(net.threat_width(), lanes);
        // The threat rows are not zero, so a wrong threat would show.
        let rows = &net.ft_weights()[Features::KingBuckets.inputs() * 32..];
        let nonzero = rows.iter().filter(|&&w| w != 0).count();
        assert!(nonzero > rows.len() * lanes / 32 / 2, "{nonzero}");
        incremental_walks(Arc::clone(&net), 13);
        // The float model and the quantized network agree.
        for fen in [
            START_FEN,
            "4k4/9/9/9/4r4/4R4/9/9/9/3K5 w",
            "r1bakabr1/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1CN3NC1/9/R1BAKAB1R w",
        ] {
            let pos: Position = fen.parse().unwrap();
            let (float, quantized) = (model.evaluate(&pos), accumulator::evaluate(&net, &pos));
            assert!(
                (float - quantized as f32).abs() < 8.0,
                "{fen}: {float} {quantized}"
            );
        }
    }
}

/// Search-like walks over random legal moves and null moves, comparing the lazy incremental
/// accumulators with a refresh now and then.
fn incremental_walks(net: Arc<Network>, seed: u64) {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut stack = AccumulatorStack::new(Arc::clone(&net), 64);
    let mut fresh = AccumulatorStack::new(Arc::clone(&net), 1);
    let (mut captures, mut kings, mut nulls) = (0, 0, 0);
    for _ in 0..40 {
        // A search-like walk: down from the root, back up to a random ply, down again.
        let mut path = vec![Position::startpos()];
        stack.refresh(0, &path[0]);
        for _ in 0..6 {
            for _ in 0..rng.random_range(1..12) {
                let pos = path.last().unwrap().clone();
                let ply = path.len();
                if ply >= stack.plies() {
                    break;
                }
                let moves = pos.legal_moves();
                let (child, m): (Position, Option<Move>) =
                    if !pos.in_check() && rng.random_range(0..8) == 0 {
                        nulls += 1;
                        (pos.play_null(), None)
                    } else if moves.is_empty() {
                        break;
                    } else {
                        let m = moves.get(rng.random_range(0..moves.len()));
                        captures += pos.piece_at(m.to()).is_some() as u32;
                        kings += (pos.king(pos.side_to_move()) == m.from()) as u32;
                        (pos.play(m), Some(m))
                    };
                stack.push(ply, &pos, m);
                path.push(child);
                // Lazy: evaluate only now and then, so several deltas apply at once.
                if rng.random_range(0..3) == 0 {
                    let at = path.last().unwrap();
                    fresh.refresh(0, at);
                    assert_eq!(stack.accumulators(ply, at), fresh.accumulators(0, at));
                    assert_eq!(stack.evaluate(ply, at), accumulator::evaluate(&net, at));
                }
            }
            let keep = rng.random_range(1..=path.len());
            path.truncate(keep);
        }
    }
    assert!(
        captures > 10 && kings > 10 && nulls > 10,
        "{captures} {kings} {nulls}"
    );
}

#[test]
fn bad_network_files_are_refused_with_their_message() {
    let good = Model::new(Features::Plain, 16, 2, 3)
        .quantize()
        .unwrap()
        .to_bytes();
    assert!(Network::from_bytes(&good).is_ok());
    let missing = Network::load(&temp("does-not-exist.nnue")).unwrap_err();
    assert!(matches!(missing, NetworkError::Io(_)));
    assert!(missing.to_string().contains("cannot read"));

    let cut = Network::from_bytes(&good[..good.len() - 3]).unwrap_err();
    assert!(matches!(cut, NetworkError::Truncated { .. }), "{cut}");
    assert!(cut.to_string().contains("truncated"));
    assert!(matches!(
        Network::from_bytes(&good[..20]),
        Err(NetworkError::Truncated { .. })
    ));

    let mut other = good.clone();
    other[16..20].copy_from_slice(&24u32.to_le_bytes()); // H = 24: not a multiple of 16
    let e = Network::from_bytes(&other).unwrap_err();
    assert!(matches!(e, NetworkError::Architecture { .. }), "{e}");
    assert!(e.to_string().contains("architecture"));
    let mut other = good.clone();
    other[12..16].copy_from_slice(&768u32.to_le_bytes()); // a chess network's inputs
    assert!(matches!(
        Network::from_bytes(&other),
        Err(NetworkError::Architecture { inputs: 768, .. })
    ));

    let mut corrupt = good.clone();
    let last = corrupt.len() - 100;
    corrupt[last] ^= 1;
    let e = Network::from_bytes(&corrupt).unwrap_err();
    assert_eq!(e, NetworkError::Checksum);
    assert!(e.to_string().contains("checksum"));
    let mut longer = good.clone();
    longer.push(0);
    assert_eq!(Network::from_bytes(&longer), Err(NetworkError::Checksum));

    let mut magic = good.clone();
    magic[0] = b'X';
    assert_eq!(Network::from_bytes(&magic), Err(NetworkError::Magic));
    let mut version = good.clone();
    version[8] = 9;
    assert_eq!(Network::from_bytes(&version), Err(NetworkError::Version(9)));
    // The feature set must be known and match the input count.
    for id in [1u8, 5] {
        let mut set = good.clone();
        set[30] = id;
        assert!(matches!(
            Network::from_bytes(&set),
            Err(NetworkError::Architecture { inputs: 1260, .. })
        ));
    }
    // A version-1 file (the feature field was zero then) reads as plain.
    let mut v1 = good.clone();
    v1[8] = 1;
    assert_eq!(
        Network::from_bytes(&v1).map(|n| n.features()),
        Ok(Features::Plain)
    );

    // No prefix and no garbage panics.
    for n in (0..good.len()).step_by(331) {
        assert!(Network::from_bytes(&good[..n]).is_err());
    }
    let mut rng = StdRng::seed_from_u64(9);
    for _ in 0..50 {
        let mut g = good.clone();
        for _ in 0..4 {
            let i = rng.random_range(0..64);
            g[i] = rng.random();
        }
        let _ = Network::from_bytes(&g);
    }
    // The embedded network is valid and evaluates the start position near zero.
    let v = accumulator::evaluate(&default_network(), &Position::startpos());
    assert!(v.abs() < 200, "{v}");
}

/// Small datagen arguments writing to `output`: classical evaluation, two threads, self-play
/// with no game or position limit (tests set one).
fn datagen_args(output: &std::path::Path) -> datagen::Config {
    datagen::Config {
        output: output.to_path_buf(),
        nodes: 400,
        threads: Some(2),
        games: None,
        positions: None,
        seed: 0,
        random_plies: 4,
        book_margin: 0,
        openings: None,
        balance: 0,
        adjudicate: 1000,
        hash: 1,
        append: false,
        nnue: false,
        eval_file: None,
        pgn: Vec::new(),
    }
}

#[test]
fn datagen_then_train_lowers_the_validation_loss() {
    let data = temp("tiny.bin");
    // Enough games and nodes that the held-out games resemble the trained ones (at 8 games of
    // 400 nodes, at 16 of 1,000 once captures were ordered by static exchange, and at 32 once
    // ProbCut was on, the loss fell or rose with the search's numbers; 48 and 64 games pass for
    // seed 5, and 64 for seed 7 but not 6: the king-bucket run is the fragile half).
    let args = datagen::Config {
        nodes: 1000,
        games: Some(64),
        seed: 5,
        ..datagen_args(&data)
    };
    let summary = datagen::run(&args).expect("datagen runs");
    assert_eq!(Some(summary.games), args.games);
    let bytes = std::fs::read(&data).unwrap();
    let samples = record::decode_all(&bytes).expect("a valid data file");
    assert_eq!(samples.len() as u64, summary.positions);
    assert_eq!(bytes.len(), 32 * (samples.len() + 1)); // one header block
    for s in &samples {
        let pos = s.position().expect("legal positions");
        assert!(!pos.in_check());
        let again = record::Sample::decode(&s.encode()).unwrap().unwrap();
        assert_eq!(&again, s);
    }
    // The training below reads the first run alone: the appended shard's games (from another
    // seed) would otherwise be the held-out tail of the file.
    let to_train = temp("tiny-train.bin");
    std::fs::copy(&data, &to_train).unwrap();
    // Appending a shard from another seed: a concatenation that still reads.
    let shard = datagen::Config {
        seed: 4,
        games: Some(2),
        append: true,
        ..args.clone()
    };
    let more = datagen::run(&shard).unwrap();
    let all = record::decode_all(&std::fs::read(&data).unwrap()).unwrap();
    assert_eq!(all.len() as u64, summary.positions + more.positions);
    // The network engine plays too (`--nnue`), into a file of its own.
    let by_net = temp("by-net.bin");
    let net_run = datagen::Config {
        output: by_net.clone(),
        games: Some(1),
        nnue: true,
        ..args.clone()
    };
    let played = datagen::run(&net_run).expect("datagen with the network runs");
    let samples = record::decode_all(&std::fs::read(&by_net).unwrap()).unwrap();
    assert_eq!((played.games, samples.len() as u64), (1, played.positions));
    assert!(played.positions > 0);
    let _ = std::fs::remove_file(&by_net);

    let net = temp("tiny.nnue");
    let targs = train::Config {
        data: vec![to_train.clone()],
        output: net.clone(),
        features: None,
        hidden: Some(32),
        buckets: Some(1),
        epochs: 8,
        batch: 128,
        lr: 0.003,
        threat_lr: None,
        threat_width: None,
        lr_floor: 0.1,
        wdl: 0.25,
        k: 400.0,
        validation: 0.2,
        seed: 1,
        init: None,
        checkpoint: None,
        resume: None,
        stop_after: None,
        threads: Some(2),
        no_mirror: false,
        quiet: true,
    };
    let report = train::run(&targs).expect("training runs");
    // The output holds the best epoch's network: its validation loss is below the start's.
    let losses: Vec<f64> = report.epochs.iter().map(|e| e.validation).collect();
    assert!(
        report.best > 0,
        "no epoch improved: {} -> {losses:?}",
        report.initial_validation
    );
    let best = losses[report.best - 1];
    assert!(
        best < report.initial_validation && losses.iter().all(|&l| l >= best),
        "validation loss {} -> {losses:?}, best epoch {}",
        report.initial_validation,
        report.best
    );
    let loaded = Network::load(&net).expect("the trained network loads");
    assert_eq!(loaded.hidden(), 32);
    // Training goes on from a network file, here widened to 64 neurons and split into two
    // buckets: it starts where that network stands.
    let more = temp("more.nnue");
    let go_on = train::Config {
        output: more.clone(),
        init: Some(net.clone()),
        hidden: Some(64),
        buckets: Some(2),
        epochs: 1,
        ..targs.clone()
    };
    let again = train::run(&go_on).expect("training from a network runs");
    let best = report.epochs[report.best - 1].validation;
    assert!(
        (again.initial_validation - best).abs() < 0.002,
        "{} against {best}",
        again.initial_validation
    );
    let wide = Network::load(&more).unwrap();
    assert_eq!((wide.hidden(), wide.buckets()), (64, 2));
    let _ = std::fs::remove_file(&more);
    // At a zero rate no epoch improves: the output is the starting network (its shape, as no
    // other is asked for), and the command says so even under --quiet.
    let same = temp("same.nnue");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_chariot"))
        .arg("train")
        .arg(&to_train)
        .arg("-o")
        .arg(&same)
        .arg("--init")
        .arg(&net)
        .args(["--epochs", "1", "--lr", "0", "--batch", "128"])
        .args(["--validation", "0.2", "--threads", "1", "--quiet"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("no epoch improved"), "{stderr}");
    assert_eq!(Network::load(&same).unwrap(), loaded);
    let _ = std::fs::remove_file(&same);

    // A king-bucket network, stopped after two epochs and resumed from its checkpoint, ends
    // where four epochs in one run end (one thread: the same sums in the same order). Its
    // 7,560 inputs overfit these few games at the rate above (no epoch improved once the
    // threats entered the quiet moves' order); at 0.001 seeds 5 to 8 all improve.
    let (straight, resumed, ckpt) = (temp("straight.nnue"), temp("resumed.nnue"), temp("t.ckpt"));
    let king = train::Config {
        features: Some(Features::KingBuckets),
        epochs: 4,
        lr: 0.001,
        threads: Some(1),
        ..targs.clone()
    };
    let whole = train::run(&train::Config {
        output: straight.clone(),
        ..king.clone()
    })
    .expect("king-bucket training runs");
    assert!(
        whole.best > 0,
        "no king-bucket epoch improved: {} -> {:?}",
        whole.initial_validation,
        whole
            .epochs
            .iter()
            .map(|e| e.validation)
            .collect::<Vec<_>>()
    );
    let first = train::run(&train::Config {
        output: resumed.clone(),
        stop_after: Some(2),
        checkpoint: Some(ckpt.clone()),
        ..king.clone()
    })
    .unwrap();
    assert_eq!(first.epochs.len(), 2);
    let second = train::run(&train::Config {
        output: resumed.clone(),
        resume: Some(ckpt.clone()),
        ..king.clone()
    })
    .expect("training resumes from its checkpoint");
    assert_eq!(second.epochs.len(), 2);
    let losses = |r: &[train::Epoch]| -> Vec<(f64, f64)> {
        r.iter().map(|e| (e.train, e.validation)).collect()
    };
    assert_eq!(losses(&second.epochs), losses(&whole.epochs[2..]));
    assert_eq!(second.best, whole.best);
    let kb = Network::load(&resumed).unwrap();
    assert_eq!(kb.features(), Features::KingBuckets);
    assert_eq!(kb, Network::load(&straight).unwrap());
    for f in [straight, resumed, ckpt] {
        let _ = std::fs::remove_file(f);
    }
    let _ = std::fs::remove_file(&data);
    let _ = std::fs::remove_file(&to_train);
    let _ = std::fs::remove_file(&net);
}

#[test]
fn the_search_evaluates_with_the_network_and_switches_back() {
    use chariot::board::Game;
    use chariot::search::bench;
    use chariot::search::{Limits, NullSink, Searcher, Signals};
    let net = default_network();
    let mut s = Searcher::new(4);
    let limits = Limits {
        depth: Some(5),
        ..Default::default()
    };
    for pos in random_positions(21, 3, 30).iter().step_by(7) {
        let game = Game::new(pos.clone());
        s.set_network(Some(Arc::clone(&net)));
        assert!(s.network().is_some());
        let signals = Arc::new(Signals::new(false));
        let r = s.search(&game, &limits, &signals, &mut NullSink);
        if let Some(m) = r.best {
            assert!(pos.is_legal(m));
        }
        s.set_network(None);
        assert!(s.network().is_none());
    }
    // The default bench is the embedded network's; the classical search differs from it.
    assert_eq!(bench::bench_with(3, Some(net)).0, bench::bench(3).0);
    assert_ne!(bench::bench_with(3, None).0, bench::bench(3).0);
}

#[test]
fn engine_options_load_networks_or_keep_the_old_one() {
    let good = Model::new(Features::Plain, 16, 1, 4)
        .quantize()
        .unwrap()
        .to_bytes();
    let dir = temp("files");
    std::fs::create_dir_all(&dir).unwrap();
    let write = |name: &str, bytes: &[u8]| {
        let p = dir.join(name);
        std::fs::write(&p, bytes).unwrap();
        p.display().to_string()
    };
    let truncated = write("truncated.nnue", &good[..good.len() / 2]);
    let mut bad = good.clone();
    let n = bad.len();
    bad[n - 10] ^= 0x40;
    let corrupt = write("corrupt.nnue", &bad);
    let mut other = good.clone();
    other[12..16].copy_from_slice(&700u32.to_le_bytes());
    let other = write("other.nnue", &other);
    let fine = write("fine.nnue", &good);
    let script = format!(
        "uci\nsetoption name Use NNUE value true\nsetoption name EvalFile value {}\n\
         setoption name EvalFile value {truncated}\nsetoption name EvalFile value {corrupt}\n\
         setoption name EvalFile value {other}\neval\nsetoption name EvalFile value {fine}\neval\n\
         setoption name EvalFile value\neval\nposition startpos moves h2e2\ngo depth 3\nisready\n",
        dir.join("missing.nnue").display()
    );
    let text = engine_output(&script);
    assert!(text.contains("option name Use NNUE type check default true"));
    assert!(text.contains("option name EvalFile type string"));
    let infos: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("info string EvalFile"))
        .collect();
    assert_eq!(infos.len(), 4, "{text}");
    for (line, word) in infos
        .iter()
        .zip(["cannot read", "truncated", "checksum", "architecture"])
    {
        assert!(line.contains(word) && line.contains("stays"), "{line}");
    }
    let evals: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("classical "))
        .collect();
    assert_eq!(evals.len(), 3, "{text}");
    // Refused files kept the embedded network; the good file changed it; empty brought it back.
    assert_eq!(evals[0], evals[2]);
    assert_ne!(evals[0], evals[1]);
    assert!(evals[0].contains("network in use"));
    assert!(text.lines().any(|l| l.starts_with("bestmove ")));
    let _ = std::fs::remove_dir_all(&dir);
}

#[cfg(unix)]
#[test]
fn ctrl_c_leaves_a_valid_data_file() {
    use std::process::{Command, Stdio};
    let data = temp("interrupted.bin");
    let mut child = Command::new(env!("CARGO_BIN_EXE_chariot"))
        .args([
            "datagen",
            "--nodes",
            "300",
            "--threads",
            "2",
            "--games",
            "100000",
            "-o",
        ])
        .arg(&data)
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Let a few games finish, then interrupt as a terminal would.
    let start = std::time::Instant::now();
    while std::fs::metadata(&data).map_or(0, |m| m.len()) < 32 * 200
        && start.elapsed().as_secs() < 60
    {
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let killed = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let status = child.wait().unwrap();
    // Stopped cleanly, and reported as interrupted (docs/development.md, "Exit codes").
    assert_eq!(status.code(), Some(130), "{status:?}");
    let bytes = std::fs::read(&data).unwrap();
    let samples = record::decode_all(&bytes).expect("whole records only");
    assert!(samples.len() >= 200, "{}", samples.len());
    let _ = std::fs::remove_file(&data);
}

#[test]
fn datagen_labels_the_positions_of_recorded_games() {
    let pgn = temp("games.pgn");
    let text = "[Event \"a\"]\n[Result \"1-0\"]\n\n1. h2e2 h9g7 2. h0g2 i9h9 3. i0h0 b9c7 1-0\n\n\
                [Event \"unfinished\"]\n[Result \"*\"]\n\n1. b2e2 *\n\n\
                [Event \"b\"]\n[Result \"0-1\"]\n\n1. b2e2 b9c7 0-1\n";
    std::fs::write(&pgn, text).unwrap();
    let data = temp("labelled.bin");
    let args = datagen::Config {
        nodes: 500,
        pgn: vec![pgn.clone()],
        ..datagen_args(&data)
    };
    let summary = datagen::run(&args).expect("labelling runs");
    // The unfinished game is left out; the other two give at most one record per position.
    assert_eq!(summary.games, 2);
    assert_eq!(summary.red_draw_black, [1, 0, 1]);
    let samples = record::decode_all(&std::fs::read(&data).unwrap()).unwrap();
    assert_eq!(samples.len() as u64, summary.positions);
    assert!((4..=8).contains(&samples.len()), "{}", samples.len());
    let start = Position::startpos();
    // Game a (Red won) comes first: its first record is the start position, Red to move, a win.
    let first = samples[0].position().unwrap();
    assert_eq!(first.key(), start.key());
    assert_eq!(samples[0].result, record::Wdl::Win);
    for s in &samples {
        assert!(!s.position().unwrap().in_check());
    }
    // The last record is from game b (Black won), whose positions are the start (Red to move,
    // a loss) and the one after b2e2 (Black to move, a win).
    let last = samples.last().unwrap();
    let expected = match last.side {
        Color::Red => record::Wdl::Loss,
        Color::Black => record::Wdl::Win,
    };
    assert_eq!(last.result, expected);
    let _ = std::fs::remove_file(&pgn);
    let _ = std::fs::remove_file(&data);
}

/// The engine's output for `script` up to its first `bestmove`; then it is told to quit.
fn engine_output(script: &str) -> String {
    use std::io::{BufRead, BufReader, Write};
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_chariot"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(script.as_bytes()).unwrap();
    let mut text = String::new();
    for line in BufReader::new(child.stdout.take().unwrap()).lines() {
        let line = line.unwrap();
        text.push_str(&line);
        text.push('\n');
        if line.starts_with("bestmove") {
            break;
        }
    }
    let _ = stdin.write_all(b"quit\n");
    drop(stdin);
    child.wait().unwrap();
    text
}

#[test]
fn a_fresh_engine_searches_with_the_network() {
    // The search's last info line (score, nodes, pv) at a fixed depth, without options, with
    // `Use NNUE` set explicitly, and with the classical evaluation.
    let last_info = |options: &str| {
        let text = engine_output(&format!(
            "uci\n{options}isready\nposition startpos moves h2e2 h9g7\ngo depth 7\nisready\n"
        ));
        text.lines()
            .rev()
            .filter(|l| l.starts_with("info depth 7 "))
            .map(|l| {
                // Depth, score and nodes, then the principal variation (not the timings).
                let head = l.split(" nps ").next().unwrap();
                format!("{head} pv {}", l.split(" pv ").nth(1).unwrap_or(""))
            })
            .next()
            .unwrap_or_else(|| panic!("no depth-7 line in {text}"))
    };
    let fresh = last_info("");
    let network = last_info("setoption name Use NNUE value true\n");
    let classical = last_info("setoption name Use NNUE value false\n");
    assert_eq!(fresh, network);
    assert_ne!(fresh, classical);
}
