//! What a wire format implements: reading a payload ([`ReadPayload`], for `fromProvider` and
//! `detectProtocol`), writing a request ([`WriteRequest`], for `toProvider`) and, when it has a
//! stream, reading it ([`ReadStream`], for `StreamAccumulator`). Each format is a unit type in its
//! folder under `src/providers/`, one file per half (`read.rs`, `write.rs`, `stream.rs`); the
//! registry (`src/registry.rs`) lists them, and [`WireProtocol::visit`] /
//! [`WireProtocol::visit_stream`] are the one place a protocol value becomes its type. A
//! read-only format has no `stream.rs` and no `(streams)` in its registry row.

use crate::error::{Error, Path, Result};
use crate::json::partial::Step;
use crate::json::Json;
use crate::prelude::*;
use crate::registry::WireProtocol;
use crate::stream::{Reader, StreamAccumulator, Transport};

use super::{kind_of, Conversation, InMessage, LcPart, Out, Parsed};

/// A wire format: what every format has, reading and writing. Its stream half, [`ReadStream`],
/// is separate: a read-only format does without it.
pub trait Format: ReadPayload + WriteRequest {}

impl<F: ReadPayload + WriteRequest> Format for F {}

/// Work to do with one format, whichever a [`WireProtocol`] names: [`WireProtocol::visit`] calls
/// [`Visit::visit`] with the format's type.
pub trait Visit {
    type Output;
    fn visit<F: Format>(self, protocol: WireProtocol) -> Self::Output;
}

/// Work to do with one format's stream half, whichever a [`WireProtocol`] names:
/// [`WireProtocol::visit_stream`] calls [`VisitStream::visit`] with the format's type, or
/// [`VisitStream::none`] for a format without a stream.
pub trait VisitStream {
    type Output;
    fn visit<F: Format + ReadStream>(self, protocol: WireProtocol) -> Self::Output;
    fn none(self, protocol: WireProtocol) -> Self::Output;
}

/// The shapes a format's payloads take (`expected` names them, for the error a payload of none of
/// them is), which the one payload reader (`payload.rs`) tells apart in this order: an array of
/// messages; a response body (an object with any of the keys `response`); a request body (with the key
/// `request`, its list of messages, and its system prompt under the first of the keys `system`
/// that it has); one message (with any of the keys `one`).
pub struct Shape {
    pub expected: &'static str,
    pub response: &'static [&'static str],
    pub request: &'static str,
    pub system: &'static [&'static str],
    pub one: &'static [&'static str],
}

/// Reading a payload into LangChain messages, which [`Conversation`] builds. The envelope, the
/// part every format shares, is `payload.rs`; a format gives its [`Shape`] and the
/// readers of its parts.
pub trait ReadPayload {
    const SHAPE: Shape;

    /// Whether `payload` (a body, a message or a list of them) bears a sign only this format's
    /// payloads have, so `detectProtocol` names the format before its shared rules
    /// (`detect.rs`) weigh the formats against each other. None by default: the formats those
    /// rules already tell apart claim nothing.
    fn claims<J: Json>(_payload: &J) -> bool {
        false
    }

    /// One message (or item) of a list.
    fn message<J: Json>(c: &mut Conversation<J>, message: &J, path: &Path<'_>) -> Result<()>;

    /// A payload that is one message (or item).
    fn one<J: Json>(c: &mut Conversation<J>, message: &J, path: &Path<'_>) -> Result<()> {
        Self::message(c, message, path)
    }

    /// A response body. Only called for a format whose [`Shape`] names `response` keys.
    fn response<J: Json>(_c: &mut Conversation<J>, _body: &J, _root: &Path<'_>) -> Result<()> {
        Ok(())
    }

    /// A request body's system prompt (the value under one of [`Shape::system`]), read before its
    /// list, as the parts of its system message (none: no message).
    fn system<J: Json>(_system: &J, _path: &Path<'_>) -> Result<Vec<LcPart<J>>> {
        Ok(Vec::new())
    }

    /// A request body's list when it is not an array (absent when null): an error by default.
    fn other_list<J: Json>(
        _c: &mut Conversation<J>,
        list: Option<J>,
        path: &Path<'_>,
    ) -> Result<()> {
        Err(Error::expected(path, "an array", kind_of(list)))
    }
}

/// Writing LangChain messages (as [`super::read_messages`] reads them) as the format's request.
pub trait WriteRequest {
    fn write<J: Json>(messages: &[InMessage<J>]) -> Result<Out<J>>;
}

/// Reading a live stream: the format turns each event into operations on the body the
/// accumulator builds (`start_response`, `add_block`, `text_delta`, `args_delta`, `stop_block`,
/// `finish_response`...), a response body in the format's own final shape, so that reading it
/// with [`ReadPayload`] gives the records.
pub trait ReadStream {
    /// A body holding an empty assistant message, as JSON text.
    const EMPTY_BODY: &'static str;

    /// The framings its stream may come in, by preference: the accumulator decides which one a
    /// stream is from its first byte (`src/stream/transport.rs`). Server-sent events unless the
    /// format says otherwise.
    const TRANSPORTS: &'static [Transport] = &[Transport::Sse];

    /// A body holding only `block`, whose place in the whole body is `at`.
    fn mini_body(at: &[Step], block: Parsed) -> Parsed;

    /// One event, the `at`-th of the stream (`name` is its SSE `event:` line or frame name).
    fn event<R: Reader>(
        acc: &mut StreamAccumulator<R>,
        at: usize,
        name: Option<&str>,
        event: &Parsed,
    );
}
