//! Helpers shared by the integration tests that include this module (`mod common;`): an exact
//! solver, and for the batch commands (`analyze`, `games`) running the binary in the background
//! and interrupting it once its output has grown. Each test crate uses only some of them.
#![allow(dead_code)]

use osolve::search::{SolveOptions, Solver};
use std::fs;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::thread::sleep;
use std::time::{Duration, Instant};

/// Bytes as text, invalid UTF-8 replaced.
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The number of whole lines in a file (0 when it does not exist yet).
pub fn whole_lines(path: &Path) -> usize {
    fs::read(path).map_or(0, |bytes| bytes.iter().filter(|&&b| b == b'\n').count())
}

/// Starts `osolve SUBCOMMAND ARGS` in the background, its standard error piped.
pub fn spawn(subcommand: &str, args: &[&str]) -> Child {
    Command::new(assert_cmd::cargo::cargo_bin("osolve"))
        .arg(subcommand)
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("osolve starts")
}

/// Waits until `path` holds at least `lines` whole lines, then sends `signal` to `child` and
/// returns its exit code and standard error.
pub fn interrupt_after(mut child: Child, path: &Path, lines: usize, signal: &str) -> (i32, String) {
    let deadline = Instant::now() + Duration::from_secs(120);
    while whole_lines(path) < lines {
        assert!(
            Instant::now() < deadline,
            "no progress in {}",
            path.display()
        );
        assert!(
            child.try_wait().unwrap().is_none(),
            "the run ended before the signal"
        );
        sleep(Duration::from_millis(10));
    }
    let status = Command::new("kill")
        .args([signal, &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(status.success());
    let output = child.wait_with_output().unwrap();
    (output.status.code().unwrap_or(-1), text(&output.stderr))
}

/// An exact solver (not WLD) with `threads` threads and a table of `hash_mb` MiB.
pub fn solver(threads: usize, hash_mb: usize) -> Solver {
    Solver::new(SolveOptions {
        threads,
        hash_mb,
        wld: false,
    })
    .expect("the solver builds")
}
