//! The bounded line reader under every line-oriented input (files of positions, transcript
//! files, the protocols): a line longer than its limit is read and dropped, so memory stays
//! bounded whatever the input.

use std::io::{self, BufRead};

/// Reads the next line of `reader` into `buffer` without its newline, keeping at most `max`
/// bytes (the rest of a longer line is read and dropped, so memory stays bounded).
/// `Ok(None)` at the end, `Ok(Some(true))` when the line was too long.
pub fn read_bounded_line(
    reader: &mut impl BufRead,
    buffer: &mut Vec<u8>,
    max: usize,
) -> io::Result<Option<bool>> {
    buffer.clear();
    let mut too_long = false;
    let mut any = false;
    loop {
        let available = match reader.fill_buf() {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if available.is_empty() {
            return Ok(any.then_some(too_long));
        }
        any = true;
        let newline = available.iter().position(|&b| b == b'\n');
        let chunk = &available[..newline.unwrap_or(available.len())];
        let room = max.saturating_sub(buffer.len());
        if chunk.len() > room {
            too_long = true;
        }
        buffer.extend_from_slice(&chunk[..chunk.len().min(room)]);
        let used = newline.map_or(available.len(), |i| i + 1);
        reader.consume(used);
        if newline.is_some() {
            return Ok(Some(too_long));
        }
    }
}
