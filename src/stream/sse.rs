//! Server-sent events, decoded as the bytes arrive.
//!
//! A chunk may end anywhere: inside a line, inside a UTF-8 character, between `\r` and `\n`. The
//! decoder keeps the unfinished line as bytes and decodes a line only once its newline has
//! arrived, so a character split across chunks is whole by then; each byte is looked at once.
//!
//! Providers write one JSON value per `data:` line, and not all of them separate events with a
//! blank line (recorded provider streams do not; docs/STREAMS.md "Framing"), so every `data:` line
//! is dispatched as one event when it ends, with the `event:` name read before it. SSE's joining of
//! several `data:` lines into one event is not needed by any of the formats and is not done.
//! Comments (`: ping`), `id:` and `retry:` lines are skipped.

use crate::prelude::*;
/// One event: its `event:` name (if any) and its `data:` text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Event {
    pub name: Option<String>,
    pub data: String,
}

/// The decoder's state between chunks.
#[derive(Debug, Default)]
pub struct Decoder {
    /// The bytes of the line not yet ended.
    line: Vec<u8>,
    /// The `event:` name that applies to the next `data:` line.
    name: Option<String>,
    /// The last chunk ended on `\r`: a `\n` at the start of the next one belongs to it.
    after_cr: bool,
}

impl Decoder {
    pub fn new() -> Decoder {
        Decoder::default()
    }

    /// Reads a chunk, pushing every event it completes onto `out`.
    pub fn push(&mut self, chunk: &[u8], out: &mut Vec<Event>) {
        let mut rest = chunk;
        if self.after_cr {
            self.after_cr = false;
            if let Some(tail) = rest.strip_prefix(b"\n") {
                rest = tail;
            }
        }
        while let Some(end) = rest.iter().position(|&b| b == b'\n' || b == b'\r') {
            let (head, tail) = rest.split_at(end);
            if self.line.is_empty() {
                // The whole line is in this chunk: read it where it is.
                self.line_ended(head, out);
            } else {
                self.line.extend_from_slice(head);
                let line = core::mem::take(&mut self.line);
                self.line_ended(&line, out);
                // Keep the buffer (and its capacity) for the next unfinished line.
                self.line = line;
                self.line.clear();
            }
            // `\r\n` is one line end; a `\r` at the chunk's end may be followed by its `\n` later.
            rest = match tail {
                [b'\r', b'\n', after @ ..] => after,
                [b'\r'] => {
                    self.after_cr = true;
                    &[]
                }
                [_, after @ ..] => after,
                [] => &[],
            };
        }
        self.line.extend_from_slice(rest);
    }

    fn line_ended(&mut self, line: &[u8], out: &mut Vec<Event>) {
        if line.is_empty() {
            self.name = None;
            return;
        }
        let (field, value) = match line.iter().position(|&b| b == b':') {
            Some(at) => {
                let value = &line[at + 1..];
                (&line[..at], value.strip_prefix(b" ").unwrap_or(value))
            }
            None => (line, &[][..]),
        };
        // Invalid UTF-8 becomes U+FFFD; valid text (all of it, in practice) is copied once.
        let text = |bytes: &[u8]| match core::str::from_utf8(bytes) {
            Ok(text) => text.to_string(),
            Err(_) => String::from_utf8_lossy(bytes).into_owned(),
        };
        match field {
            b"data" => out.push(Event {
                name: self.name.take(),
                data: text(value),
            }),
            b"event" => self.name = Some(text(value)),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decode(chunks: &[&[u8]]) -> Vec<Event> {
        let mut decoder = Decoder::new();
        let mut out = Vec::new();
        for chunk in chunks {
            decoder.push(chunk, &mut out);
        }
        out
    }

    fn event(name: Option<&str>, data: &str) -> Event {
        Event {
            name: name.map(str::to_string),
            data: data.to_string(),
        }
    }

    #[test]
    fn events_with_and_without_blank_lines_and_names() {
        let text = "event: a\ndata: {\"x\":1}\n\ndata: 2\ndata:3\n: comment\nid: 7\nevent: b\r\ndata: é\r\n\r\n";
        let expected = vec![
            event(Some("a"), "{\"x\":1}"),
            event(None, "2"),
            event(None, "3"),
            event(Some("b"), "é"),
        ];
        assert_eq!(decode(&[text.as_bytes()]), expected);
        // Split at every byte boundary, including inside `é` and between `\r` and `\n`.
        let bytes = text.as_bytes();
        for at in 0..=bytes.len() {
            let (a, b) = bytes.split_at(at);
            assert_eq!(decode(&[a, b]), expected, "split at {at}");
        }
        let singles: Vec<&[u8]> = bytes.chunks(1).collect();
        assert_eq!(decode(&singles), expected);
    }

    #[test]
    fn an_unfinished_line_waits_and_invalid_utf8_is_replaced() {
        assert_eq!(decode(&[b"data: 1"]), vec![]);
        assert_eq!(decode(&[b"data: \xff\n"]), vec![event(None, "\u{fffd}")]);
        assert_eq!(decode(&[b"\r\r\ndata:x\r"]), vec![event(None, "x")]);
    }
}
