//! Reading a payload (`fromProvider`), and the signs `detectProtocol` knows the format by.

use super::Ollama;
use crate::error::{Error, Path, Result};
use crate::json::{Json, Kind};
use crate::message::Role;
use crate::prelude::*;
use crate::providers::{
    arguments, each_object, field, message_role, object, opt_list, opt_str, Conversation, LcPart,
    Out, PartKind, ReadPayload, ResultBody, Shape, Statuses,
};

/// `done_reason` → status: `length` is `length`; the rest (`stop`, `load`, `unload`) `complete`.
const STATUSES: Statuses = Statuses {
    length: &["length"],
    filtered: &[],
    cancelled: &[],
};

#[derive(Clone, Copy)]
enum Sender {
    System,
    User,
    Assistant,
    Tool,
}

const ROLES: [(&str, Sender); 4] = [
    ("system", Sender::System),
    ("user", Sender::User),
    ("assistant", Sender::Assistant),
    ("tool", Sender::Tool),
];

impl ReadPayload for Ollama {
    const SHAPE: Shape = Shape {
        expected: "an Ollama /api/chat request body ({model, messages}), a response ({message, done}), a message or a message array",
        response: &["message", "done", "done_reason"],
        request: "messages",
        system: &[],
        one: &["role"],
    };

    /// A response or stream chunk (`done` a boolean beside `message`, `created_at` or
    /// `done_reason`), or messages with a field only Ollama's have: `images`,
    /// `thinking` or `tool_name` on the message, or a tool call whose `function.arguments` is an
    /// object (Chat Completions' is a JSON string). Plain `{role, content}` messages are not
    /// claimed: they read the same in every role-based format.
    fn claims<J: Json>(payload: &J) -> bool {
        match payload.kind() {
            Kind::Array => payload
                .elements()
                .unwrap_or_default()
                .iter()
                .any(is_message),
            Kind::Object => {
                let done = field(payload, "done").is_some_and(|d| d.kind() == Kind::Bool);
                let response = ["message", "created_at", "done_reason"]
                    .iter()
                    .any(|k| field(payload, k).is_some());
                if done && response && field(payload, "choices").is_none() {
                    return true;
                }
                if let Some(messages) = field(payload, "messages") {
                    return Self::claims(&messages);
                }
                is_message(payload)
            }
            _ => false,
        }
    }

    fn message<J: Json>(c: &mut Conversation<J>, message: &J, path: &Path<'_>) -> Result<()> {
        let expected = "\"system\", \"user\", \"assistant\" or \"tool\"";
        match message_role(message, path, &ROLES, expected)? {
            Sender::System => {
                let parts = content(message, path)?;
                c.message(Role::System, parts, Vec::new());
            }
            Sender::User => {
                let mut parts = content(message, path)?;
                parts.extend(images(message, path)?);
                c.message(Role::User, parts, Vec::new());
            }
            Sender::Assistant => {
                let mut parts = Vec::new();
                if let Some(thinking) = opt_str(message, "thinking", path)? {
                    if !thinking.is_empty_str() {
                        parts.push(LcPart::thinking(Out::Given(thinking), None));
                    }
                }
                parts.extend(content(message, path)?);
                parts.extend(images(message, path)?);
                let mut calls = Vec::new();
                each_object(
                    message,
                    "tool_calls",
                    path,
                    "a tool call object",
                    |call, path| {
                        let id = opt_str(call, "id", path)?.filter(|id| !id.is_empty_str());
                        let function_path = path.key("function");
                        let function = field(call, "function")
                            .ok_or_else(|| Error::missing(&function_path, "the call's function"))?;
                        object(&function, &function_path, "a function object")?;
                        let name = opt_str(&function, "name", &function_path)?;
                        let arguments = arguments(field(&function, "arguments"));
                        calls.push(c.call(id, name.map(Out::Given), arguments, Vec::new()));
                        Ok(())
                    },
                )?;
                c.message(Role::Assistant, parts, calls);
            }
            Sender::Tool => {
                let id = opt_str(message, "tool_call_id", path)?.filter(|id| !id.is_empty_str());
                let name = opt_str(message, "tool_name", path)?.filter(|n| !n.is_empty_str());
                let body = match field(message, "content") {
                    Some(text) if text.kind() == Kind::String => ResultBody::Text(Out::Given(text)),
                    Some(other) => {
                        return Err(Error::expected(
                            &path.key("content"),
                            "a string or null",
                            other.kind(),
                        ))
                    }
                    None => ResultBody::Text(Out::Str("")),
                };
                let result = c.result(id, name, body, false, Vec::new());
                c.results(vec![result]);
            }
        }
        Ok(())
    }

    /// A response (or one chunk of a stream): its message, with `done_reason` as the stop reason;
    /// a body without a message (the last chunk of some streams) is an assistant message with no
    /// parts.
    fn response<J: Json>(c: &mut Conversation<J>, payload: &J, root: &Path<'_>) -> Result<()> {
        match field(payload, "message") {
            Some(message) => Self::message(c, &message, &root.key("message"))?,
            None => c.message(Role::Assistant, Vec::new(), Vec::new()),
        }
        if let Some(reason) = field(payload, "done_reason") {
            c.stop_reason(reason, &STATUSES, Vec::new());
        }
        Ok(())
    }
}

/// A message with a field only Ollama's messages have.
fn is_message<J: Json>(item: &J) -> bool {
    if !item.is_object() || field(item, "role").is_none() || field(item, "type").is_some() {
        return false;
    }
    let object_arguments = field(item, "tool_calls")
        .and_then(|c| c.elements())
        .unwrap_or_default()
        .iter()
        .any(|call| {
            field(call, "function")
                .and_then(|f| field(&f, "arguments"))
                .is_some_and(|a| a.kind() == Kind::Object)
        });
    field(item, "images").is_some_and(|i| i.kind() == Kind::Array)
        || object_arguments
        || field(item, "tool_name").is_some_and(|n| n.kind() == Kind::String)
        || field(item, "thinking").is_some_and(|t| t.kind() == Kind::String)
}

/// A message's `content`: a string (one text part, none when empty) or null.
fn content<J: Json>(message: &J, path: &Path<'_>) -> Result<Vec<LcPart<J>>> {
    match field(message, "content") {
        None => Ok(Vec::new()),
        Some(text) if text.kind() == Kind::String => Ok(LcPart::texts(text)),
        Some(other) => Err(Error::expected(
            &path.key("content"),
            "a string or null",
            other.kind(),
        )),
    }
}

/// A message's `images`: base64 strings, each an image part.
fn images<J: Json>(message: &J, path: &Path<'_>) -> Result<Vec<LcPart<J>>> {
    let list = opt_list(message, "images", path)?.unwrap_or_default();
    let images_path = path.key("images");
    let mut parts = Vec::with_capacity(list.len());
    for (i, image) in list.iter().enumerate() {
        if image.kind() != Kind::String {
            return Err(Error::expected(
                &images_path.index(i),
                "a base64 string",
                image.kind(),
            ));
        }
        parts.push(LcPart::new(
            PartKind::Image,
            Some(Out::Given(image.clone())),
            Vec::new(),
        ));
    }
    Ok(parts)
}
