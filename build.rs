//! Build script: records what `osolve --version` says beyond the crate version, the git commit
//! the binary was built from (`unknown` without git or outside a repository; `with uncommitted
//! changes` when its sources differ from that commit) and the CPU features the compiler was
//! allowed to use (from `.cargo/config.toml`'s target-cpu, or the target's defaults).

use std::process::Command;

/// The output of `git ARGS` in the crate's directory, trimmed; `None` when git is missing or
/// fails (a source tarball, a crate from a registry).
fn git(args: &[&str]) -> Option<String> {
    let output = Command::new("git").args(args).output().ok()?;
    if !output.status.success() {
        return None;
    }
    let text = String::from_utf8(output.stdout).ok()?;
    Some(text.trim().to_string())
}

/// What the binary is built from, as git pathspecs: a change to any of them (not committed)
/// makes the build "modified". Tests, docs and scripts are not in the binary.
const BUILD_INPUTS: [&str; 7] = [
    "src",
    "build.rs",
    "Cargo.toml",
    "Cargo.lock",
    ".cargo",
    "data",
    "positions",
];

fn main() {
    let mut commit = git(&["rev-parse", "--short=10", "HEAD"]).unwrap_or_else(|| "unknown".into());
    // A build from a tree that differs from its commit says so, so that a measurement names
    // what was measured. Untracked files are not counted (a new module is also in `mod`).
    let mut status = vec!["status", "--porcelain", "--untracked-files=no", "--"];
    status.extend(BUILD_INPUTS);
    if git(&status).is_some_and(|changes| !changes.is_empty()) {
        commit.push_str(" with uncommitted changes");
    }
    println!("cargo:rustc-env=OSOLVE_GIT_COMMIT={commit}");
    // For the test that checks the version: the same pathspecs.
    println!(
        "cargo:rustc-env=OSOLVE_BUILD_INPUTS={}",
        BUILD_INPUTS.join(" ")
    );
    for input in BUILD_INPUTS {
        if std::path::Path::new(input).exists() {
            println!("cargo:rerun-if-changed={input}");
        }
    }
    // Rebuild when the commit changes: HEAD, and the branch it points at (in the common git
    // directory for a worktree). Only files that exist: cargo reruns the script every build
    // for a missing one (a packed ref).
    let mut watched = Vec::new();
    if let Some(dir) = git(&["rev-parse", "--git-dir"]) {
        watched.push(format!("{dir}/HEAD"));
        if let Some(branch) = git(&["symbolic-ref", "-q", "HEAD"]) {
            watched.push(format!("{dir}/{branch}"));
            if let Some(common) = git(&["rev-parse", "--git-common-dir"]) {
                watched.push(format!("{common}/{branch}"));
            }
        }
    }
    for path in watched.iter().filter(|p| std::path::Path::new(p).is_file()) {
        println!("cargo:rerun-if-changed={path}");
    }
    // The features that matter to the board kernels, in a fixed order; the rest are left out.
    const SHOWN: [&str; 9] = [
        "sse4.2", "popcnt", "avx", "avx2", "bmi1", "bmi2", "avx512f", "avx512vl", "neon",
    ];
    let enabled = std::env::var("CARGO_CFG_TARGET_FEATURE").unwrap_or_default();
    let enabled: Vec<&str> = enabled.split(',').collect();
    let shown: Vec<&str> = SHOWN
        .iter()
        .copied()
        .filter(|f| enabled.contains(f))
        .collect();
    let arch = std::env::var("CARGO_CFG_TARGET_ARCH").unwrap_or_default();
    let features = if shown.is_empty() {
        format!("{arch}, no SIMD extensions")
    } else {
        format!("{arch} with {}", shown.join(", "))
    };
    println!("cargo:rustc-env=OSOLVE_CPU_FEATURES={features}");
    println!("cargo:rerun-if-changed=build.rs");
}
