//! What kind of file an input is, told from its first bytes (and its name and length where
//! known): the one place that decides, so that every command calls a file the same thing.
//! `solve`, `analyze` and `show` read text and refuse games files; `games` reads games files
//! and refuses what is none. Knows the first 16 bytes of a WThor header, nothing more of it.

use std::path::Path;

/// How many bytes of a file [`sniff`] looks at (more are ignored).
pub const HEAD_LEN: usize = 4096;

/// The kinds of input files.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileKind {
    /// A WThor database: named `*.wtb`, or binary data that starts with a WThor header.
    Wthor,
    /// GGF games: text starting with `(;`.
    Ggf,
    /// Text: one position or one transcript per line (a stray byte that is not UTF-8 is an
    /// error of its line, not of the file).
    Text,
    /// Binary data that is no WThor database (a NUL or another control byte that no text
    /// holds). UTF-16 text is binary to osolve, which reads UTF-8.
    Binary,
}

impl FileKind {
    /// The kind's name in messages: `WThor`, `GGF`, `text`, `binary`.
    pub fn name(self) -> &'static str {
        match self {
            FileKind::Wthor => "WThor",
            FileKind::Ggf => "GGF",
            FileKind::Text => "text",
            FileKind::Binary => "binary",
        }
    }
}

/// Bytes of a WThor header and of one game record.
const WTHOR_HEADER: usize = 16;
const WTHOR_RECORD: usize = 68;
/// Bytes of a name in the player (`.JOU`) and tournament (`.TRN`) files, which share the header.
const WTHOR_NAMES: [usize; 2] = [20, 26];

/// The kind of a file from its first bytes `head` (at most [`HEAD_LEN`] are looked at), its
/// `name` and, for a regular file, its length in bytes:
/// - text starting with `(;` (after white space and a UTF-8 byte order mark) is GGF;
/// - a file named `*.wtb` is WThor (its reader then says what is wrong with it);
/// - data with a control byte that text never holds (NUL, and others below 0x20 but tab, line
///   and page breaks and escape) is WThor when it starts with a WThor header (the board size
///   0 or 8, and the count of records matching the length, or the header alone counting none
///   with a plausible date; with no length, a plausible date),
///   and binary otherwise;
/// - everything else is text.
pub fn sniff(head: &[u8], name: &str, len: Option<u64>) -> FileKind {
    let head = &head[..head.len().min(HEAD_LEN)];
    let text = head.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(head);
    let first = text.iter().position(|b| !b.is_ascii_whitespace());
    if first.is_some_and(|i| text[i..].starts_with(b"(;")) {
        return FileKind::Ggf;
    }
    let wtb = Path::new(name)
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("wtb"));
    if wtb {
        return FileKind::Wthor;
    }
    let binary = head
        .iter()
        .any(|&b| b < 0x20 && !matches!(b, b'\t' | b'\n' | 0x0b | 0x0c | b'\r' | 0x1b));
    if !binary {
        return FileKind::Text;
    }
    if has_wthor_header(head, len) {
        FileKind::Wthor
    } else {
        FileKind::Binary
    }
}

/// Whether `head` starts with a WThor header that fits a file of `len` bytes.
fn has_wthor_header(head: &[u8], len: Option<u64>) -> bool {
    let Some(header) = head.get(..WTHOR_HEADER) else {
        return false;
    };
    let records = u64::from(u32::from_le_bytes([
        header[4], header[5], header[6], header[7],
    ]));
    let names = u64::from(u16::from_le_bytes([header[8], header[9]]));
    let board_size = header[12];
    if board_size != 0 && board_size != 8 {
        return false;
    }
    match len {
        Some(len) => {
            let Some(body) = len.checked_sub(WTHOR_HEADER as u64) else {
                return false;
            };
            // A last record cut short still counts, so that its reader can say so.
            let games = records > 0 && body.div_ceil(WTHOR_RECORD as u64) == records;
            let names_file = records == 0
                && names > 0
                && WTHOR_NAMES.iter().any(|&size| body == names * size as u64);
            // The header alone, counting nothing: a games file of no games (its reader says
            // so), when its date is one, as 16 bytes of other data rarely are.
            let no_games = records == 0 && names == 0 && body == 0 && dated(header);
            games || names_file || no_games
        }
        None => dated(header),
    }
}

/// Whether a WThor header's creation date (century, year, month, day) is plausible, or all zero
/// (not written).
fn dated(header: &[u8]) -> bool {
    let [century, year, month, day] = [header[0], header[1], header[2], header[3]];
    let unset = [century, year, month, day] == [0; 4];
    let plausible = (19..=21).contains(&century) && year < 100 && month <= 12 && day <= 31;
    unset || plausible
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A WThor header of `games` records, made 2022-06-27, for 8x8 boards.
    fn header(games: u32) -> Vec<u8> {
        let mut bytes = vec![20, 22, 6, 27];
        bytes.extend_from_slice(&games.to_le_bytes());
        bytes.extend_from_slice(&[0, 0, 0xe5, 0x07, 8, 0, 24, 0]);
        bytes
    }

    #[test]
    fn kinds_come_from_the_content() {
        let wthor = header(2);
        assert_eq!(sniff(&wthor, "a.txt", Some(16 + 2 * 68)), FileKind::Wthor);
        // Cut short in its last record: still WThor, so that the reader reports the cut.
        assert_eq!(sniff(&wthor, "a.txt", Some(16 + 68 + 30)), FileKind::Wthor);
        // Standard input: no length, the date decides.
        assert_eq!(sniff(&wthor, "<stdin>", None), FileKind::Wthor);
        assert_eq!(
            sniff(b"  \n(;GM[Othello]", "games.wtb", None),
            FileKind::Ggf
        );
        assert_eq!(sniff(b"f5d6c3d3c4\n", "games.ggf", None), FileKind::Text);
        assert_eq!(sniff(b"", "x.WTB", Some(0)), FileKind::Wthor);
        assert_eq!(sniff(b"", "x.txt", Some(0)), FileKind::Text);
        // GGF with a Latin-1 name is still GGF; Latin-1 text is text (its lines are errors).
        assert_eq!(
            sniff(b"(;GM[Othello]PB[M\xfcller]", "x", None),
            FileKind::Ggf
        );
        assert_eq!(sniff(b"f5d6 % M\xfcller\n", "x", None), FileKind::Text);
        // A positions file with colour codes (escape) and page breaks is text.
        assert_eq!(sniff(b"\x1b[1mX\x0c\r\n", "x", None), FileKind::Text);
        // UTF-16 text has NUL bytes.
        assert_eq!(
            sniff(b"\xff\xfef\x005\x00", "x.txt", None),
            FileKind::Binary
        );
    }

    #[test]
    fn binary_data_is_wthor_only_with_a_header_that_fits() {
        // Records that do not match the length, a board size that is not 8x8, a names file.
        let wthor = header(2);
        assert_eq!(sniff(&wthor, "a", Some(16 + 5 * 68)), FileKind::Binary);
        assert_eq!(sniff(&wthor, "a", Some(10)), FileKind::Binary);
        let mut big = wthor.clone();
        big[12] = 10;
        assert_eq!(sniff(&big, "a", Some(16 + 2 * 68)), FileKind::Binary);
        let mut names = header(0);
        names[8] = 3;
        assert_eq!(
            sniff(&names, "WTHOR.JOU", Some(16 + 3 * 20)),
            FileKind::Wthor
        );
        assert_eq!(
            sniff(&names, "WTHOR.JOU", Some(16 + 3 * 21)),
            FileKind::Binary
        );
        // The header alone, counting no game: WThor with a date (or none), else binary.
        assert_eq!(sniff(&header(0), "a", Some(16)), FileKind::Wthor);
        assert_eq!(sniff(&header(0)[..16], "a", Some(16)), FileKind::Wthor);
        let mut undated = header(0);
        undated[..4].copy_from_slice(&[0; 4]);
        assert_eq!(sniff(&undated, "a", Some(16)), FileKind::Wthor);
        let mut odd_date = header(0);
        odd_date[0] = 7;
        assert_eq!(sniff(&odd_date, "a", Some(16)), FileKind::Binary);
        assert_eq!(sniff(&header(0), "a", Some(17)), FileKind::Binary);
        // Pseudo-random bytes of a length that a WThor file could have (16 + 100 records).
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let random: Vec<u8> = (0..HEAD_LEN)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                (state >> 24) as u8
            })
            .collect();
        assert_eq!(
            sniff(&random, "r.bin", Some(16 + 100 * 68)),
            FileKind::Binary
        );
        assert_eq!(sniff(&random, "<stdin>", None), FileKind::Binary);
    }
}
