//! A JSON array as a stream: Gemini's `streamGenerateContent` without `alt=sse`, whose body is one
//! array that grows as the response does, `[{...}\n,\r\n{...}\n]`, each element one response chunk.
//!
//! A chunk may end anywhere. The elements are read as NDJSON's values are (`ndjson.rs`: whole
//! values handed on as their last bracket closes); the array's own brackets, between elements,
//! are not values, and the commas between them separate as white space does.

use crate::prelude::*;

use super::ndjson;

/// The decoder's state between chunks.
#[derive(Debug, Default)]
pub struct Decoder {
    /// Inside the array: its `[` came, its `]` not yet.
    open: bool,
    values: ndjson::Decoder,
}

impl Decoder {
    pub fn new() -> Decoder {
        Decoder::default()
    }

    /// Reads a chunk, pushing the text of every element it completes onto `out`.
    pub fn push(&mut self, chunk: &[u8], out: &mut Vec<String>) {
        for &byte in chunk {
            if self.values.between() {
                // The array around the values: its brackets are not values.
                let wrapper = match byte {
                    b'[' => !self.open,
                    b']' => self.open,
                    _ => false,
                };
                if wrapper {
                    self.values.end_word(out);
                    self.open = byte == b'[';
                    continue;
                }
            }
            self.values.byte(byte, out);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
            let mut decoder = Decoder::new();
            let mut out = Vec::new();
            let (a, b) = bytes.split_at(at);
            decoder.push(a, &mut out);
            decoder.push(b, &mut out);
            assert_eq!(out, expected, "split at {at}");
        }
    }
}
