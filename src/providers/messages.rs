//! Reading LangChain messages for `toProvider`: [`read_messages`] checks each as
//! `extractDisplayItems` does and pairs results with calls, giving the writers [`InMessage`]s.

use crate::error::{Error, Result};
use crate::json::{Json, Kind};
use crate::message::{parse_message, PartType, Role};
use crate::prelude::*;

use super::{field, parse_object, str_of, Out, Pairing, WireProtocol, MESSAGES};
use crate::json::compact_json;

/// A LangChain message as toProvider reads it.
#[derive(Clone, Debug)]
pub struct InMessage<J> {
    pub role: Role,
    pub parts: Vec<InPart<J>>,
    pub calls: Vec<InCall<J>>,
    pub results: Vec<InResult<J>>,
    /// True when `metadata.wire_protocol` names the format being written, so provider blocks kept
    /// in `unsupported` parts (and server-tool items) can be passed back unchanged.
    pub own: bool,
    /// The message's `metadata` object, if it has one.
    pub metadata: Option<J>,
}

/// A content part: its type, its `content`, and its `options` object.
#[derive(Clone, Debug)]
pub struct InPart<J> {
    pub kind: PartType,
    pub content: Option<J>,
    pub options: Option<J>,
}

impl<J: Json> InPart<J> {
    /// An option's value (non-null).
    pub fn option(&self, key: &str) -> Option<J> {
        self.options.as_ref().and_then(|o| field(o, key))
    }

    /// An option's string value.
    pub fn option_str(&self, key: &str) -> Option<String> {
        self.options.as_ref().and_then(|o| str_of(o, key))
    }

    /// The content when it is a string.
    pub fn text(&self) -> Option<J> {
        self.content.clone().filter(|c| c.kind() == Kind::String)
    }

    /// The content when it is a string that is not empty.
    pub fn nonempty_text(&self) -> Option<J> {
        self.text().filter(|t| !t.is_empty_str())
    }

    /// True for redacted reasoning (`unsupported` with `options.type: "redacted_thinking"`).
    pub fn is_redacted(&self) -> bool {
        self.kind == PartType::Unsupported
            && self.option_str("type").as_deref() == Some("redacted_thinking")
    }

    /// The provider block kept under `key` (`block`, `item`, `part`) when the message came from
    /// the format being written.
    pub fn raw(&self, key: &str, own: bool) -> Option<J> {
        if own && self.kind == PartType::Unsupported {
            self.option(key)
        } else {
            None
        }
    }
}

/// A tool call, with its id (a synthetic one when it had none).
#[derive(Clone, Debug)]
pub struct InCall<J> {
    pub id: Out<J>,
    /// True when the id was made up (here, or by fromProvider: `metadata.synthetic_id`).
    pub synthetic: bool,
    pub name: Option<J>,
    pub arguments: Option<J>,
    pub metadata: Option<J>,
    /// Where the call sits: its message's index (`None` for a lone message) and its own.
    pub at: (Option<usize>, usize),
}

impl<J: Json> InCall<J> {
    pub fn meta_str(&self, key: &str) -> Option<String> {
        self.metadata.as_ref().and_then(|m| str_of(m, key))
    }

    pub fn meta(&self, key: &str) -> Option<J> {
        self.metadata.as_ref().and_then(|m| field(m, key))
    }

    /// The arguments as an object for formats that need one: an object is moved, a JSON string of
    /// an object is parsed, anything else becomes `{}`.
    pub fn arguments_object(&self) -> Out<J> {
        match &self.arguments {
            Some(a) if a.kind() == Kind::Object => Out::Given(a.clone()),
            Some(a) => match a.as_str().and_then(|s| parse_object(&s)) {
                Some(parsed) => Out::Json(parsed),
                None => Out::empty_map(),
            },
            None => Out::empty_map(),
        }
    }

    /// The arguments as a JSON string for formats that need one: a string is moved, anything else
    /// is written as compact JSON (`{}` when absent).
    pub fn arguments_text(&self) -> Result<Out<J>> {
        match &self.arguments {
            Some(a) if a.kind() == Kind::String => Ok(Out::Given(a.clone())),
            Some(a) if a.kind() != Kind::Null => {
                let root = MESSAGES;
                let message = match self.at.0 {
                    Some(i) => root.index(i),
                    None => root,
                };
                let calls = message.key("tool_calls");
                let call = calls.index(self.at.1);
                Ok(Out::Text(compact_json(a, &call.key("arguments"))?))
            }
            _ => Ok(Out::Str("{}")),
        }
    }
}

/// A tool result, with its id and name completed from the call it answers where missing.
#[derive(Clone, Debug)]
pub struct InResult<J> {
    pub id: Out<J>,
    /// True when the call it answers has a synthetic id.
    pub synthetic: bool,
    pub name: Option<Out<J>>,
    pub content: InContent<J>,
    pub is_error: bool,
    pub options: Option<J>,
}

impl<J: Json> InResult<J> {
    pub fn option_str(&self, key: &str) -> Option<String> {
        self.options.as_ref().and_then(|o| str_of(o, key))
    }

    pub fn option(&self, key: &str) -> Option<J> {
        self.options.as_ref().and_then(|o| field(o, key))
    }

    /// The display text of the content: a string as it is, parts as their texts joined with "\n"
    /// (as extract_display_items joins them).
    pub fn text(&self) -> Out<J> {
        match &self.content {
            InContent::Text(t) => Out::Given(t.clone()),
            InContent::Parts(parts) => {
                let texts: Vec<String> = parts
                    .iter()
                    .filter(|p| p.kind == PartType::Text)
                    .map(|p| {
                        p.text()
                            .and_then(|t| t.as_str().map(|s| s.into_owned()))
                            .unwrap_or_default()
                    })
                    .collect();
                Out::Text(texts.join("\n"))
            }
            InContent::None => Out::Str(""),
        }
    }
}

/// A tool result's `content`.
#[derive(Clone, Debug)]
pub enum InContent<J> {
    Text(J),
    Parts(Vec<InPart<J>>),
    None,
}

fn read_parts<J: Json>(value: Option<J>) -> Vec<InPart<J>> {
    let Some(parts) = value.and_then(|v| v.elements()) else {
        return Vec::new();
    };
    parts
        .iter()
        .map(|p| InPart {
            kind: field(p, "type")
                .and_then(|t| t.as_str().map(|s| PartType::parse(&s)))
                .unwrap_or(PartType::Other),
            content: field(p, "content"),
            options: field(p, "options").filter(|o| o.kind() == Kind::Object),
        })
        .collect()
}

/// Reads LangChain messages (an array, or one message) for `toProvider`, checking each as
/// `extractDisplayItems` does (paths `$.messages[i]...`), and pairs results with calls: calls
/// without an id get a synthetic one, results without an id take the id of the call they answer
/// (by order and name), results without a name take the call's name.
pub fn read_messages<J: Json>(messages: &J, protocol: WireProtocol) -> Result<Vec<InMessage<J>>> {
    let list = match messages.kind() {
        Kind::Array => messages.elements().unwrap_or_default(),
        Kind::Object => vec![messages.clone()],
        other => return Err(Error::expected(&MESSAGES, "an array of messages", other)),
    };
    let single = messages.kind() == Kind::Object;
    let root = MESSAGES;
    // Per call: its id, its name, and whether the id is synthetic.
    let mut pairing: Pairing<(Out<J>, Option<J>, bool)> = Pairing::default();
    let mut out = Vec::with_capacity(list.len());
    for (i, raw) in list.iter().enumerate() {
        let path = if single { root } else { root.index(i) };
        let parsed = parse_message(raw, &path)?;
        let own = field(raw, "metadata")
            .and_then(|m| str_of(&m, "wire_protocol"))
            .is_some_and(|p| p == protocol.as_str());
        let parts = match field(raw, "content") {
            Some(c) if c.kind() == Kind::String => vec![InPart {
                kind: PartType::Text,
                content: Some(c),
                options: None,
            }],
            other => read_parts(other),
        };
        let mut calls = Vec::new();
        let calls_given = field(raw, "tool_calls")
            .and_then(|c| c.elements())
            .unwrap_or_default();
        for (c, call) in calls_given.into_iter().enumerate() {
            let given = field(&call, "call_id").filter(|c| c.kind() == Kind::String);
            let name = field(&call, "name").filter(|n| n.kind() == Kind::String);
            let metadata = field(&call, "metadata").filter(|m| m.kind() == Kind::Object);
            let marked = metadata
                .as_ref()
                .and_then(|m| field(m, "synthetic_id"))
                .and_then(|s| s.as_bool())
                == Some(true);
            let (made, synthetic) = pairing.add(
                given
                    .as_ref()
                    .and_then(|g| g.as_str().map(|s| s.into_owned())),
                name.as_ref()
                    .and_then(|n| n.as_str().map(|s| s.into_owned())),
                (Out::Null, name.clone(), false),
            );
            let id = match given {
                Some(g) => Out::Given(g),
                None => Out::Text(made),
            };
            if let Some(last) = pairing.last_mut() {
                last.0 = id.clone();
                last.2 = synthetic || marked;
            }
            calls.push(InCall {
                id,
                synthetic: synthetic || marked,
                name,
                arguments: field(&call, "arguments"),
                metadata,
                at: ((!single).then_some(i), c),
            });
        }
        let mut results = Vec::new();
        for result in field(raw, "tool_results")
            .and_then(|r| r.elements())
            .unwrap_or_default()
        {
            let given = field(&result, "tool_call_id").filter(|c| c.kind() == Kind::String);
            let name = field(&result, "name").filter(|n| n.kind() == Kind::String);
            let paired = pairing
                .answer(
                    given
                        .as_ref()
                        .and_then(|g| g.as_str().map(|s| s.into_owned()))
                        .as_deref(),
                    name.as_ref()
                        .and_then(|n| n.as_str().map(|s| s.into_owned()))
                        .as_deref(),
                )
                .cloned();
            let synthetic = paired.as_ref().is_some_and(|(_, _, s)| *s);
            let id = match (given, &paired) {
                (Some(g), _) => Out::Given(g),
                (None, Some((id, _, _))) => id.clone(),
                (None, None) => Out::Null,
            };
            let name = match name {
                Some(n) => Some(Out::Given(n)),
                None => paired.and_then(|(_, n, _)| n.map(Out::Given)),
            };
            let content = match field(&result, "content") {
                Some(c) if c.kind() == Kind::String => InContent::Text(c),
                Some(c) if c.kind() == Kind::Array => InContent::Parts(read_parts(Some(c))),
                _ => InContent::None,
            };
            results.push(InResult {
                id,
                synthetic,
                name,
                content,
                is_error: field(&result, "is_error").and_then(|e| e.as_bool()) == Some(true),
                options: field(&result, "options").filter(|o| o.kind() == Kind::Object),
            });
        }
        out.push(InMessage {
            role: parsed.role,
            parts,
            calls,
            results,
            own,
            metadata: field(raw, "metadata").filter(|m| m.kind() == Kind::Object),
        });
    }
    Ok(out)
}
