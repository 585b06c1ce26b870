//! [`StreamAccumulator`]: its state, and what it does with a chunk: bytes go to the decoder of
//! the stream's transport (`transport.rs`), each event it gives to the format's stream reader
//! (through [`WireProtocol::visit_stream`]), a provider's error body to an error record. The
//! operations the readers use are in `blocks.rs`; the records' bookkeeping in `records.rs`.

use crate::error::text;
use crate::error::Result;
use crate::json::partial::{PartialJson, Step};
use crate::prelude::*;
use crate::providers::{self, Parsed, WireProtocol};

use super::format::{Event, StreamFormat};
use super::json::json_error;
use super::transport::{Framing, Unit};
use super::{Chunk, Native, Patch, Reader};

/// Reads a provider's stream into records.
pub struct StreamAccumulator<R: Reader = Native> {
    pub(super) reader: core::marker::PhantomData<R>,
    pub(super) protocol: WireProtocol,
    /// The format's stream half.
    pub(super) format: StreamFormat,
    /// How the stream's bytes are framed, decided by its first byte that is not white space
    /// among the transports the format names.
    pub(super) framing: Framing,
    pub(super) records: Vec<Parsed>,
    pub(super) segments: Vec<Segment>,
    /// The segment of the response being streamed.
    pub(super) current: Option<usize>,
    /// Events read so far (the `N` in an error record's path `$.events[N]`).
    pub(super) events: usize,
    pub(super) done: bool,
    /// The stream ended with a provider error: the message it cut short is not complete.
    pub(super) failed: bool,
    pub(super) patches: Vec<Patch>,
    /// A path a format carries from one event to the next (Gemini: the `jsonPath` of a string
    /// argument whose next fragment continues it).
    pub(crate) pending_path: Option<Vec<Step>>,
}

/// A run of records: one response's, or one error record.
pub(super) struct Segment {
    pub(super) start: usize,
    pub(super) count: usize,
    pub(super) response: Option<Response>,
}

/// A response being built: its body in the provider's final shape, and its blocks.
pub(crate) struct Response {
    pub(crate) body: Parsed,
    pub(super) blocks: Vec<Block>,
    /// The protocol's key of each block (a content index, an output index, a tool index...).
    pub(super) keys: Vec<(i64, usize)>,
    pub(super) finished: bool,
}

/// One content block of a response body.
pub(super) struct Block {
    /// Where the block's value sits in the body.
    pub(super) at: Vec<Step>,
    /// How many records it has in each group: content items, tool calls, later messages.
    pub(super) counts: [usize; 3],
    pub(super) streaming: bool,
    /// The body string whose growth is known to grow one record's `content.text`.
    pub(super) slot: Option<Slot>,
    pub(super) args: Option<Args>,
}

pub(super) struct Slot {
    pub(super) field: Vec<Step>,
    pub(super) group: usize,
    pub(super) k: usize,
}

/// How a block's tool arguments arrive.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum ArgsMode {
    /// As JSON text kept in the body as a string (Chat Completions, Responses).
    Text,
    /// As JSON text whose parsed object the body holds once the block stops (Anthropic, Bedrock).
    Object,
    /// As changes to the object the body holds (Gemini's `partialArgs`).
    Changes,
}

pub(super) struct Args {
    pub(super) field: Vec<Step>,
    pub(super) mode: ArgsMode,
    pub(super) text: String,
    pub(super) parser: PartialJson,
    /// The arguments parsed so far, once the text has begun a value.
    pub(super) value: Option<Parsed>,
}

/// The `"probe"` character appended to a string to see which record shows it.
pub(super) const PROBE: char = '\u{E000}';

impl StreamAccumulator<Native> {
    /// An accumulator for one wire protocol.
    pub fn new(protocol: WireProtocol) -> Self {
        Self::with_reader(protocol)
    }
}

impl<R: Reader> StreamAccumulator<R> {
    /// An accumulator whose bodies are read by `R`.
    pub fn with_reader(protocol: WireProtocol) -> Self {
        StreamAccumulator {
            protocol,
            format: StreamFormat::of(protocol),
            framing: Framing::Undecided,
            records: Vec::new(),
            segments: Vec::new(),
            current: None,
            events: 0,
            done: false,
            failed: false,
            patches: Vec::new(),
            pending_path: None,
            reader: core::marker::PhantomData,
        }
    }

    pub fn protocol(&self) -> WireProtocol {
        self.protocol
    }

    /// True once the stream has said it is over (`message_stop`, `[DONE]`, `response.completed`,
    /// `messageStop`, a Gemini `finishReason`, an Ollama `done: true`, or an error event).
    pub fn done(&self) -> bool {
        self.done
    }

    /// The records so far.
    pub fn records(&self) -> &[Parsed] {
        &self.records
    }

    /// Reads one chunk and returns what changed.
    pub fn push(&mut self, chunk: Chunk<'_>) -> Vec<Patch> {
        match chunk {
            Chunk::Bytes(bytes) => self.bytes(bytes),
            Chunk::Event(event) => self.event(None, event),
        }
        core::mem::take(&mut self.patches)
    }

    /// Stream bytes, given to the decoder of the stream's transport (decided by its first byte
    /// that is not white space, among the transports the format names).
    fn bytes(&mut self, bytes: &[u8]) {
        let bytes = match self.framing {
            Framing::Undecided => {
                let Some(first) = bytes.iter().position(|b| !b.is_ascii_whitespace()) else {
                    return;
                };
                let bytes = &bytes[first..];
                self.framing = match Framing::decide(self.format.transports, bytes) {
                    Ok(framing) => framing,
                    Err(said) => {
                        let at = self.events;
                        self.events += 1;
                        self.provider_error(at, said);
                        Framing::Unreadable
                    }
                };
                bytes
            }
            _ => bytes,
        };
        let mut units = Vec::new();
        self.framing.push(bytes, &mut units);
        for unit in units {
            match unit {
                Unit::Event { name, data, what } => self.data(name.as_deref(), &data, what),
                Unit::Broken(said) => {
                    let at = self.events;
                    self.events += 1;
                    self.error_at(at, said);
                }
            }
        }
    }

    /// One event's text (`what` it is, for the error a text that is not JSON gives).
    fn data(&mut self, name: Option<&str>, data: &str, what: &str) {
        if data.trim() == "[DONE]" {
            self.events += 1;
            self.finish_response();
            self.done = true;
            return;
        }
        match serde_json::from_str::<Parsed>(data) {
            Ok(event) => self.event(name, event),
            Err(e) => {
                let at = self.events;
                self.events += 1;
                self.error_at(at, text!(what, " is not JSON (", json_error(&e), ")."));
            }
        }
    }

    fn event(&mut self, name: Option<&str>, event: Parsed) {
        // Bedrock's InvokeModelWithResponseStream: a `chunk` frame's `bytes` (or a
        // `{chunk: {bytes}}` event, as AWS clients give them) hold the model's own event, base64.
        if let Some(bytes) = super::eventstream::invoke_chunk(name, &event) {
            let decoded = super::eventstream::base64(bytes).and_then(|b| String::from_utf8(b).ok());
            return match decoded {
                Some(text) => self.data(None, &text, "A chunk's bytes"),
                None => {
                    let at = self.events;
                    self.events += 1;
                    self.error_at(at, "A chunk's bytes are not base64 UTF-8 text.".into());
                }
            };
        }
        let at = self.events;
        self.events += 1;
        if !matches!(event, Parsed::Object(_)) {
            self.error_at(at, "An event is not a JSON object.".to_string());
            return;
        }
        // A provider's error body (an SSE `error` event, an error chunk, the JSON of an HTTP
        // error pushed as it came, an AWS `*Exception` frame) in any format; an event the format
        // names otherwise is the format's to read.
        let exception = name.filter(|n| n.ends_with("Exception"));
        if matches!(name, None | Some("error")) || exception.is_some() {
            if let Some(mut failure) = providers::failure(&&event) {
                if let (Some(exception), true) = (exception, failure.kinds.is_empty()) {
                    failure.kinds.push(exception.to_string());
                }
                return self.provider_error(at, failure.summary());
            }
        }
        let protocol = self.protocol;
        protocol.visit_stream(Event {
            acc: self,
            at,
            name,
            event,
        });
    }

    // -----------------------------------------------------------------------------------------
    // The message

    /// The message so far as `fromProvider` reads the current response's body: its first message
    /// (the assistant message; server-tool results, when the body has some, are in [`records`]).
    /// After a provider error its `status` is `cancelled`: the error cut it short.
    pub fn message(&self) -> Result<Parsed> {
        let empty;
        let body = match self.response_ref() {
            Some(response) => &response.body,
            None => {
                empty = self.empty_body();
                &empty
            }
        };
        let mut list = match self.read(body)? {
            Parsed::Array(list) => list,
            _ => Vec::new(),
        };
        if list.is_empty() {
            list = match self.read(&self.empty_body())? {
                Parsed::Array(list) => list,
                _ => Vec::new(),
            };
        }
        if list.is_empty() {
            return Ok(Parsed::Null);
        }
        let mut message = list.swap_remove(0);
        if self.failed {
            // Cut short by a provider error: whatever its body says, it did not complete.
            message.set("status", Parsed::String("cancelled".into()));
        }
        Ok(message)
    }

    /// A body with an empty assistant message, in the protocol's shape.
    pub(super) fn empty_body(&self) -> Parsed {
        serde_json::from_str(self.format.empty_body).unwrap_or(Parsed::Null)
    }

    /// `fromProvider(protocol, body)`, as JSON.
    pub(super) fn read(&self, body: &Parsed) -> Result<Parsed> {
        Ok(R::read(self.protocol, body, false)?.0)
    }

    /// The records of a body, each with the index of the message it comes from.
    pub(super) fn records_of_body(&self, body: &Parsed) -> Result<Vec<(usize, Parsed)>> {
        Ok(R::read(self.protocol, body, true)?.1)
    }
}
