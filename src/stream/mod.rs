//! Live provider streams: [`StreamAccumulator`] reads a provider's streaming response (SSE text or
//! bytes cut anywhere, or parsed event objects) and keeps its display-message records up to date,
//! telling the UI what changed as [`Patch`]es.
//!
//! How it stays proportional to each chunk:
//!
//! * The accumulator builds the provider's own final response body as the events arrive (an
//!   Anthropic message, a Chat Completions `choices[0].message`, a Responses `response`, a Gemini
//!   candidate, a Bedrock `output.message`), so at the end `message()` is `fromProvider` of exactly
//!   that body. Each content block (part, item, tool call) of the body is tracked as a [`Block`].
//! * A block's records come from the provider reader itself, run on a body holding that block alone
//!   (O(block)). This happens when a block starts, changes shape, or stops, not on every delta.
//! * A text delta appends to the block's string in the body and, once the accumulator has checked
//!   which record's `content.text` that string becomes (by reading the block with a probe character
//!   appended), to that record: an `append` patch carrying only the delta.
//! * A tool call's argument text goes through the incremental partial-JSON parser
//!   ([`crate::json::partial`]); its changes update the record's `content.arguments` and travel as
//!   they are, so the JavaScript side can copy only the changed path ([`Patch::Arguments`]).
//! * When a response ends, its records are read once more from the whole body with `fromProvider`
//!   and `toDisplayMessages` (statuses from server-tool results included), and any difference is
//!   patched, so the end state is exact by construction.
//!
//! Records of one response sit together, in `toDisplayMessages` order: the assistant message's
//! content items (by block), its tool calls (by block), then the items of any later messages the
//! body gives (server-tool results).

use crate::error::text;
use crate::prelude::*;
pub mod eventstream;
mod format;
pub mod sse;
pub mod values;

use crate::display::{record_items, records_of, DisplayRecord, MESSAGES};
use crate::error::{Error, ErrorCode, Path, Result};
use crate::json::partial::{self, Change, PartialJson, Step};
use crate::json::Json;
use crate::message::parse_message;
use crate::providers::{self, LcMessage, Parsed, WireProtocol};
use format::{Event, MiniBody, StreamFormat};

/// What changed in the records, in order. Applying every patch of every push, in order, to an
/// empty array gives exactly [`StreamAccumulator::records`].
#[derive(Clone, Debug, PartialEq)]
pub enum Patch {
    /// A record appended at the end.
    Add(Parsed),
    /// `content[field]` of the record at `index` grew by `text`.
    Append {
        index: usize,
        field: &'static str,
        text: String,
    },
    /// The record at `index` is now `record`.
    Replace { index: usize, record: Parsed },
    /// The record at `index` changed only in `content.arguments`, by these changes (JavaScript
    /// receives it as a `replace` whose record shares every unchanged part with the previous one).
    Arguments { index: usize, changes: Vec<Change> },
}

/// One chunk given to [`StreamAccumulator::push`].
pub enum Chunk<'a> {
    /// Stream bytes (SSE), cut anywhere.
    Bytes(&'a [u8]),
    /// One event already parsed (an SSE `data:` value).
    Event(Parsed),
}

/// How the accumulator runs the provider readers on the bodies it builds. The native reader runs
/// them on the [`Parsed`] values themselves; the JavaScript boundary passes its own, which runs the
/// readers the module already holds for JavaScript values, so the module does not carry a second
/// copy of every reader.
pub trait Reader {
    /// `fromProvider(protocol, body)` as JSON and, when `records` is true, the records of its
    /// messages as `toDisplayMessages` makes them, each with the index of its message.
    fn read(
        protocol: WireProtocol,
        body: &Parsed,
        records: bool,
    ) -> Result<(Parsed, Vec<(usize, Parsed)>)>;
}

/// The reader of [`Parsed`] bodies.
pub struct Native;

impl Reader for Native {
    fn read(
        protocol: WireProtocol,
        body: &Parsed,
        records: bool,
    ) -> Result<(Parsed, Vec<(usize, Parsed)>)> {
        let messages: Vec<LcMessage<&Parsed>> = providers::read_payload(protocol, &body)?;
        let messages = to_parsed(&messages)?;
        if !records {
            return Ok((messages, Vec::new()));
        }
        let mut out = Vec::new();
        for (owner, record) in records_with_owners(&&messages)? {
            out.push((owner, to_parsed(&record)?));
        }
        Ok((messages, out))
    }
}

/// `toDisplayMessages` of the messages `fromProvider` gave (as JSON), each record with the index of
/// the message it comes from: what both readers return, in their own value types.
pub fn records_with_owners<J: Json>(messages: &J) -> Result<Vec<(usize, DisplayRecord<J>)>> {
    let mut parsed = Vec::new();
    let mut owners = Vec::new();
    for (i, message) in messages.elements().unwrap_or_default().iter().enumerate() {
        let message = parse_message(message, &MESSAGES.index(i))?;
        owners.extend(core::iter::repeat_n(i, record_items(&message).len()));
        parsed.push(message);
    }
    Ok(owners.into_iter().zip(records_of(&parsed, None)).collect())
}

/// Reads a provider's stream into records.
pub struct StreamAccumulator<R: Reader = Native> {
    reader: core::marker::PhantomData<R>,
    protocol: WireProtocol,
    /// The format's stream half.
    format: StreamFormat,
    /// How the stream's bytes are framed, decided by its first byte that is not white space.
    framing: Framing,
    records: Vec<Parsed>,
    segments: Vec<Segment>,
    /// The segment of the response being streamed.
    current: Option<usize>,
    /// Events read so far (the `N` in an error record's path `$.events[N]`).
    events: usize,
    done: bool,
    /// The stream ended with a provider error: the message it cut short is not complete.
    failed: bool,
    patches: Vec<Patch>,
    /// A path a format carries from one event to the next (Gemini: the `jsonPath` of a string
    /// argument whose next fragment continues it).
    pub(crate) pending_path: Option<Vec<Step>>,
}

/// How a stream's bytes are framed, decided by the first byte that is not white space.
enum Framing {
    /// Only white space so far.
    Undecided,
    /// Server-sent events: a first byte that begins an SSE line (`data:`, `event:`, `id:`,
    /// `retry:`, a `:` comment).
    Sse(sse::Decoder),
    /// AWS event-stream frames: a first byte of 0 (a frame's length), Bedrock's ConverseStream
    /// and InvokeModelWithResponseStream.
    Frames(eventstream::Decoder),
    /// JSON values one after another: a first `{` (a provider's error body pushed as text, say),
    /// or the elements of an array: a first `[` (Gemini's stream without `alt=sse`).
    Values(values::Decoder),
    /// None of these (an HTML error page, plain text): an error record said so, and the rest is
    /// not read.
    Unreadable,
}

/// A run of records: one response's, or one error record.
struct Segment {
    start: usize,
    count: usize,
    response: Option<Response>,
}

/// A response being built: its body in the provider's final shape, and its blocks.
pub(crate) struct Response {
    pub(crate) body: Parsed,
    blocks: Vec<Block>,
    /// The protocol's key of each block (a content index, an output index, a tool index...).
    keys: Vec<(i64, usize)>,
    finished: bool,
}

/// One content block of a response body.
struct Block {
    /// Where the block's value sits in the body.
    at: Vec<Step>,
    /// How many records it has in each group: content items, tool calls, later messages.
    counts: [usize; 3],
    streaming: bool,
    /// The body string whose growth is known to grow one record's `content.text`.
    slot: Option<Slot>,
    args: Option<Args>,
}

struct Slot {
    field: Vec<Step>,
    group: usize,
    k: usize,
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

struct Args {
    field: Vec<Step>,
    mode: ArgsMode,
    text: String,
    parser: PartialJson,
    /// The arguments parsed so far, once the text has begun a value.
    value: Option<Parsed>,
}

/// The `"probe"` character appended to a string to see which record shows it.
const PROBE: char = '\u{E000}';

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
    /// `messageStop`, a Gemini `finishReason`, or an error event).
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

    /// Stream bytes, given to the decoder of the stream's framing.
    fn bytes(&mut self, bytes: &[u8]) {
        let bytes = match self.framing {
            Framing::Undecided => {
                let Some(first) = bytes.iter().position(|b| !b.is_ascii_whitespace()) else {
                    return;
                };
                let bytes = &bytes[first..];
                self.framing = match bytes[0] {
                    0 => Framing::Frames(eventstream::Decoder::new()),
                    b'{' => Framing::Values(values::Decoder::new()),
                    b'[' => Framing::Values(values::Decoder::array()),
                    b'd' | b'e' | b'i' | b'r' | b':' => Framing::Sse(sse::Decoder::new()),
                    _ => {
                        let at = self.events;
                        self.events += 1;
                        let start = String::from_utf8_lossy(&bytes[..bytes.len().min(40)]);
                        self.provider_error(
                            at,
                            text!(
                                "The stream is not server-sent events, JSON or AWS event-stream frames (it begins with ",
                                crate::error::quoted(&start),
                                ")."
                            ),
                        );
                        Framing::Unreadable
                    }
                };
                bytes
            }
            _ => bytes,
        };
        match &mut self.framing {
            Framing::Undecided | Framing::Unreadable => {}
            Framing::Sse(decoder) => {
                let mut events = Vec::new();
                decoder.push(bytes, &mut events);
                for event in events {
                    self.data(event.name.as_deref(), &event.data, "A data line");
                }
            }
            Framing::Frames(decoder) => {
                let mut frames = Vec::new();
                decoder.push(bytes, &mut frames);
                for frame in frames {
                    match frame {
                        eventstream::Frame::Event { name, payload } => {
                            self.data(Some(&name), &payload, "A data line")
                        }
                        eventstream::Frame::Broken(text) => {
                            let at = self.events;
                            self.events += 1;
                            self.error_at(at, text);
                        }
                    }
                }
            }
            Framing::Values(decoder) => {
                let mut values = Vec::new();
                decoder.push(bytes, &mut values);
                for value in values {
                    self.data(None, &value, "A value of the JSON text");
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
        if let Some(bytes) = invoke_chunk(name, &event) {
            let decoded = eventstream::base64(bytes).and_then(|b| String::from_utf8(b).ok());
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
        protocol.visit(Event {
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
    fn empty_body(&self) -> Parsed {
        serde_json::from_str(self.format.empty_body).unwrap_or(Parsed::Null)
    }

    /// `fromProvider(protocol, body)`, as JSON.
    fn read(&self, body: &Parsed) -> Result<Parsed> {
        Ok(R::read(self.protocol, body, false)?.0)
    }

    /// The records of a body, each with the index of the message it comes from.
    fn records_of_body(&self, body: &Parsed) -> Result<Vec<(usize, Parsed)>> {
        Ok(R::read(self.protocol, body, true)?.1)
    }

    // -----------------------------------------------------------------------------------------
    // Responses and blocks (the operations the protocol readers use)

    fn response_ref(&self) -> Option<&Response> {
        self.segments.get(self.current?)?.response.as_ref()
    }

    pub(crate) fn response(&mut self) -> Option<&mut Response> {
        let current = self.current?;
        self.segments.get_mut(current)?.response.as_mut()
    }

    /// True when a response is being streamed (started and not finished).
    pub(crate) fn streaming(&self) -> bool {
        self.response_ref().is_some_and(|r| !r.finished)
    }

    /// Starts a new response with `body`, finishing the one before if it is still open.
    pub(crate) fn start_response(&mut self, body: Parsed) {
        self.finish_response();
        self.done = false;
        self.failed = false;
        let start = self.records.len();
        self.segments.push(Segment {
            start,
            count: 0,
            response: Some(Response {
                body,
                blocks: Vec::new(),
                keys: Vec::new(),
                finished: false,
            }),
        });
        self.current = Some(self.segments.len() - 1);
    }

    /// The block with the protocol's `key` in the current response.
    pub(crate) fn block(&self, key: i64) -> Option<usize> {
        let response = self.response_ref()?;
        response
            .keys
            .iter()
            .rev()
            .find(|(k, _)| *k == key)
            .map(|(_, b)| *b)
    }

    /// The number of blocks of the current response.
    pub(crate) fn block_count(&self) -> usize {
        self.response_ref().map_or(0, |r| r.blocks.len())
    }

    /// The value of block `b`.
    pub(crate) fn block_value(&self, b: usize) -> Option<&Parsed> {
        let response = self.response_ref()?;
        get_path(&response.body, &response.blocks.get(b)?.at)
    }

    pub(crate) fn block_streaming(&self, b: usize) -> bool {
        self.response_ref()
            .and_then(|r| r.blocks.get(b))
            .is_some_and(|b| b.streaming)
    }

    /// Registers a block whose value the protocol has already put in the body at `at`, under
    /// `key`, and adds its records. `args` names where its tool arguments arrive, if they stream.
    pub(crate) fn add_block(
        &mut self,
        key: i64,
        at: Vec<Step>,
        args: Option<(Vec<Step>, ArgsMode)>,
        streaming: bool,
    ) -> usize {
        let Some(response) = self.response() else {
            return 0;
        };
        let b = response.blocks.len();
        response.blocks.push(Block {
            at,
            counts: [0; 3],
            streaming,
            slot: None,
            args: args.map(|(field, mode)| Args {
                field,
                mode,
                text: String::new(),
                parser: PartialJson::new(),
                value: None,
            }),
        });
        response.keys.push((key, b));
        self.prefill(b);
        self.refresh(b);
        b
    }

    /// A block may start with arguments already in place (a Responses item added with its
    /// `arguments`, Gemini's `args`): the parser or the value starts from them.
    fn prefill(&mut self, b: usize) {
        let Some(response) = self.response() else {
            return;
        };
        let Some(block) = response.blocks.get_mut(b) else {
            return;
        };
        let Some(args) = block.args.as_mut() else {
            return;
        };
        let given = get_path(&response.body, &args.field).cloned();
        match (args.mode, given) {
            (ArgsMode::Text, Some(Parsed::String(text))) if !text.is_empty() => {
                let mut changes = Vec::new();
                args.parser.push(&text, &mut changes);
                args.text = text;
                let mut value = Parsed::Null;
                for change in &changes {
                    partial::apply(&mut value, change);
                }
                if !changes.is_empty() {
                    args.value = Some(value);
                }
            }
            (ArgsMode::Changes, Some(value)) => args.value = Some(value),
            _ => {}
        }
    }

    /// Appends `value` to the array at `list` in the current body (with `create`, an array is put
    /// there when there is none); the path of the value, or `None` when it was not added.
    pub(crate) fn push_value(
        &mut self,
        list: &[Step],
        value: Parsed,
        create: bool,
    ) -> Option<Vec<Step>> {
        let body = self.body_mut()?;
        let position = match get_path_mut(body, list) {
            Some(Parsed::Array(items)) => {
                items.push(value);
                items.len() - 1
            }
            _ if create => {
                set_path(body, list, Parsed::Array(vec![value]));
                0
            }
            _ => return None,
        };
        let mut at = list.to_vec();
        at.push(Step::Index(position));
        Some(at)
    }

    /// Where block `b`'s value sits in the body.
    pub(crate) fn block_at(&self, b: usize) -> Vec<Step> {
        self.response_ref()
            .and_then(|r| r.blocks.get(b))
            .map(|b| b.at.clone())
            .unwrap_or_default()
    }

    /// The current response's body.
    pub(crate) fn current_body(&self) -> Option<&Parsed> {
        self.response_ref().map(|r| &r.body)
    }

    /// The current block value of the body at `at`, mutable (for the readers' small edits that
    /// change no record: usage, stop reasons).
    pub(crate) fn body_mut(&mut self) -> Option<&mut Parsed> {
        self.response().map(|r| &mut r.body)
    }

    /// Appends `delta` to the string at `field` (a body path inside block `b`), and to the record
    /// showing it.
    pub(crate) fn text_delta(&mut self, b: usize, field: Vec<Step>, delta: &str) {
        if delta.is_empty() {
            return;
        }
        let Some(current) = self.current else { return };
        let Some(response) = self.response() else {
            return;
        };
        let Some(block) = response.blocks.get(b) else {
            return;
        };
        let slot = block
            .slot
            .as_ref()
            .filter(|s| s.field == field)
            .map(|s| (s.group, s.k));
        match get_path_mut(&mut response.body, &field) {
            Some(Parsed::String(s)) => s.push_str(delta),
            Some(other @ Parsed::Null) => *other = Parsed::String(delta.to_string()),
            _ => {
                if !set_path(
                    &mut response.body,
                    &field,
                    Parsed::String(delta.to_string()),
                ) {
                    return;
                }
            }
        }
        match slot {
            Some((group, k)) => {
                let index = self.record_index(current, b, group, k);
                if let Some(Parsed::String(text)) = self
                    .records
                    .get_mut(index)
                    .and_then(|r| r.get_mut("content"))
                    .and_then(|c| c.get_mut("text"))
                {
                    text.push_str(delta);
                    self.patches.push(Patch::Append {
                        index,
                        field: "text",
                        text: delta.to_string(),
                    });
                }
            }
            None => {
                self.refresh(b);
                self.find_slot(b, field);
            }
        }
    }

    /// Sets the string at `field` of block `b` to `text`, when it differs (a `.done` event that
    /// repeats the whole text).
    pub(crate) fn text_done(&mut self, b: usize, field: Vec<Step>, text: &str) {
        let Some(response) = self.response() else {
            return;
        };
        let same = get_path(&response.body, &field).and_then(Parsed::as_string) == Some(text);
        if !same && set_path(&mut response.body, &field, Parsed::String(text.to_string())) {
            self.refresh(b);
        }
    }

    /// Feeds tool-argument text to block `b`.
    pub(crate) fn args_delta(&mut self, b: usize, delta: &str) {
        if delta.is_empty() {
            return;
        }
        let Some(response) = self.response() else {
            return;
        };
        let Some(block) = response.blocks.get_mut(b) else {
            return;
        };
        let Some(args) = block.args.as_mut() else {
            return;
        };
        args.text.push_str(delta);
        if args.mode == ArgsMode::Text {
            let field = args.field.clone();
            match get_path_mut(&mut response.body, &field) {
                Some(Parsed::String(s)) => s.push_str(delta),
                _ => {
                    set_path(
                        &mut response.body,
                        &field,
                        Parsed::String(delta.to_string()),
                    );
                }
            }
        }
        let Some(args) = response.blocks.get_mut(b).and_then(|b| b.args.as_mut()) else {
            return;
        };
        let mut changes = Vec::new();
        args.parser.push(delta, &mut changes);
        self.args_changes(b, changes);
    }

    /// Applies argument changes to block `b` (from the parser, or Gemini's `partialArgs`).
    pub(crate) fn args_changes(&mut self, b: usize, changes: Vec<Change>) {
        if changes.is_empty() {
            return;
        }
        // Fields that arrive whole in one chunk travel as one change (one value to copy out).
        let changes = partial::compact(changes);
        let Some(current) = self.current else { return };
        let Some(response) = self.response() else {
            return;
        };
        let Some(block) = response.blocks.get_mut(b) else {
            return;
        };
        let Some(args) = block.args.as_mut() else {
            return;
        };
        let mut value = args.value.take().unwrap_or(Parsed::Null);
        for change in &changes {
            partial::apply(&mut value, change);
        }
        if args.mode == ArgsMode::Changes {
            let field = args.field.clone();
            args.value = Some(value.clone());
            set_path(&mut response.body, &field, value);
        } else {
            args.value = Some(value);
        }
        let calls = block.counts[1];
        if calls != 1 {
            return;
        }
        let index = self.record_index(current, b, 1, 0);
        let Some(arguments) = self
            .records
            .get_mut(index)
            .and_then(|r| r.get_mut("content"))
            .and_then(|c| c.get_mut("arguments"))
        else {
            return;
        };
        for change in &changes {
            partial::apply(arguments, change);
        }
        self.patches.push(Patch::Arguments { index, changes });
    }

    /// Changes block `b`'s value with `edit`, then reads its records again. Only the call of
    /// `edit` is compiled once per caller; the lookup is [`Self::block_value_mut`].
    pub(crate) fn edit_block(&mut self, b: usize, edit: impl FnOnce(&mut Parsed)) {
        let Some(value) = self.block_value_mut(b) else {
            return;
        };
        if let Some(value) = value {
            edit(value);
        }
        self.refresh(b);
    }

    /// Block `b`'s value in the current response's body: `None` when there is no response or no
    /// such block, `Some(None)` when the block's place is not in the body.
    fn block_value_mut(&mut self, b: usize) -> Option<Option<&mut Parsed>> {
        let response = self.response()?;
        let at = &response.blocks.get(b)?.at;
        Some(get_path_mut(&mut response.body, at))
    }

    /// Block `b` is complete: its arguments are final and its records are read without
    /// `metadata.streaming`.
    pub(crate) fn stop_block(&mut self, b: usize) {
        let Some(response) = self.response() else {
            return;
        };
        let Some(block) = response.blocks.get_mut(b) else {
            return;
        };
        if !block.streaming {
            return;
        }
        block.streaming = false;
        if let Some(args) = block.args.as_mut() {
            let mut changes = Vec::new();
            let complete = args.parser.finish(&mut changes);
            if args.mode == ArgsMode::Object && !args.text.trim().is_empty() {
                // The body holds what the whole text is: the object, or the text itself when it
                // is not one (as `fromProvider` keeps a string that is not an object).
                let parsed = serde_json::from_str::<Parsed>(&args.text).ok();
                let value = match parsed {
                    Some(value @ Parsed::Object(_)) if complete => value,
                    _ => Parsed::String(args.text.clone()),
                };
                let field = args.field.clone();
                set_path(&mut response.body, &field, value);
            }
        }
        self.refresh(b);
    }

    /// The current response is complete: every block stops, and its records are read again from
    /// the whole body.
    pub(crate) fn finish_response(&mut self) {
        let Some(current) = self.current else { return };
        if !self.streaming() {
            return;
        }
        for b in 0..self.block_count() {
            self.stop_block(b);
        }
        let Some(segment) = self.segments.get(current) else {
            return;
        };
        let (start, count) = (segment.start, segment.count);
        let exact = match segment.response.as_ref() {
            Some(response) => self.records_of_body(&response.body),
            None => return,
        };
        if let Some(response) = self.response() {
            response.finished = true;
        }
        let exact: Vec<Parsed> = match exact {
            Ok(records) => records.into_iter().map(|(_, r)| r).collect(),
            Err(e) => {
                // A body `fromProvider` cannot read (one block of the wrong shape, say): the records
                // its blocks gave stay, error records for the bad ones among them, and the body's
                // error follows. Replacing them with that one error would drop every good block.
                let mut kept = self
                    .records
                    .get(start..start + count)
                    .map(<[Parsed]>::to_vec)
                    .unwrap_or_default();
                kept.push(error_record(&e.message, &e.path));
                kept
            }
        };
        if exact.len() >= count {
            self.splice(current, 0, count, exact);
        } else if let Some(old) = self.records.get(start..start + count) {
            // The blocks gave more records than the whole body does: records are never removed
            // (patches have no removal), so the extra ones stay as they were.
            let mut kept = exact;
            kept.extend_from_slice(old.get(kept.len()..).unwrap_or_default());
            self.splice(current, 0, count, kept);
        }
        self.pair_across(current);
    }

    /// A tool result in this response that answers a call of an earlier response of the same
    /// stream (Anthropic's programmatic tool calling, whose code execution result comes in the last
    /// message), paired as `toDisplayMessages` pairs them across messages: a pending call takes the
    /// result's status, and a result without a name takes the call's.
    fn pair_across(&mut self, segment: usize) {
        let Some(seg) = self.segments.get(segment) else {
            return;
        };
        let (start, count) = (seg.start, seg.count);
        for i in start..(start + count).min(self.records.len()) {
            let record = &self.records[i];
            if str_at(record, "content_type") != Some("tool_result") {
                continue;
            }
            let Some(id) = str_at(record, "tool_call_id").map(String::from) else {
                continue;
            };
            let content = record.get("content");
            let flag = |key: &str| content.and_then(|c| c.get(key)) == Some(&Parsed::Bool(true));
            let status = if flag("is_error") {
                "failed"
            } else if flag("is_interrupt") {
                "interrupted"
            } else {
                "completed"
            };
            let nameless = matches!(
                content.and_then(|c| c.get("name")),
                None | Some(Parsed::Null)
            );
            let call_at = (0..start).rev().find(|&j| {
                let r = &self.records[j];
                str_at(r, "content_type") == Some("tool_call")
                    && str_at(r, "tool_call_id") == Some(id.as_str())
            });
            let Some(call_at) = call_at else { continue };
            let name = self.records[call_at]
                .get("content")
                .and_then(|c| c.get("name"))
                .cloned();
            if str_at(&self.records[call_at], "status") == Some("pending") {
                let mut call = self.records[call_at].clone();
                call.set("status", Parsed::String(status.into()));
                self.records[call_at] = call.clone();
                self.patches.push(Patch::Replace {
                    index: call_at,
                    record: call,
                });
            }
            if let Some(name) = name.filter(|_| nameless) {
                let mut result = self.records[i].clone();
                if let Some(content) = result.get_mut("content") {
                    content.set("name", name);
                }
                self.records[i] = result.clone();
                self.patches.push(Patch::Replace {
                    index: i,
                    record: result,
                });
            }
        }
    }

    /// Adds an error record for event `at`, after the current response's records.
    pub(crate) fn error_at(&mut self, at: usize, text: String) {
        let record = error_record(&text, &text!("$.events[", at, "]"));
        let start = self.records.len();
        self.records.push(record.clone());
        self.patches.push(Patch::Add(record));
        self.segments.push(Segment {
            start,
            count: 1,
            response: None,
        });
    }

    /// An error event from the provider: the response ends, not complete (`message()` is
    /// `cancelled`), and an error record says why.
    pub(crate) fn provider_error(&mut self, at: usize, text: String) {
        self.finish_response();
        self.error_at(at, text);
        self.done = true;
        self.failed = true;
    }

    pub(crate) fn set_done(&mut self) {
        self.done = true;
    }

    // -----------------------------------------------------------------------------------------
    // Records of blocks

    /// The index in `records` of block `b`'s `k`-th record of `group` in segment `segment`.
    fn record_index(&self, segment: usize, b: usize, group: usize, k: usize) -> usize {
        let Some(seg) = self.segments.get(segment) else {
            return 0;
        };
        let Some(response) = seg.response.as_ref() else {
            return seg.start;
        };
        let mut index = seg.start + k;
        for g in 0..group {
            index += response.blocks.iter().map(|b| b.counts[g]).sum::<usize>();
        }
        index += response
            .blocks
            .iter()
            .take(b)
            .map(|b| b.counts[group])
            .sum::<usize>();
        index
    }

    /// Block `b`'s records as the reader gives them for a body holding that block alone, in the
    /// three groups.
    fn block_records(&self, b: usize) -> Result<[Vec<Parsed>; 3]> {
        let Some(response) = self.response_ref() else {
            return Ok(Default::default());
        };
        let Some(block) = response.blocks.get(b) else {
            return Ok(Default::default());
        };
        let mini = self.mini_body(&response.body, &block.at);
        let mut groups: [Vec<Parsed>; 3] = Default::default();
        for (owner, record) in self.records_of_body(&mini)? {
            let call = record.get("content_type").and_then(Parsed::as_string) == Some("tool_call");
            let group = match (owner, call) {
                (0, false) => 0,
                (0, true) => 1,
                _ => 2,
            };
            groups[group].push(record);
        }
        Ok(groups)
    }

    /// A body holding only the block at `at` of `body`, in the protocol's shape.
    fn mini_body(&self, body: &Parsed, at: &[Step]) -> Parsed {
        let value = get_path(body, at).cloned().unwrap_or(Parsed::Null);
        self.protocol.visit(MiniBody(at, value))
    }

    /// Reads block `b`'s records again and puts them in place.
    fn refresh(&mut self, b: usize) {
        let Some(current) = self.current else { return };
        let mut groups = match self.block_records(b) {
            Ok(groups) => groups,
            Err(e) => [
                vec![error_record(&e.message, &e.path)],
                Vec::new(),
                Vec::new(),
            ],
        };
        let Some(response) = self.response() else {
            return;
        };
        let Some(block) = response.blocks.get_mut(b) else {
            return;
        };
        block.slot = None;
        if block.streaming {
            for record in groups.iter_mut().flatten() {
                if let Some(metadata) = record.get_mut("metadata") {
                    metadata.set("streaming", Parsed::Bool(true));
                }
            }
            if let (Some(value), [call]) = (
                block.args.as_ref().and_then(|a| a.value.as_ref()),
                groups[1].as_mut_slice(),
            ) {
                if let Some(content) = call.get_mut("content") {
                    content.set("arguments", value.clone());
                }
            }
        }
        let old = block.counts;
        let new = [groups[0].len(), groups[1].len(), groups[2].len()];
        let [g0, g1, g2] = groups;
        // The segment's records, rebuilt from the first one that can change.
        // Each group's record count in the blocks before `b` and after it.
        let blocks = &response.blocks;
        let sum = |g: usize, range: core::ops::Range<usize>| -> usize {
            blocks
                .get(range)
                .map_or(0, |bs| bs.iter().map(|b| b.counts[g]).sum())
        };
        let n = blocks.len();
        let before: [usize; 3] = core::array::from_fn(|g| sum(g, 0..b));
        let after: [usize; 3] = core::array::from_fn(|g| sum(g, b + 1..n));
        let Some(segment) = self.segments.get(current) else {
            return;
        };
        let seg_start = segment.start;
        let seg_count = segment.count;
        let old_total0 = before[0] + old[0] + after[0];
        let old_total1 = before[1] + old[1] + after[1];
        // Offsets (in the segment) of each part of the old layout.
        let old_at = |g: usize, part: usize| -> usize {
            let base = match g {
                0 => 0,
                1 => old_total0,
                _ => old_total0 + old_total1,
            };
            base + match part {
                0 => 0,
                1 => before[g],
                _ => before[g] + old[g],
            }
        };
        let take = |records: &[Parsed], from: usize, len: usize| -> Vec<Parsed> {
            records
                .get(seg_start + from..seg_start + from + len)
                .map(<[Parsed]>::to_vec)
                .unwrap_or_default()
        };
        let total01 = before[0] + new[0] + after[0] + before[1] + new[1] + after[1];
        if let Some(block) = self.response().and_then(|r| r.blocks.get_mut(b)) {
            block.counts = new;
        }
        // Only what can change is written again: each group of the block whose record count is
        // unchanged in place, and from the first group whose count changed, everything after it
        // (its records move). Rewriting from the block's first record on every refresh compared
        // every later record each time: with tool calls grouped after all text, a stream of n
        // tool calls took time quadratic in n.
        let first_moved = (0..3).find(|&g| new[g] != old[g]).unwrap_or(3);
        let mut tail = Vec::new();
        for (g, records) in [g0, g1, g2].into_iter().enumerate() {
            if g < first_moved {
                let at = old_at(g, 1);
                self.splice(current, at, old[g], numbered(records, at, total01));
                continue;
            }
            if g > first_moved {
                tail.extend(take(&self.records, old_at(g, 0), before[g]));
            }
            tail.extend(records);
            tail.extend(take(&self.records, old_at(g, 2), after[g]));
        }
        if first_moved < 3 {
            let first = old_at(first_moved, 1);
            self.splice(
                current,
                first,
                seg_count - first,
                numbered(tail, first, total01),
            );
        }
    }

    /// Puts `new` in place of the `len` records at `offset` of segment `segment`, patching what
    /// differs; the records after it move along when the length changes.
    fn splice(&mut self, segment: usize, offset: usize, len: usize, new: Vec<Parsed>) {
        let Some(seg) = self.segments.get(segment) else {
            return;
        };
        let from = seg.start + offset;
        let grown = new.len() as isize - len as isize;
        let end = (from + len).min(self.records.len());
        let later: Vec<Parsed> = if grown != 0 {
            self.records
                .get(end..)
                .map(<[Parsed]>::to_vec)
                .unwrap_or_default()
        } else {
            Vec::new()
        };
        let mut replacement = new;
        let tail_len = if grown != 0 {
            replacement.extend(later);
            self.records.len() - from
        } else {
            len
        };
        for (i, record) in replacement.into_iter().enumerate() {
            let index = from + i;
            match self.records.get_mut(index) {
                Some(old) if i < tail_len => {
                    if *old != record {
                        *old = record.clone();
                        self.patches.push(Patch::Replace { index, record });
                    }
                }
                _ => {
                    self.records.push(record.clone());
                    self.patches.push(Patch::Add(record));
                }
            }
        }
        if grown != 0 {
            if let Some(seg) = self.segments.get_mut(segment) {
                seg.count = (seg.count as isize + grown).max(0) as usize;
            }
            for later in self.segments.iter_mut().skip(segment + 1) {
                later.start = (later.start as isize + grown).max(0) as usize;
            }
        }
    }

    /// After a slow text delta: finds which record of block `b` shows the string at `field`, by
    /// reading the block again with a probe character appended, so later deltas are `append`s.
    fn find_slot(&mut self, b: usize, field: Vec<Step>) {
        let Ok(base) = self.block_records(b) else {
            return;
        };
        let Some(response) = self.response() else {
            return;
        };
        match get_path_mut(&mut response.body, &field) {
            Some(Parsed::String(s)) => s.push(PROBE),
            _ => return,
        }
        let probed = self.block_records(b);
        if let Some(response) = self.response() {
            if let Some(Parsed::String(s)) = get_path_mut(&mut response.body, &field) {
                s.pop();
            }
        }
        let Ok(probed) = probed else { return };
        let mut found = None;
        for group in 0..3 {
            if base[group].len() != probed[group].len() {
                return;
            }
            for (k, (a, p)) in base[group].iter().zip(&probed[group]).enumerate() {
                if a == p {
                    continue;
                }
                let text = |r: &Parsed| {
                    r.get("content")
                        .and_then(|c| c.get("text"))
                        .and_then(Parsed::as_string)
                        .map(str::to_string)
                };
                let (Some(before), Some(after)) = (text(a), text(p)) else {
                    return;
                };
                let mut expected = a.clone();
                if let Some(content) = expected.get_mut("content") {
                    content.set("text", Parsed::String(text!(before, PROBE)));
                }
                if found.is_some() || expected != *p || !after.ends_with(PROBE) {
                    return;
                }
                found = Some((group, k));
            }
        }
        if let (Some((group, k)), Some(response)) = (found, self.response()) {
            if let Some(block) = response.blocks.get_mut(b) {
                block.slot = Some(Slot { field, group, k });
            }
        }
    }
}

/// `records`, which start at `first` in their segment, with their sequence numbers: the assistant
/// message's items (the segment's first `total01`) count from 0, and so do the later messages'.
/// Error records have none.
fn numbered(mut records: Vec<Parsed>, first: usize, total01: usize) -> Vec<Parsed> {
    for (i, record) in records.iter_mut().enumerate() {
        let position = first + i;
        let sequence = if position < total01 {
            position
        } else {
            position - total01
        };
        if record.get("content_type").and_then(Parsed::as_string) != Some("error") {
            record.set("sequence", Parsed::Number(sequence.into()));
        }
    }
    records
}

/// The base64 `bytes` of an InvokeModelWithResponseStream chunk: a frame named `chunk` whose
/// payload is `{bytes}`, or an event `{chunk: {bytes}}`.
fn invoke_chunk<'a>(name: Option<&str>, event: &'a Parsed) -> Option<&'a str> {
    let chunk = match name {
        Some("chunk") => event,
        _ => event.get("chunk")?,
    };
    str_at(chunk, "bytes")
}

/// An error record ([`crate::display::ErrorRecord`], as `Transcript` makes them) as a value.
fn error_record(text: &str, path: &str) -> Parsed {
    use crate::display::{ErrorField, ErrorRecord};
    let value = |field| match field {
        ErrorField::Null => Parsed::Null,
        ErrorField::String(text) => Parsed::String(text.to_string()),
        ErrorField::Zero => Parsed::Number(0.into()),
        ErrorField::Strings(entries) => object(
            entries
                .iter()
                .map(|&(key, text)| (key, Parsed::String(text.to_string())))
                .collect(),
        ),
    };
    let record = ErrorRecord::new(text, path);
    object(
        record
            .fields()
            .into_iter()
            .map(|(key, field)| (key, value(field)))
            .collect(),
    )
}

/// An object from its entries.
pub(crate) fn object(entries: Vec<(&str, Parsed)>) -> Parsed {
    Parsed::Object(
        entries
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect(),
    )
}

/// A message of one block, `{role, <list>: [block]}`: the body of one block for formats whose
/// response is one message.
pub(crate) fn message_body(role: &str, list: &str, block: Parsed) -> Parsed {
    object(vec![
        ("role", Parsed::String(role.into())),
        (list, Parsed::Array(vec![block])),
    ])
}

/// A path of object keys.
pub(crate) fn keys(keys: &[&str]) -> Vec<Step> {
    keys.iter().map(|k| Step::Key((*k).to_string())).collect()
}

/// The path of `keys` under `at`.
pub(crate) fn under(at: &[Step], keys: &[&str]) -> Vec<Step> {
    let mut path = at.to_vec();
    path.extend(keys.iter().map(|k| Step::Key((*k).to_string())));
    path
}

pub(crate) fn get_path<'a>(mut at: &'a Parsed, path: &[Step]) -> Option<&'a Parsed> {
    for step in path {
        at = match (at, step) {
            (Parsed::Object(_), Step::Key(k)) => at.get(k)?,
            (Parsed::Array(items), Step::Index(i)) => items.get(*i)?,
            _ => return None,
        };
    }
    Some(at)
}

pub(crate) fn get_path_mut<'a>(mut at: &'a mut Parsed, path: &[Step]) -> Option<&'a mut Parsed> {
    for step in path {
        at = match (at, step) {
            (at @ Parsed::Object(_), Step::Key(k)) => at.get_mut(k)?,
            (Parsed::Array(items), Step::Index(i)) => items.get_mut(*i)?,
            _ => return None,
        };
    }
    Some(at)
}

/// Sets the value at `path`, creating the last key of an object or pushing onto an array at its
/// length; false when the parent is missing.
pub(crate) fn set_path(target: &mut Parsed, path: &[Step], value: Parsed) -> bool {
    let Some((last, parent)) = path.split_last() else {
        *target = value;
        return true;
    };
    match (get_path_mut(target, parent), last) {
        (Some(p @ Parsed::Object(_)), Step::Key(k)) => {
            p.set(k, value);
            true
        }
        (Some(Parsed::Array(items)), Step::Index(i)) if *i <= items.len() => {
            if *i == items.len() {
                items.push(value);
            } else if let Some(slot) = items.get_mut(*i) {
                *slot = value;
            }
            true
        }
        _ => false,
    }
}

/// What serde_json found wrong with a text, and where, without its `Display`: that is written
/// through `core::fmt`, which only it would bring into the module (2.2 KB gzipped).
fn json_error(e: &serde_json::Error) -> String {
    use serde_json::error::Category;
    let what = match e.classify() {
        Category::Eof => "it ends inside a value",
        Category::Syntax => "a syntax error",
        Category::Data | Category::Io => "it cannot be read",
    };
    text!(what, " at line ", e.line(), ", column ", e.column())
}

/// A serializable value as [`Parsed`] (through JSON text, keys in the order written).
pub(crate) fn to_parsed<T: serde::Serialize>(value: &T) -> Result<Parsed> {
    let text = serde_json::to_string(value).map_err(|e| internal(&json_error(&e)))?;
    serde_json::from_str(&text).map_err(|e| {
        Error::new(
            ErrorCode::TooDeep,
            &Path::ROOT,
            text!(
                "A value in the stream is nested too deeply to show (",
                json_error(&e),
                ")."
            ),
        )
    })
}

fn internal(message: &str) -> Error {
    Error::new(
        ErrorCode::InvalidInput,
        &Path::ROOT,
        text!(
            "A value in the stream cannot be written as JSON (",
            message,
            ")."
        ),
    )
}

/// The string under `key` of an event.
pub(crate) fn str_at<'a>(value: &'a Parsed, key: &str) -> Option<&'a str> {
    value.get(key).and_then(Parsed::as_string)
}

/// The integer under `key` of an event.
pub(crate) fn int_at(value: &Parsed, key: &str) -> Option<i64> {
    match value.get(key)? {
        Parsed::Number(n) => n.as_i64(),
        _ => None,
    }
}

/// A parsed event given by the caller (a JavaScript object), copied as [`Parsed`]: JSON values
/// only, at most [`crate::json::crate::json::MAX_DEPTH`] levels deep. Paths start at `root`.
pub fn event_of<J: Json>(value: &J, root: &Path<'_>) -> Result<Parsed> {
    copy(value, root, 0)
}

fn copy<J: Json>(value: &J, path: &Path<'_>, depth: usize) -> Result<Parsed> {
    use crate::json::{Kind, Number};
    if depth > crate::json::MAX_DEPTH {
        return Err(Error::new(
            ErrorCode::TooDeep,
            path,
            text!(
                "Too deep at ",
                path,
                ": events are read to ",
                crate::json::MAX_DEPTH,
                " levels."
            ),
        ));
    }
    Ok(match value.kind() {
        Kind::Null => Parsed::Null,
        Kind::Bool => Parsed::Bool(value.as_bool() == Some(true)),
        Kind::Number => match value.as_number() {
            Some(Number::Int(i)) => match i64::try_from(i) {
                Ok(i) => Parsed::Number(i.into()),
                Err(_) => {
                    serde_json::Number::from_f64(i as f64).map_or(Parsed::Null, Parsed::Number)
                }
            },
            Some(Number::Float(f)) => {
                serde_json::Number::from_f64(f).map_or(Parsed::Null, Parsed::Number)
            }
            None => Parsed::Null,
        },
        Kind::String => Parsed::String(value.as_str().map(|s| s.into_owned()).unwrap_or_default()),
        Kind::Array => {
            let items = value.elements().unwrap_or_default();
            let mut out = Vec::with_capacity(items.len());
            for (i, item) in items.iter().enumerate() {
                out.push(copy(item, &path.index(i), depth + 1)?);
            }
            Parsed::Array(out)
        }
        Kind::Object => {
            let mut out = Parsed::Object(Vec::new());
            for (key, item) in value.entries().unwrap_or_default() {
                let item = copy(&item, &path.key(&key), depth + 1)?;
                out.set(&key, item);
            }
            out
        }
        Kind::Other => return Err(Error::expected(path, "a JSON value", Kind::Other)),
    })
}
