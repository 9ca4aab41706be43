//! Output paths of every command that writes a file: `-` means standard output, and an output
//! that is one of the command's own inputs is refused before anything is opened for writing
//! (opening it truncates it, and the run would then read the empty file it is writing). The
//! same file is recognised however it is spelled: `./in.obf`, a symbolic link, a hard link.

use anyhow::{bail, Context};
use std::fs::{self, OpenOptions};
use std::io::ErrorKind;
use std::path::{Path, PathBuf};

/// True when `path` names standard output (or standard input, for the readers): `-`.
pub fn is_std_stream(path: &Path) -> bool {
    path == Path::new("-")
}

/// Refuses `output` when it is one of `inputs` (standard streams never clash): one line naming
/// both spellings, which `cli::run` reports with exit code 2. `what` names the output's option
/// in the message (`-o`, `--svg`).
pub fn refuse_input_as_output<'a>(
    output: &Path,
    what: &str,
    inputs: impl IntoIterator<Item = &'a Path>,
) -> anyhow::Result<()> {
    if is_std_stream(output) {
        return Ok(());
    }
    for input in inputs {
        if !is_std_stream(input) && same_file(input, output) {
            let spelled = if input == output {
                String::new()
            } else {
                format!(" ({})", input.display())
            };
            bail!(
                "{what} {}: it is one of the inputs{spelled}; writing it would destroy it, \
                 choose another output file",
                output.display()
            );
        }
    }
    Ok(())
}

/// Checks that `output` can be written before a long run that writes it only at the end (a
/// fit, an analysis), so that a missing directory or a read-only file is reported before the
/// work, not after it: an existing file is opened for writing without being truncated, a new
/// one is created and removed at once. Standard output always passes.
pub fn check_writable(output: &Path) -> anyhow::Result<()> {
    if is_std_stream(output) {
        return Ok(());
    }
    let existing = || OpenOptions::new().write(true).open(output).map(drop);
    let checked = if output.exists() {
        existing()
    } else {
        match OpenOptions::new().write(true).create_new(true).open(output) {
            Ok(file) => {
                drop(file);
                fs::remove_file(output)
            }
            // Made meanwhile by someone else: it is an existing file now.
            Err(e) if e.kind() == ErrorKind::AlreadyExists => existing(),
            Err(e) => Err(e),
        }
    };
    checked.with_context(|| format!("cannot write {}", output.display()))
}

/// Whether `a` and `b` are the same file: the same device and inode when both exist (links,
/// any spelling), else the same canonical path (a file that does not exist yet is compared by
/// its canonical directory and its name).
pub fn same_file(a: &Path, b: &Path) -> bool {
    if let (Ok(first), Ok(second)) = (fs::metadata(a), fs::metadata(b)) {
        if let Some(same) = same_inode(&first, &second) {
            return same;
        }
    }
    match (canonical(a), canonical(b)) {
        (Some(first), Some(second)) => first == second,
        _ => false,
    }
}

#[cfg(unix)]
fn same_inode(a: &fs::Metadata, b: &fs::Metadata) -> Option<bool> {
    use std::os::unix::fs::MetadataExt;
    Some(a.dev() == b.dev() && a.ino() == b.ino())
}

#[cfg(not(unix))]
fn same_inode(_a: &fs::Metadata, _b: &fs::Metadata) -> Option<bool> {
    None
}

/// The canonical path of `path`, or of its directory joined with its name when the file does
/// not exist; `None` when neither can be resolved.
fn canonical(path: &Path) -> Option<PathBuf> {
    if let Ok(full) = fs::canonicalize(path) {
        return Some(full);
    }
    let name = path.file_name()?;
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    Some(fs::canonicalize(dir).ok()?.join(name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spellings_links_and_new_files() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("in.obf");
        fs::write(&file, "x").unwrap();
        let dotted = dir.path().join(".").join("in.obf");
        assert!(same_file(&file, &dotted));
        let hard = dir.path().join("hard.obf");
        fs::hard_link(&file, &hard).unwrap();
        assert!(same_file(&file, &hard));
        #[cfg(unix)]
        {
            let soft = dir.path().join("soft.obf");
            std::os::unix::fs::symlink(&file, &soft).unwrap();
            assert!(same_file(&soft, &file));
        }
        let other = dir.path().join("other.obf");
        assert!(!same_file(&file, &other));
        fs::write(&other, "x").unwrap();
        assert!(!same_file(&file, &other));
        assert!(refuse_input_as_output(&hard, "-o", [file.as_path()]).is_err());
        assert!(refuse_input_as_output(Path::new("-"), "-o", [Path::new("-")]).is_ok());
        assert!(refuse_input_as_output(&other, "-o", [file.as_path()]).is_ok());
    }

    #[test]
    fn writable_outputs_are_checked_without_touching_them() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("kept.bin");
        fs::write(&file, "weights").unwrap();
        check_writable(&file).unwrap();
        assert_eq!(fs::read_to_string(&file).unwrap(), "weights");
        let new = dir.path().join("new.bin");
        check_writable(&new).unwrap();
        assert!(!new.exists(), "the check leaves no file behind");
        check_writable(Path::new("-")).unwrap();
        let missing = dir.path().join("no-such-dir").join("w.bin");
        let message = format!("{:#}", check_writable(&missing).unwrap_err());
        assert_eq!(
            message,
            format!(
                "cannot write {}: No such file or directory (os error 2)",
                missing.display()
            )
        );
        let message = format!("{:#}", check_writable(dir.path()).unwrap_err());
        assert!(
            message.starts_with(&format!("cannot write {}: ", dir.path().display())),
            "{message}"
        );
    }
}
