//! What a wire format implements: reading a payload ([`ReadPayload`], for `fromProvider`),
//! writing a request ([`WriteRequest`], for `toProvider`) and reading its stream ([`ReadStream`],
//! for `StreamAccumulator`). Each format is a unit type in its folder under `src/providers/`,
//! one file per half (`read.rs`, `write.rs`, `stream.rs`); the registry (`src/registry.rs`) lists
//! them, and [`WireProtocol::visit`] is the one place a protocol value becomes its type.

use crate::error::{Error, Path, Result};
use crate::json::partial::Step;
use crate::json::Json;
use crate::prelude::*;
use crate::registry::WireProtocol;
use crate::stream::{Reader, StreamAccumulator};

use super::{kind_of, Conversation, InMessage, LcPart, Out, Parsed};

/// A wire format: its three halves.
pub trait Format: ReadPayload + WriteRequest + ReadStream {}

impl<F: ReadPayload + WriteRequest + ReadStream> Format for F {}

/// Work to do with one format, whichever a [`WireProtocol`] names: [`WireProtocol::visit`] calls
/// [`Visit::visit`] with the format's type.
pub trait Visit {
    type Output;
    fn visit<F: Format>(self, protocol: WireProtocol) -> Self::Output;
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

    /// False for a format that has no stream (LangChain.js): `StreamAccumulator` refuses it
    /// ([`super::stream_protocol`]).
    const STREAMS: bool = true;

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
