//! JSON text as a stream: whole JSON values one after another, decoded as the bytes arrive. This
//! is what a stream is when its first character is `{`: a provider's error body pushed as the
//! text of the HTTP response (pretty-printed over many lines, as Gemini writes it), or values one
//! a line. When its first character is `[`, the values are the elements of a JSON array that grows
//! as the response does: Gemini's `streamGenerateContent` without `alt=sse`, whose body is
//! `[{...}\n,\r\n{...}\n]`, each element one response chunk.
//!
//! A chunk may end anywhere. The decoder keeps the bytes of the value not yet ended and follows
//! only what it needs to find its end: the depth of `{` and `[`, and whether it is inside a string
//! (where brackets do not count and `\` escapes the next byte). Each byte is looked at once. A
//! value is handed on whole, to be parsed as an event; text between values that is not a value
//! (a stray word) is handed on too, so that it becomes an error record, never silence.

use crate::prelude::*;

/// The decoder's state between chunks.
#[derive(Debug, Default)]
pub struct Decoder {
    /// The values are the elements of an array (the stream began with `[`).
    wrapped: bool,
    /// Inside that array: its `[` came, its `]` not yet.
    open: bool,
    /// The bytes of the value not yet ended.
    value: Vec<u8>,
    /// How deep the value is in `{` and `[`: 0 between values, and in a bare word.
    depth: usize,
    in_string: bool,
    escaped: bool,
}

impl Decoder {
    pub fn new() -> Decoder {
        Decoder::default()
    }

    /// A decoder of the elements of a JSON array (a stream that begins with `[`).
    pub fn array() -> Decoder {
        Decoder {
            wrapped: true,
            ..Decoder::default()
        }
    }

    /// Reads a chunk, pushing the text of every value it completes onto `out`.
    pub fn push(&mut self, chunk: &[u8], out: &mut Vec<String>) {
        for &byte in chunk {
            if self.depth == 0 {
                let word = !self.value.is_empty();
                // The array around the values: its brackets are not values.
                let wrapper = match byte {
                    b'[' => !self.open,
                    b']' => self.open,
                    _ => false,
                };
                if self.wrapped && wrapper {
                    if word {
                        self.emit(out);
                    }
                    self.open = byte == b'[';
                    continue;
                }
                match byte {
                    b'{' | b'[' => {
                        if word {
                            self.emit(out);
                        }
                        self.depth = 1;
                        self.value.push(byte);
                    }
                    b' ' | b'\t' | b'\r' | b'\n' | b',' => {
                        if word {
                            self.emit(out);
                        }
                    }
                    _ => self.value.push(byte),
                }
                continue;
            }
            self.value.push(byte);
            if self.in_string {
                match byte {
                    _ if self.escaped => self.escaped = false,
                    b'\\' => self.escaped = true,
                    b'"' => self.in_string = false,
                    _ => {}
                }
                continue;
            }
            match byte {
                b'"' => self.in_string = true,
                b'{' | b'[' => self.depth += 1,
                b'}' | b']' => {
                    self.depth -= 1;
                    if self.depth == 0 {
                        self.emit(out);
                    }
                }
                _ => {}
            }
        }
    }

    fn emit(&mut self, out: &mut Vec<String>) {
        // Invalid UTF-8 becomes U+FFFD; valid text (all of it, in practice) is copied once.
        out.push(match core::str::from_utf8(&self.value) {
            Ok(text) => text.to_string(),
            Err(_) => String::from_utf8_lossy(&self.value).into_owned(),
        });
        self.value.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decode(chunks: &[&[u8]]) -> Vec<String> {
        let mut decoder = Decoder::new();
        let mut out = Vec::new();
        for chunk in chunks {
            decoder.push(chunk, &mut out);
        }
        out
    }

    #[test]
    fn values_pretty_printed_or_one_a_line_cut_anywhere() {
        let text = "{\n  \"error\": {\n    \"code\": 429,\n    \"message\": \"a } in a \\\"string\\\" [\"\n  }\n}\n{\"b\":[1,{\"c\":\"é\"}]}\r\nstray {\"d\":2}";
        let expected = [
            "{\n  \"error\": {\n    \"code\": 429,\n    \"message\": \"a } in a \\\"string\\\" [\"\n  }\n}",
            "{\"b\":[1,{\"c\":\"é\"}]}",
            "stray",
            "{\"d\":2}",
        ];
        assert_eq!(decode(&[text.as_bytes()]), expected);
        let bytes = text.as_bytes();
        for at in 0..=bytes.len() {
            let (a, b) = bytes.split_at(at);
            assert_eq!(decode(&[a, b]), expected, "split at {at}");
        }
    }

    #[test]
    fn the_elements_of_an_array_growing_as_gemini_sends_it() {
        let text = "[{\n  \"candidates\": [{\"a\": \"]\"}]\n}\n,\r\n{\"b\": [1, 2]}\n,\r\n[3]\n]";
        let expected = [
            "{\n  \"candidates\": [{\"a\": \"]\"}]\n}",
            "{\"b\": [1, 2]}",
            "[3]",
        ];
        let bytes = text.as_bytes();
        for at in 0..=bytes.len() {
            let mut decoder = Decoder::array();
            let mut out = Vec::new();
            let (a, b) = bytes.split_at(at);
            decoder.push(a, &mut out);
            decoder.push(b, &mut out);
            assert_eq!(out, expected, "split at {at}");
        }
    }

    #[test]
    fn an_unfinished_value_waits() {
        assert_eq!(decode(&[b"{\"a\": \"}"]), Vec::<String>::new());
        assert_eq!(decode(&[b"{\"a\": \"}\"}"]), ["{\"a\": \"}\"}"]);
    }
}
