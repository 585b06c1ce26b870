//! AWS event-stream framing, the transport of Bedrock's ConverseStream: binary frames, each
//! `[total length u32][headers length u32][prelude CRC u32][headers][payload][message CRC u32]`
//! (big-endian), whose `:event-type` (or `:exception-type`) header names the event and whose
//! payload is the event's JSON without the union key around it.
//!
//! Frames may be cut anywhere across chunks; a frame is read once all its bytes are there. The
//! checksums are not verified (the transport under it, TLS, already is); a frame whose lengths
//! cannot be right makes the rest of the stream unreadable, which is reported once.
//!
//! Through InvokeModelWithResponseStream the frames are named `chunk` and their payload's `bytes`
//! hold the model's own event, base64 ([`invoke_chunk`]): Anthropic's events, for Anthropic
//! models.

use crate::error::text;
use crate::prelude::*;
use crate::providers::Parsed;

use super::paths::str_at;
/// What the decoder makes of the bytes.
#[derive(Debug, PartialEq, Eq)]
pub enum Frame {
    /// An event: its type and its JSON payload.
    Event { name: String, payload: String },
    /// The bytes are not event-stream frames; nothing after them can be read.
    Broken(String),
}

#[derive(Debug, Default)]
pub struct Decoder {
    buffer: Vec<u8>,
    broken: bool,
}

fn u32_at(bytes: &[u8], at: usize) -> Option<usize> {
    let b = bytes.get(at..at + 4)?;
    Some(u32::from_be_bytes([b[0], b[1], b[2], b[3]]) as usize)
}

/// The `:event-type` / `:exception-type` header's value among the frame's headers.
fn event_type(mut headers: &[u8]) -> Option<String> {
    let mut found = None;
    while let Some((&name_len, rest)) = headers.split_first() {
        let name = rest.get(..usize::from(name_len))?;
        let rest = rest.get(usize::from(name_len)..)?;
        let (&kind, rest) = rest.split_first()?;
        let fixed = match kind {
            0 | 1 => Some(0),
            2 => Some(1),
            3 => Some(2),
            4 => Some(4),
            5 | 8 => Some(8),
            9 => Some(16),
            6 | 7 => None,
            _ => return found,
        };
        let (value, rest) = match fixed {
            Some(n) => (rest.get(..n)?, rest.get(n..)?),
            None => {
                let len = usize::from(u16::from_be_bytes([*rest.first()?, *rest.get(1)?]));
                (rest.get(2..2 + len)?, rest.get(2 + len..)?)
            }
        };
        if kind == 7 && (name == b":event-type" || name == b":exception-type") {
            found = Some(String::from_utf8_lossy(value).into_owned());
        }
        headers = rest;
    }
    found
}

impl Decoder {
    pub fn new() -> Decoder {
        Decoder::default()
    }

    /// Reads a chunk, pushing every frame it completes onto `out`.
    pub fn push(&mut self, chunk: &[u8], out: &mut Vec<Frame>) {
        if self.broken {
            return;
        }
        self.buffer.extend_from_slice(chunk);
        let mut start = 0;
        loop {
            let rest = self.buffer.get(start..).unwrap_or_default();
            let (Some(total), Some(headers_len)) = (u32_at(rest, 0), u32_at(rest, 4)) else {
                break;
            };
            if total < 16 || headers_len > total - 16 {
                self.broken = true;
                self.buffer.clear();
                out.push(Frame::Broken(text!(
                    "The stream is not AWS event-stream frames (a frame of ",
                    total,
                    " bytes with ",
                    headers_len,
                    " bytes of headers)."
                )));
                return;
            }
            let Some(frame) = rest.get(..total) else {
                break;
            };
            let headers = frame.get(12..12 + headers_len).unwrap_or_default();
            let payload = frame.get(12 + headers_len..total - 4).unwrap_or_default();
            if let Some(name) = event_type(headers) {
                out.push(Frame::Event {
                    name,
                    payload: String::from_utf8_lossy(payload).into_owned(),
                });
            }
            start += total;
        }
        self.buffer.drain(..start.min(self.buffer.len()));
    }
}

/// The bytes of standard base64 text (`=` padding optional; white space skipped), as a `chunk`
/// frame's `bytes` hold them (Bedrock's InvokeModelWithResponseStream); `None` for text that is not
/// base64.
pub fn base64(text: &str) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(text.len() / 4 * 3);
    let (mut bits, mut count) = (0u32, 0u32);
    let mut padding = false;
    for byte in text.bytes() {
        let value = match byte {
            b'A'..=b'Z' => byte - b'A',
            b'a'..=b'z' => byte - b'a' + 26,
            b'0'..=b'9' => byte - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            b'=' => {
                padding = true;
                continue;
            }
            b' ' | b'\t' | b'\r' | b'\n' => continue,
            _ => return None,
        };
        if padding {
            return None;
        }
        bits = bits << 6 | u32::from(value);
        count += 6;
        if count >= 8 {
            count -= 8;
            out.push((bits >> count) as u8);
            bits &= (1 << count) - 1;
        }
    }
    Some(out)
}

/// The base64 `bytes` of an InvokeModelWithResponseStream chunk: a frame named `chunk` whose
/// payload is `{bytes}`, or an event `{chunk: {bytes}}`.
pub(crate) fn invoke_chunk<'a>(name: Option<&str>, event: &'a Parsed) -> Option<&'a str> {
    let chunk = match name {
        Some("chunk") => event,
        _ => event.get("chunk")?,
    };
    str_at(chunk, "bytes")
}

#[cfg(test)]
pub(crate) fn frame(headers: &[(&str, &str)], payload: &str) -> Vec<u8> {
    let mut h = Vec::new();
    for (name, value) in headers {
        h.push(name.len() as u8);
        h.extend_from_slice(name.as_bytes());
        h.push(7);
        h.extend_from_slice(&(value.len() as u16).to_be_bytes());
        h.extend_from_slice(value.as_bytes());
    }
    let total = 16 + h.len() + payload.len();
    let mut out = Vec::new();
    out.extend_from_slice(&(total as u32).to_be_bytes());
    out.extend_from_slice(&(h.len() as u32).to_be_bytes());
    out.extend_from_slice(&[0; 4]);
    out.extend_from_slice(&h);
    out.extend_from_slice(payload.as_bytes());
    out.extend_from_slice(&[0; 4]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_cut_anywhere_are_read_whole() {
        let mut bytes = frame(
            &[
                (":event-type", "contentBlockDelta"),
                (":content-type", "application/json"),
                (":message-type", "event"),
            ],
            r#"{"contentBlockIndex":0,"delta":{"text":"Hé"},"p":"abc"}"#,
        );
        bytes.extend(frame(
            &[
                (":exception-type", "throttlingException"),
                (":message-type", "exception"),
            ],
            r#"{"message":"slow down"}"#,
        ));
        let expected = vec![
            Frame::Event {
                name: "contentBlockDelta".into(),
                payload: r#"{"contentBlockIndex":0,"delta":{"text":"Hé"},"p":"abc"}"#.into(),
            },
            Frame::Event {
                name: "throttlingException".into(),
                payload: r#"{"message":"slow down"}"#.into(),
            },
        ];
        for at in 0..=bytes.len() {
            let mut decoder = Decoder::new();
            let mut out = Vec::new();
            let (a, b) = bytes.split_at(at);
            decoder.push(a, &mut out);
            decoder.push(b, &mut out);
            assert_eq!(out, expected, "cut at {at}");
        }
    }

    #[test]
    fn base64_reads_what_any_encoder_writes() {
        for (text, bytes) in [
            ("", &b""[..]),
            ("Zg==", b"f"),
            ("Zm8=", b"fo"),
            ("Zm9v", b"foo"),
            ("Zm9vYg", b"foob"),
            ("eyJ0eXBlIjoicGluZyJ9", br#"{"type":"ping"}"#),
            ("w6k=\n", "é".as_bytes()),
        ] {
            assert_eq!(base64(text).as_deref(), Some(bytes), "{text}");
        }
        for bad in ["Zm9v!", "Zg==Zg", "-_"] {
            assert_eq!(base64(bad), None, "{bad}");
        }
    }

    #[test]
    fn impossible_lengths_break_the_stream_once() {
        let mut decoder = Decoder::new();
        let mut out = Vec::new();
        decoder.push(&[0, 0, 0, 4, 0, 0, 0, 0, 1, 2, 3, 4], &mut out);
        decoder.push(&[0; 40], &mut out);
        assert_eq!(out.len(), 1);
        assert!(matches!(out[0], Frame::Broken(_)));
    }
}
