//! End-to-end tests of the commands' output files: an output that is one of the command's own
//! inputs (the same spelling, `./`, a symbolic link, a hard link, a WThor names file) is refused
//! with one line and exit code 2 before anything is written, and the input keeps every byte.

use std::fs;
use std::path::Path;

mod common;
use common::{root, run_in, temp_dir};

/// FFO #1 and #2, as OBF lines with every move's score.
const TWO_POSITIONS: &str = "\
--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18; H1:+12; H7:+6; A2:+6; A3:+4; B1:-4; A4:-22; G2:-24;
-XXXXXX---XOOOO--XOXXOOX-OOOOOOOOOOOXXOOOOOXXOOX--XXOO----XXXXX- X; A4:+10; B2:+0; A3:-6; G7:-8; A7:-12; H7:-14; B7:-14; H2:-24;
";

/// The one line every refusal prints, for `option OUT` over the input spelled `input`.
fn refusal(option: &str, out: &str, input: Option<&str>) -> String {
    let spelled = input.map_or(String::new(), |input| format!(" ({input})"));
    format!(
        "osolve: {option} {out}: it is one of the inputs{spelled}; writing it would destroy it, \
         choose another output file\n"
    )
}

/// A directory holding `five.obf` (the two positions), its hard link and a symbolic link to it.
fn inputs() -> tempfile::TempDir {
    let dir = temp_dir();
    fs::write(dir.path().join("in.obf"), TWO_POSITIONS).unwrap();
    fs::hard_link(dir.path().join("in.obf"), dir.path().join("hard.obf")).unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink("in.obf", dir.path().join("soft.obf")).unwrap();
    dir
}

fn assert_untouched(dir: &Path) {
    assert_eq!(
        fs::read_to_string(dir.join("in.obf")).unwrap(),
        TWO_POSITIONS
    );
}

#[test]
fn analyze_refuses_its_input_as_output_in_every_spelling() {
    let dir = inputs();
    let cases: &[(&[&str], &str, Option<&str>)] = &[
        (&["analyze", "in.obf", "-o", "in.obf"], "in.obf", None),
        (
            &["analyze", "in.obf", "-o", "./in.obf"],
            "./in.obf",
            Some("in.obf"),
        ),
        (
            &["analyze", "in.obf", "-o", "hard.obf", "--resume"],
            "hard.obf",
            Some("in.obf"),
        ),
        #[cfg(unix)]
        (
            &["analyze", "in.obf", "-o", "soft.obf"],
            "soft.obf",
            Some("in.obf"),
        ),
    ];
    for (args, out, input) in cases {
        let (code, stdout, stderr) = run_in(dir.path(), args);
        assert_eq!(code, 2, "{args:?}");
        assert_eq!(stdout, "", "{args:?}");
        assert_eq!(stderr, refusal("-o", out, *input), "{args:?}");
        assert_untouched(dir.path());
    }
    // The same input given twice and another file: still the second input that is refused.
    let (code, _, stderr) = run_in(
        dir.path(),
        &["analyze", "in.obf", "hard.obf", "-o", "hard.obf"],
    );
    assert_eq!(code, 2);
    assert_eq!(stderr, refusal("-o", "hard.obf", Some("in.obf")));
    assert_untouched(dir.path());
}

#[test]
fn analyze_svg_refuses_a_directory_holding_an_input_named_like_a_picture() {
    let dir = temp_dir();
    fs::create_dir(dir.path().join("pics")).unwrap();
    fs::write(dir.path().join("pics/position-1.svg"), TWO_POSITIONS).unwrap();
    let (code, _, stderr) = run_in(
        dir.path(),
        &[
            "analyze",
            "pics/position-1.svg",
            "--svg",
            "pics",
            "-o",
            "out.obf",
        ],
    );
    assert_eq!(code, 2);
    assert_eq!(
        stderr,
        "osolve: --svg pics: the input pics/position-1.svg is in that directory with a \
         picture's name; writing the pictures could destroy it, choose another directory\n"
    );
    assert!(!dir.path().join("out.obf").exists());
    assert_eq!(
        fs::read_to_string(dir.path().join("pics/position-1.svg")).unwrap(),
        TWO_POSITIONS
    );
}

#[test]
fn games_refuses_its_input_and_the_names_file_beside_a_database() {
    let dir = temp_dir();
    let transcripts = "f5d6c3d3c4f4f6f3e6e7\n";
    fs::write(dir.path().join("gs.txt"), transcripts).unwrap();
    let (code, stdout, stderr) = run_in(
        dir.path(),
        &["games", "gs.txt", "--empties", "10", "-o", "./gs.txt"],
    );
    assert_eq!((code, stdout.as_str()), (2, ""));
    assert_eq!(stderr, refusal("-o", "./gs.txt", Some("gs.txt")));
    assert_eq!(
        fs::read_to_string(dir.path().join("gs.txt")).unwrap(),
        transcripts
    );

    let data = root().join("tests/data/games");
    for name in ["sample.wtb", "WTHOR.JOU"] {
        fs::copy(data.join(name), dir.path().join(name)).unwrap();
    }
    let names = fs::read(dir.path().join("WTHOR.JOU")).unwrap();
    let (code, _, stderr) = run_in(
        dir.path(),
        &["games", "sample.wtb", "--empties", "4", "-o", "WTHOR.JOU"],
    );
    assert_eq!(code, 2);
    assert_eq!(stderr, refusal("-o", "WTHOR.JOU", Some("./WTHOR.JOU")));
    assert_eq!(fs::read(dir.path().join("WTHOR.JOU")).unwrap(), names);
}

#[test]
fn show_gen_and_train_refuse_their_inputs() {
    let dir = inputs();
    let one = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; +18;\n";
    fs::write(dir.path().join("one.obf"), one).unwrap();
    let (code, stdout, stderr) = run_in(dir.path(), &["show", "one.obf", "--svg", "one.obf"]);
    assert_eq!((code, stdout.as_str()), (2, ""));
    assert_eq!(stderr, refusal("--svg", "one.obf", None));
    assert_eq!(fs::read_to_string(dir.path().join("one.obf")).unwrap(), one);

    let (code, _, stderr) = run_in(dir.path(), &["train", "one.obf", "-o", "./one.obf"]);
    assert_eq!(code, 2);
    assert_eq!(stderr, refusal("-o", "./one.obf", Some("one.obf")));
    assert_eq!(fs::read_to_string(dir.path().join("one.obf")).unwrap(), one);

    let weights = root().join("data/eval.bin");
    fs::copy(&weights, dir.path().join("w.bin")).unwrap();
    let before = fs::read(dir.path().join("w.bin")).unwrap();
    let (code, _, stderr) = run_in(
        dir.path(),
        &[
            "gen",
            "--positions",
            "1",
            "--weights",
            "w.bin",
            "-o",
            "w.bin",
        ],
    );
    assert_eq!(code, 2);
    assert_eq!(stderr, refusal("-o", "w.bin", None));
    assert_eq!(fs::read(dir.path().join("w.bin")).unwrap(), before);
}
