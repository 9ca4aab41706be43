//! The fuzz checks on stable, for CI: every parser of outside text (inline positions, streamed
//! files, `--shard`, resumed outputs) fed by proptest with arbitrary bytes and with text built
//! from the characters the notations use, then every input of the committed libFuzzer corpus
//! and every crash regression replayed through the same checks (`fuzz/harness.rs`; the
//! cargo-fuzz targets in `fuzz/fuzz_targets/` run them for hours on nightly).

mod common;
#[path = "../fuzz/harness.rs"]
mod harness;

use std::fs;
use std::path::Path;

use common::root;
use proptest::prelude::*;

/// Runs every target on `data`.
fn all_targets(data: &[u8]) {
    for (_, target) in harness::TARGETS {
        target(data);
    }
}

/// Characters of the notations, to reach past the first checks more often than random bytes.
const NOTATION: &str = "[-XOxobwBW.*_ \\t\\r\\na-h1-9;:+PSps%#,/\"{}\\[\\]]{0,300}";

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn arbitrary_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..2000)) {
        all_targets(&bytes);
    }

    #[test]
    fn notation_like_text(text in NOTATION) {
        all_targets(text.as_bytes());
    }

    #[test]
    fn board_strings_with_noise(
        cells in "[-XO]{58,70}",
        tail in "[ XOxo;:+0-9A-Hps\\t\\n%]{0,30}",
    ) {
        all_targets(format!("{cells}{tail}").as_bytes());
    }

    #[test]
    fn transcripts_with_noise(moves in "([a-h][1-8] ?|pa |-- ){0,70}[a-z0-9 ,]{0,4}") {
        all_targets(moves.as_bytes());
    }
}

/// Every file of `dir/<target>/`, run through that target; the number of files run.
fn replay(dir: &Path) -> usize {
    let mut count = 0;
    for (name, target) in harness::TARGETS {
        let Ok(entries) = fs::read_dir(dir.join(name)) else {
            continue;
        };
        for entry in entries {
            let path = entry.unwrap().path();
            let data = fs::read(&path).unwrap();
            let run = std::panic::catch_unwind(|| target(&data));
            assert!(run.is_ok(), "{name} fails on {}", path.display());
            count += 1;
        }
    }
    count
}

#[test]
fn the_committed_corpus_replays_cleanly() {
    let fuzz = root().join("fuzz");
    let corpus = replay(&fuzz.join("corpus"));
    assert!(corpus >= 100, "only {corpus} corpus files");
}

#[test]
fn every_crash_found_by_fuzzing_stays_fixed() {
    let fuzz = root().join("fuzz");
    replay(&fuzz.join("regressions"));
}
