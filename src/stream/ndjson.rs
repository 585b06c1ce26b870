//! NDJSON, the transport of Ollama's streams (`application/x-ndjson`): whole JSON values one after
//! another, one a line. The same decoder reads any JSON text that is values one after another,
//! which is what a stream is in every format when its first character is `{`: a provider's error
//! body pushed as the text of the HTTP response (pretty-printed over many lines, as Gemini writes
//! it). The elements of a JSON array (`json_array.rs`) are read with it too.
//!
//! A chunk may end anywhere, inside a line or a UTF-8 character. The decoder keeps the bytes of the
//! value not yet ended and follows only what it needs to find its end: the depth of `{` and `[`,
//! and whether it is inside a string (where brackets do not count and `\` escapes the next byte).
//! Each byte is looked at once. A value is handed on whole when its last bracket closes (a last line
//! without its newline is not kept waiting), to be parsed as an event. Text between values that is
//! not a value (a stray word) is handed on too, so that it becomes an error record, never silence;
//! and so is a line cut off inside a string: a raw newline cannot be inside a JSON string, so it
//! ends the broken value there, and the lines after it are read as they should be.

use crate::prelude::*;

/// The decoder's state between chunks.
#[derive(Debug, Default)]
pub struct Decoder {
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

    /// Reads a chunk, pushing the text of every value it completes onto `out`.
    pub fn push(&mut self, chunk: &[u8], out: &mut Vec<String>) {
        for &byte in chunk {
            self.byte(byte, out);
        }
    }

    /// True between values (or in a bare word): where the brackets of an array around the values
    /// are not part of one.
    pub(super) fn between(&self) -> bool {
        self.depth == 0
    }

    /// Ends a bare word, if one is being gathered.
    pub(super) fn end_word(&mut self, out: &mut Vec<String>) {
        if self.depth == 0 && !self.value.is_empty() {
            self.emit(out);
        }
    }

    #[inline]
    pub(super) fn byte(&mut self, byte: u8, out: &mut Vec<String>) {
        if self.depth == 0 {
            match byte {
                b'{' | b'[' => {
                    self.end_word(out);
                    self.depth = 1;
                    self.value.push(byte);
                }
                b' ' | b'\t' | b'\r' | b'\n' | b',' => self.end_word(out),
                _ => self.value.push(byte),
            }
            return;
        }
        if self.in_string {
            match byte {
                b'\n' => {
                    // A line cut off inside a string: the broken value ends here.
                    self.emit(out);
                    return;
                }
                _ if self.escaped => self.escaped = false,
                b'\\' => self.escaped = true,
                b'"' => self.in_string = false,
                _ => {}
            }
            self.value.push(byte);
            return;
        }
        self.value.push(byte);
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

    fn emit(&mut self, out: &mut Vec<String>) {
        // Invalid UTF-8 becomes U+FFFD; valid text (all of it, in practice) is copied once.
        out.push(match core::str::from_utf8(&self.value) {
            Ok(text) => text.to_string(),
            Err(_) => String::from_utf8_lossy(&self.value).into_owned(),
        });
        self.value.clear();
        self.depth = 0;
        self.in_string = false;
        self.escaped = false;
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
    fn ndjson_lines_cut_anywhere_even_inside_a_character() {
        let text = "{\"message\":{\"content\":\"日本\"},\"done\":false}\n{\"message\":{\"content\":\"👍🏽\"},\"done\":true}\n";
        let expected = [
            "{\"message\":{\"content\":\"日本\"},\"done\":false}",
            "{\"message\":{\"content\":\"👍🏽\"},\"done\":true}",
        ];
        let bytes = text.as_bytes();
        for at in 0..=bytes.len() {
            for at2 in at..=bytes.len() {
                let (a, rest) = bytes.split_at(at);
                let (b, c) = rest.split_at(at2 - at);
                assert_eq!(decode(&[a, b, c]), expected, "split at {at}, {at2}");
            }
        }
        let singles: Vec<&[u8]> = bytes.chunks(1).collect();
        assert_eq!(decode(&singles), expected);
    }

    #[test]
    fn a_line_cut_off_inside_a_string_costs_that_line_only() {
        let text = "{\"message\":{\"content\":\"cut off\n{\"done\":true}\n";
        assert_eq!(
            decode(&[text.as_bytes()]),
            ["{\"message\":{\"content\":\"cut off", "{\"done\":true}"]
        );
    }

    #[test]
    fn an_unfinished_value_waits() {
        assert_eq!(decode(&[b"{\"a\": \"}"]), Vec::<String>::new());
        assert_eq!(decode(&[b"{\"a\": \"}\"}"]), ["{\"a\": \"}\"}"]);
    }
}
