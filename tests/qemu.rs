//! The aarch64 build, run under QEMU's user-mode emulation: the handshakes, `bench` with the
//! signature the tests check, the README's `go depth 6` with the native binary's nodes and
//! move, and a truncated `EvalFile` refused with the native binary's line. Its network runs
//! the NEON loops (`src/eval/nnue/simd.rs`); `neon_loops_give_the_portable_integers` builds
//! that file's equality test for aarch64 and runs it under QEMU.
//!
//! Ignored by a plain `cargo test`: it needs `qemu-aarch64` (Debian's `qemu-user`) and the
//! aarch64 binary. CI builds it and runs this file:
//!
//! ```text
//! bash scripts/release.sh --profile ci linux-aarch64
//! cargo test --release --test qemu -- --ignored
//! ```
//!
//! `CHARIOT_AARCH64` names another aarch64 binary.

mod common;

use common::process::Engine;
use std::path::PathBuf;
use std::process::Command;

/// The binary built beside this test.
fn native() -> Engine {
    Engine::start(Command::new(env!("CARGO_BIN_EXE_chariot")))
}

/// The aarch64 binary (`CHARIOT_AARCH64`) under `qemu-aarch64`.
fn aarch64() -> Engine {
    let binary = common::other_platform_binary(
        "CHARIOT_AARCH64",
        "target/aarch64-unknown-linux-musl/ci/chariot",
        "linux-aarch64",
    );
    let mut command = Command::new("qemu-aarch64");
    command.arg(binary);
    Engine::start(command)
}

#[test]
#[ignore = "needs qemu-user and the aarch64 binary"]
fn uci_and_ucci_handshakes() {
    let mut e = aarch64();
    e.send("uci");
    let lines = e.until(60.0, |l| l == "uciok");
    assert!(
        lines.iter().any(|l| l.starts_with("id name Chariot")),
        "{lines:#?}"
    );
    e.send("isready");
    e.until(60.0, |l| l == "readyok");
    let mut e = aarch64();
    e.send("ucci");
    let lines = e.until(60.0, |l| l == "ucciok");
    assert!(
        lines.iter().any(|l| l.starts_with("id name Chariot")),
        "{lines:#?}"
    );
}

#[test]
#[ignore = "needs qemu-user and the aarch64 binary"]
fn bench_gives_the_signature() {
    let signature: u64 = include_str!("bench_signature.txt").trim().parse().unwrap();
    let mut e = aarch64();
    e.send("bench");
    let lines = e.until(600.0, |l| l.ends_with(" nps"));
    let last = lines.last().unwrap();
    let nodes: u64 = last.split_whitespace().next().unwrap().parse().unwrap();
    assert_eq!(nodes, signature, "{last}");
}

#[test]
#[ignore = "needs qemu-user and the aarch64 binary"]
fn depth_6_gives_the_native_nodes_and_move() {
    let native = native().readme_search(300.0);
    let arm = aarch64().readme_search(300.0);
    assert_eq!(arm, native);
}

#[test]
#[ignore = "needs qemu-user and the aarch64 binary"]
fn a_truncated_network_gets_the_native_error_line() {
    let net = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/src/eval/nnue/nets/default.nnue"
    ))
    .unwrap();
    let path: PathBuf =
        std::env::temp_dir().join(format!("chariot-qemu-{}-cut.nnue", std::process::id()));
    std::fs::write(&path, &net[..net.len() / 3]).unwrap();
    let answer = |mut e: Engine| {
        e.send("uci");
        e.until(60.0, |l| l == "uciok");
        e.send(&format!("setoption name EvalFile value {}", path.display()));
        e.send("isready");
        e.until(60.0, |l| l == "readyok")
    };
    let native = answer(native());
    let arm = answer(aarch64());
    let _ = std::fs::remove_file(&path);
    assert_eq!(arm, native);
    assert_eq!(arm.len(), 2, "{arm:#?}");
    assert!(
        arm[0].starts_with("info string EvalFile") && arm[0].contains("truncated"),
        "{arm:#?}"
    );
}

#[test]
#[ignore = "needs qemu-user and the aarch64 standard library (rustup target add aarch64-unknown-linux-musl)"]
fn neon_loops_give_the_portable_integers() {
    common::simd_loops_pass(
        "aarch64-unknown-linux-musl",
        &["-C", "linker=rust-lld"],
        &["qemu-aarch64"],
    );
}
