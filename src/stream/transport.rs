//! Transports: the framings a stream's bytes come in, each decoded in its own file, and which one
//! a stream is in. A format names the transports its streams come in
//! ([`ReadStream::TRANSPORTS`](crate::providers::ReadStream::TRANSPORTS)); the accumulator decides
//! from the stream's first byte that is not white space, among those:
//!
//! | transport | file | first byte | who sends it |
//! |---|---|---|---|
//! | [`Transport::Sse`] | `sse.rs` | `d`, `e`, `i`, `r`, `:` (an SSE line) | most providers; proxies re-encoding any stream |
//! | [`Transport::EventStream`] | `eventstream.rs` | 0 (a frame's length) | Bedrock's ConverseStream, InvokeModelWithResponseStream |
//! | [`Transport::Ndjson`] | `ndjson.rs` | `{` | Ollama |
//! | [`Transport::JsonArray`] | `json_array.rs` | `[` | Gemini without `alt=sse` |
//!
//! A stream that begins with `{` is read as JSON values in every format, named or not: it is a
//! provider's error body pushed as the HTTP response's text. A first byte of none of the format's
//! transports is one error record saying so, and the rest is not read: never zero records and
//! silence.

use crate::error::text;
use crate::prelude::*;

use super::{eventstream, json_array, ndjson, sse};

/// A framing of a stream's bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Transport {
    /// Server-sent events: `data:` lines, with `event:` names.
    Sse,
    /// AWS event-stream binary frames, whose `:event-type` header names the event.
    EventStream,
    /// JSON values one a line (`application/x-ndjson`).
    Ndjson,
    /// One JSON array, its elements the events.
    JsonArray,
}

impl Transport {
    /// Every transport.
    pub const ALL: [Transport; 4] = [
        Transport::Sse,
        Transport::EventStream,
        Transport::Ndjson,
        Transport::JsonArray,
    ];

    /// What the transport is called in an error record.
    pub fn name(self) -> &'static str {
        match self {
            Transport::Sse => "server-sent events",
            Transport::EventStream => "AWS event-stream frames",
            Transport::Ndjson => "NDJSON",
            Transport::JsonArray => "a JSON array",
        }
    }

    /// Whether a stream whose first byte that is not white space is `byte` is in this framing.
    pub fn begins(self, byte: u8) -> bool {
        match self {
            Transport::Sse => matches!(byte, b'd' | b'e' | b'i' | b'r' | b':'),
            Transport::EventStream => byte == 0,
            Transport::Ndjson => byte == b'{',
            Transport::JsonArray => byte == b'[',
        }
    }

    fn decoder(self) -> Framing {
        match self {
            Transport::Sse => Framing::Sse(sse::Decoder::new()),
            Transport::EventStream => Framing::Frames(eventstream::Decoder::new()),
            Transport::Ndjson => Framing::Values(ndjson::Decoder::new()),
            Transport::JsonArray => Framing::Array(json_array::Decoder::new()),
        }
    }
}

/// A stream's framing, once decided, with its decoder's state.
pub(super) enum Framing {
    /// Only white space so far.
    Undecided,
    Sse(sse::Decoder),
    Frames(eventstream::Decoder),
    Values(ndjson::Decoder),
    Array(json_array::Decoder),
    /// None of the format's transports (an HTML error page, plain text): an error record said
    /// so, and the rest is not read.
    Unreadable,
}

/// What a decoder makes of the bytes.
pub(super) enum Unit {
    /// One event's text, its name (an SSE `event:` line, a frame's type) and what the text is,
    /// for the error record a text that is not JSON gives.
    Event {
        name: Option<String>,
        data: String,
        what: &'static str,
    },
    /// The bytes cannot be read as the framing; an error record says why.
    Broken(String),
}

impl Framing {
    /// The framing of a stream that begins with `start` (its first byte not white space), among
    /// `transports`; else the text of the error record that says it is none of them.
    pub(super) fn decide(transports: &[Transport], start: &[u8]) -> Result<Framing, String> {
        let byte = start.first().copied().unwrap_or_default();
        if let Some(transport) = transports.iter().find(|t| t.begins(byte)) {
            return Ok(transport.decoder());
        }
        if Transport::Ndjson.begins(byte) {
            // A provider's error body, whatever the stream's framing would have been.
            return Ok(Transport::Ndjson.decoder());
        }
        let mut names: Vec<&str> = transports.iter().map(|t| t.name()).collect();
        if !transports.contains(&Transport::Ndjson) {
            names.push("JSON");
        }
        let mut list = String::new();
        for (i, name) in names.iter().enumerate() {
            if i > 0 {
                list.push_str(if i + 1 == names.len() { " or " } else { ", " });
            }
            list.push_str(name);
        }
        let shown = String::from_utf8_lossy(&start[..start.len().min(40)]);
        Err(text!(
            "The stream is not ",
            list,
            " (it begins with ",
            crate::error::quoted(&shown),
            ")."
        ))
    }

    /// Reads bytes, pushing what they complete onto `out`.
    pub(super) fn push(&mut self, bytes: &[u8], out: &mut Vec<Unit>) {
        match self {
            Framing::Undecided | Framing::Unreadable => {}
            Framing::Sse(decoder) => {
                let mut events = Vec::new();
                decoder.push(bytes, &mut events);
                out.extend(events.into_iter().map(|event| Unit::Event {
                    name: event.name,
                    data: event.data,
                    what: "A data line",
                }));
            }
            Framing::Frames(decoder) => {
                let mut frames = Vec::new();
                decoder.push(bytes, &mut frames);
                out.extend(frames.into_iter().map(|frame| match frame {
                    eventstream::Frame::Event { name, payload } => Unit::Event {
                        name: Some(name),
                        data: payload,
                        what: "A data line",
                    },
                    eventstream::Frame::Broken(text) => Unit::Broken(text),
                }));
            }
            Framing::Values(decoder) => {
                let mut values = Vec::new();
                decoder.push(bytes, &mut values);
                out.extend(values.into_iter().map(|data| Unit::Event {
                    name: None,
                    data,
                    what: "A value of the JSON text",
                }));
            }
            Framing::Array(decoder) => {
                let mut values = Vec::new();
                decoder.push(bytes, &mut values);
                out.extend(values.into_iter().map(|data| Unit::Event {
                    name: None,
                    data,
                    what: "A value of the JSON text",
                }));
            }
        }
    }
}
