//! The one payload reader of `fromProvider`: which of its shapes a payload is (a message array,
//! a response body, a request body, one message), read with the format's [`ReadPayload`]; or a
//! provider's error body (`failure.rs`), which throws `provider_error`.
//!
//! The envelope is not generic over the format: it reaches the format's readers through
//! [`WireProtocol::visit`], so that the module holds it once rather than once per format (3.6 KB
//! before compression, monomorphized), and with direct calls (a table of function pointers cost
//! 0.2 KB gzipped more).

use crate::error::{Error, Path, Result};
use crate::json::{Json, Kind};
use crate::message::Role;
use crate::prelude::*;
use crate::registry::WireProtocol;

use super::{field, Conversation, Format, LcMessage, Visit, PAYLOAD};

/// `fromProvider(protocol, payload)`.
pub fn read<J: Json>(protocol: WireProtocol, payload: &J) -> Result<Vec<LcMessage<J>>> {
    let mut conversation = Conversation::new(protocol);
    let c = &mut conversation;
    let root = PAYLOAD;
    let shape = protocol.visit(ShapeOf);
    let has = |key: &str| payload.get(key).is_some();
    let response = shape.response.iter().any(|key| has(key));
    if !response {
        // The JSON of an HTTP error: the provider's own message, not a shape error.
        if let Some(failure) = super::failure(payload) {
            return Err(failure.error(&root));
        }
    }
    match payload.kind() {
        Kind::Array => list(c, payload, &root)?,
        Kind::Object if response => protocol.visit(Call(c, Read::Response(payload, &root)))?,
        Kind::Object if has(shape.request) => {
            if let Some((key, system)) = shape
                .system
                .iter()
                .find_map(|k| Some((*k, field(payload, k)?)))
            {
                protocol.visit(Call(c, Read::System(&system, &root.key(key))))?;
            }
            let path = root.key(shape.request);
            match field(payload, shape.request) {
                Some(messages) if messages.kind() == Kind::Array => list(c, &messages, &path)?,
                other => protocol.visit(Call(c, Read::OtherList(other, &path)))?,
            }
        }
        Kind::Object if shape.one.iter().any(|key| has(key)) => {
            protocol.visit(Call(c, Read::One(payload, &root)))?
        }
        other => return Err(Error::expected(&root, shape.expected, other)),
    }
    Ok(conversation.finish())
}

/// The messages (or items) of an array, in order.
pub fn list<J: Json>(c: &mut Conversation<J>, list: &J, path: &Path<'_>) -> Result<()> {
    let protocol = c.protocol();
    for (i, item) in list.elements().unwrap_or_default().iter().enumerate() {
        protocol.visit(Call(c, Read::Message(item, &path.index(i))))?;
    }
    Ok(())
}

struct ShapeOf;

impl Visit for ShapeOf {
    type Output = super::Shape;
    fn visit<F: Format>(self, _: WireProtocol) -> super::Shape {
        F::SHAPE
    }
}

/// A call of one of the format's readers.
enum Read<'a, 'p, J> {
    Message(&'a J, &'a Path<'p>),
    One(&'a J, &'a Path<'p>),
    Response(&'a J, &'a Path<'p>),
    System(&'a J, &'a Path<'p>),
    OtherList(Option<J>, &'a Path<'p>),
}

struct Call<'a, 'p, J>(&'a mut Conversation<J>, Read<'a, 'p, J>);

impl<J: Json> Visit for Call<'_, '_, J> {
    type Output = Result<()>;
    fn visit<F: Format>(self, _: WireProtocol) -> Result<()> {
        let Call(c, read) = self;
        match read {
            Read::Message(message, path) => F::message(c, message, path),
            Read::One(message, path) => F::one(c, message, path),
            Read::Response(body, root) => F::response(c, body, root),
            Read::System(system, path) => {
                let parts = F::system(system, path)?;
                if !parts.is_empty() {
                    c.message(Role::System, parts, Vec::new());
                }
                Ok(())
            }
            Read::OtherList(list, path) => F::other_list(c, list, path),
        }
    }
}
