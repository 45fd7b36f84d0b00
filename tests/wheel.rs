//! The Python wheel as a user takes it: `pip install` of the built wheel into a fresh virtual
//! environment puts `chariot` on its PATH, and that `chariot` answers the README's
//! `go depth 6` with the native binary's nodes and move.
//!
//! It needs Python with venv and pip, and a wheel for this machine in `target/dist/`, which
//! `scripts/release.sh` writes; `.ci/run` builds one and runs this test:
//!
//! ```text
//! bash scripts/release.sh --profile ci linux-x86_64
//! cargo test --release --test wheel -- --ignored
//! ```
//!
//! `CHARIOT_WHEEL` names another wheel, `CHARIOT_WHEEL_PYTHON` another Python.

mod common;

use common::process::Engine;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The wheel named by `CHARIOT_WHEEL`, else the one in `target/dist/` for this machine.
fn wheel(root: &Path) -> PathBuf {
    if let Ok(path) = std::env::var("CHARIOT_WHEEL") {
        return PathBuf::from(path);
    }
    let dist = root.join("target/dist");
    let arch = std::env::consts::ARCH;
    std::fs::read_dir(&dist)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .find(|p| {
            let name = p.file_name().unwrap_or_default().to_string_lossy();
            name.ends_with(".whl") && name.contains("linux") && name.contains(arch)
        })
        .unwrap_or_else(|| {
            panic!(
                "no Linux {arch} wheel in {}: run `bash scripts/release.sh linux-{arch}` first",
                dist.display()
            )
        })
}

fn run(command: &mut Command) {
    let out = command
        .output()
        .unwrap_or_else(|e| panic!("cannot run {command:?}: {e}"));
    assert!(
        out.status.success(),
        "{command:?} failed:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
#[ignore = "needs Python and a wheel built by scripts/release.sh: .ci/run builds it"]
fn pip_install_puts_chariot_on_path() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let wheel = wheel(root);
    let python = std::env::var("CHARIOT_WHEEL_PYTHON").unwrap_or_else(|_| "python3".into());
    let venv = root.join("target/wheel-test-venv");
    let _ = std::fs::remove_dir_all(&venv);
    run(Command::new(&python).args(["-m", "venv"]).arg(&venv));
    run(Command::new(venv.join("bin/pip"))
        .args(["install", "--quiet", "--no-index"])
        .arg(&wheel));

    // `chariot` found through PATH, as a shell in the activated environment finds it.
    let path = std::env::var_os("PATH").unwrap_or_default();
    let mut dirs = vec![venv.join("bin")];
    dirs.extend(std::env::split_paths(&path));
    let mut installed = Command::new("chariot");
    installed.env("PATH", std::env::join_paths(dirs).expect("a PATH"));
    let from_wheel = Engine::start(installed).readme_search(60.0);
    let native = Engine::start(Command::new(env!("CARGO_BIN_EXE_chariot"))).readme_search(60.0);
    assert_eq!(
        from_wheel, native,
        "the wheel's chariot searches as the native binary"
    );
    let _ = std::fs::remove_dir_all(&venv);
}
