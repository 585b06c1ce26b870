//! Tool-result expansion: langchain v0.14.1 `LangChain.MessageExpansion` (`expand/3`,
//! `expandable?/1`) and `LLMChain.Mode.Steps.expand_tool_results/2`, without pipeline tags.
//!
//! A tool result may carry a `message_expansion`: messages to insert into the conversation after
//! the tool message, and what the result's own content shrinks to once they are in. [`expand`]
//! builds such a result, [`is_expandable`] says whether one is ready to apply, and
//! [`expand_tool_results`] applies every ready expansion of the conversation's last message.
//!
//! Everything this module only passes along (messages, results, unknown keys of the chain and of
//! messages) is returned as the given [`Json`] handle, never rebuilt, so it comes back exactly as
//! given. A changed tool message or result is written as its original entries, in their order,
//! with only the changed keys overridden.
//!
//! ```
//! use chat_display::expand::expand_tool_results;
//! let chain = serde_json::json!({"messages": [
//!     {"role": "assistant", "tool_calls": [{"call_id": "c1", "name": "load"}]},
//!     {"role": "tool", "tool_results": [{"tool_call_id": "c1", "name": "load", "content": "all 14 records",
//!       "message_expansion": {"messages": [
//!           {"role": "assistant", "content": "<records>"},
//!           {"role": "user", "content": "Use the records above."}],
//!         "result_content": "Loaded 14 records."}}]}
//! ]});
//! let expanded = serde_json::to_value(expand_tool_results(&&chain).unwrap()).unwrap();
//! assert_eq!(expanded["messages"][1]["tool_results"][0]["content"],
//!            serde_json::json!([{"type": "text", "content": "Loaded 14 records."}]));
//! assert_eq!(expanded["messages"][1]["tool_results"][0]["message_expansion"], serde_json::Value::Null);
//! assert_eq!(expanded["messages"][3]["content"], "Use the records above.");
//! assert_eq!(expanded["needs_response"], true);
//! ```

use crate::elixir::{inspect_atom, ErrorMessage};
use crate::error::text;
use crate::error::{Error, ErrorCode, Path, Result};
use crate::json::{deep_equal, Json, Kind};
use crate::message::{parse_role, Role};
use crate::prelude::*;
use alloc::rc::Rc;
use serde::ser::{SerializeMap, SerializeSeq, Serializer};
use serde::Serialize;

/// What a result's content becomes when `expand/3` is given no `result_content` option.
pub const DEFAULT_RESULT_CONTENT: &str =
    "The requested content has been added to the conversation.";

/// The root of `expand`'s `fallbackContent` argument.
pub const FALLBACK_CONTENT: Path<'static> = Path::Root("$.fallbackContent");
/// The root of `expand`'s `messages` argument.
pub const MESSAGES: Path<'static> = Path::Root("$.messages");
/// The root of `expand`'s `options` argument.
pub const OPTIONS: Path<'static> = Path::Root("$.options");

// ---------------------------------------------------------------------------------------------
// expand/3
// ---------------------------------------------------------------------------------------------

/// Content given in one of the three shapes a tool result's content may be built from; it is
/// written out as a list of content parts.
#[derive(Clone, Debug)]
pub enum PartsContent<J> {
    /// A string `s`, written `[{"type": "text", "content": s}]`.
    Text(J),
    /// A single content part object `p`, written `[p]`.
    Part(J),
    /// Anything else, written exactly as given (for `expand`, a list of parts, unchecked).
    AsGiven(J),
}

impl<J: Serialize> Serialize for PartsContent<J> {
    fn serialize<S: Serializer>(&self, s: S) -> core::result::Result<S::Ok, S::Error> {
        match self {
            PartsContent::Text(text) => {
                let mut seq = s.serialize_seq(Some(1))?;
                seq.serialize_element(&TextPart(text))?;
                seq.end()
            }
            PartsContent::Part(part) => {
                let mut seq = s.serialize_seq(Some(1))?;
                seq.serialize_element(part)?;
                seq.end()
            }
            PartsContent::AsGiven(value) => value.serialize(s),
        }
    }
}

/// `{"type": "text", "content": s}`, a text part as chat-display creates it (no other keys).
struct TextPart<'a, J>(&'a J);

impl<J: Serialize> Serialize for TextPart<'_, J> {
    fn serialize<S: Serializer>(&self, s: S) -> core::result::Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(2))?;
        map.serialize_entry("type", "text")?;
        map.serialize_entry("content", self.0)?;
        map.end()
    }
}

/// The `result_content` of an expansion that `expand` builds.
#[derive(Clone, Debug)]
pub enum ResultContentOption<J> {
    /// No `result_content` option: [`DEFAULT_RESULT_CONTENT`].
    Default,
    /// The option's value as given, `null` included ("keep the fallback").
    Given(J),
}

impl<J: Serialize> Serialize for ResultContentOption<J> {
    fn serialize<S: Serializer>(&self, s: S) -> core::result::Result<S::Ok, S::Error> {
        match self {
            ResultContentOption::Default => s.serialize_str(DEFAULT_RESULT_CONTENT),
            ResultContentOption::Given(value) => value.serialize(s),
        }
    }
}

/// The tool result `expand` returns. It serializes with all eleven ToolResult keys, in the struct's
/// field order, every one but `content` and `message_expansion` at its default:
///
/// ```json
/// {"type": "function", "tool_call_id": null, "name": null, "content": [...],
///  "processed_content": null, "display_text": null, "is_error": false, "is_interrupt": false,
///  "interrupt_data": null, "options": null,
///  "message_expansion": {"messages": [...], "result_content": ...}}
/// ```
#[derive(Clone, Debug)]
pub struct ExpandingResult<J> {
    /// The fallback content, normalized.
    pub content: PartsContent<J>,
    /// The `messages` argument, exactly as given.
    pub messages: J,
    pub result_content: ResultContentOption<J>,
}

struct Expansion<'a, J>(&'a ExpandingResult<J>);

impl<J: Serialize> Serialize for Expansion<'_, J> {
    fn serialize<S: Serializer>(&self, s: S) -> core::result::Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(2))?;
        map.serialize_entry("messages", &self.0.messages)?;
        map.serialize_entry("result_content", &self.0.result_content)?;
        map.end()
    }
}

impl<J: Serialize> Serialize for ExpandingResult<J> {
    fn serialize<S: Serializer>(&self, s: S) -> core::result::Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(11))?;
        map.serialize_entry("type", "function")?;
        map.serialize_entry("tool_call_id", &())?;
        map.serialize_entry("name", &())?;
        map.serialize_entry("content", &self.content)?;
        map.serialize_entry("processed_content", &())?;
        map.serialize_entry("display_text", &())?;
        map.serialize_entry("is_error", &false)?;
        map.serialize_entry("is_interrupt", &false)?;
        map.serialize_entry("interrupt_data", &())?;
        map.serialize_entry("options", &())?;
        map.serialize_entry("message_expansion", &Expansion(self))?;
        map.end()
    }
}

/// `MessageExpansion.expand/3`: a tool result whose content is `fallback_content` (normalized) and
/// that expands into `messages`.
///
/// Checks `messages` first (paths `$.messages...`): an empty list is `empty_expansion`, a non-list
/// `invalid_expansion`; then element by element, the first failure wins: an element that is not an
/// object with a `role` is `invalid_expansion`, a role other than `user` or `assistant`
/// `invalid_expansion_role` (at `$.messages[i].role`). Then `fallback_content` must be a string,
/// a content part object or a list (`invalid_input` at `$.fallbackContent`), and `options`, when
/// given and not null, an object whose `result_content`, when present, is a string, an object, a
/// list or null (`invalid_input` at `$.options...`).
///
/// `options` is `None` for JavaScript `undefined`. A `result_content` key that is present is used
/// as given, even `null`; absent, it is [`DEFAULT_RESULT_CONTENT`].
pub fn expand<J: Json>(
    fallback_content: &J,
    messages: &J,
    options: Option<&J>,
) -> Result<ExpandingResult<J>> {
    check_expansion_messages(messages)?;
    let content = match fallback_content.kind() {
        Kind::String => PartsContent::Text(fallback_content.clone()),
        Kind::Object => PartsContent::Part(fallback_content.clone()),
        Kind::Array => PartsContent::AsGiven(fallback_content.clone()),
        other => {
            return Err(Error::expected(
                &FALLBACK_CONTENT,
                "a string, a content part or a list of content parts",
                other,
            ))
        }
    };
    let result_content = match options {
        None => ResultContentOption::Default,
        Some(options) => match options.kind() {
            Kind::Null => ResultContentOption::Default,
            Kind::Object => match options.get("result_content") {
                None => ResultContentOption::Default,
                Some(value) => match value.kind() {
                    Kind::Null | Kind::String | Kind::Object | Kind::Array => {
                        ResultContentOption::Given(value)
                    }
                    other => {
                        return Err(Error::expected(
                            &OPTIONS.key("result_content"),
                            "a string, a content part, a list of content parts or null",
                            other,
                        ))
                    }
                },
            },
            other => return Err(Error::expected(&OPTIONS, "an options object", other)),
        },
    };
    Ok(ExpandingResult {
        content,
        messages: messages.clone(),
        result_content,
    })
}

/// The message checks of `expand/3`, in upstream's order.
fn check_expansion_messages<J: Json>(messages: &J) -> Result<()> {
    let Some(list) = messages.elements() else {
        return Err(Error::new(
            ErrorCode::InvalidExpansion,
            &MESSAGES,
            text!(
                "Expected a list of %LangChain.Message{} at ",
                MESSAGES,
                ", received: ",
                inspect(messages),
                "."
            ),
        ));
    };
    if list.is_empty() {
        return Err(Error::new(
            ErrorCode::EmptyExpansion,
            &MESSAGES,
            text!(
                "An expansion needs at least one message, and ",
                MESSAGES,
                " is empty; to trim a tool result without inserting anything, set \
                 `result_content` on a %LangChain.MessageExpansion{} directly."
            ),
        ));
    }
    for (i, message) in list.iter().enumerate() {
        let at = MESSAGES.index(i);
        let role = Some(message)
            .filter(|m| m.kind() == Kind::Object)
            .and_then(|m| m.get("role"));
        let Some(role) = role else {
            return Err(Error::new(
                ErrorCode::InvalidExpansion,
                &at,
                text!(
                    "Expected a %LangChain.Message{} at ",
                    at,
                    ", received: ",
                    inspect(message),
                    "."
                ),
            ));
        };
        if matches!(role.as_str().as_deref(), Some("user" | "assistant")) {
            continue;
        }
        let role_path = at.key("role");
        return Err(Error::new(
            ErrorCode::InvalidExpansionRole,
            &role_path,
            text!(
                "Cannot expand into a message with role ",
                inspect_role(&role),
                " at ",
                role_path,
                "; supported roles: [:user, :assistant]."
            ),
        ));
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// expandable?/1
// ---------------------------------------------------------------------------------------------

/// `MessageExpansion.expandable?/1`: an object `message_expansion` and `is_interrupt` exactly
/// `false` (absent counts as false; `null` does not). `tool_result` must be an object
/// (`invalid_input` at `$`).
pub fn is_expandable<J: Json>(tool_result: &J) -> Result<bool> {
    match tool_result.kind() {
        Kind::Object => Ok(expandable(tool_result)),
        other => Err(Error::expected(&Path::ROOT, "a tool result object", other)),
    }
}

fn expandable<J: Json>(result: &J) -> bool {
    let has_expansion = result
        .get("message_expansion")
        .is_some_and(|e| e.kind() == Kind::Object);
    let not_interrupted = match result.get("is_interrupt") {
        None => true,
        Some(flag) => flag.as_bool() == Some(false),
    };
    has_expansion && not_interrupted
}

// ---------------------------------------------------------------------------------------------
// expand_tool_results/2
// ---------------------------------------------------------------------------------------------

/// A message in a returned conversation.
#[derive(Clone, Debug)]
pub enum MessageOut<J> {
    /// A message passed along, exactly as given.
    Given(J),
    /// The tool message whose expansions were applied (one value, wherever it appears).
    Expanded(Rc<ExpandedMessage<J>>),
}

impl<J: Serialize> Serialize for MessageOut<J> {
    fn serialize<S: Serializer>(&self, s: S) -> core::result::Result<S::Ok, S::Error> {
        match self {
            MessageOut::Given(message) => message.serialize(s),
            MessageOut::Expanded(message) => message.serialize(s),
        }
    }
}

/// The tool message with its expandable results trimmed: its own entries in their order, with
/// `tool_results` replaced.
#[derive(Clone, Debug)]
pub struct ExpandedMessage<J> {
    entries: Vec<(String, J)>,
    pub tool_results: Vec<ResultOut<J>>,
}

impl<J: Serialize> Serialize for ExpandedMessage<J> {
    fn serialize<S: Serializer>(&self, s: S) -> core::result::Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.entries.len()))?;
        for (key, value) in &self.entries {
            if key == "tool_results" {
                map.serialize_entry(key, &self.tool_results)?;
            } else {
                map.serialize_entry(key, value)?;
            }
        }
        map.end()
    }
}

/// A tool result of the expanded tool message.
#[derive(Clone, Debug)]
pub enum ResultOut<J> {
    /// Not expandable (plain or interrupted): exactly as given.
    Given(J),
    /// Expanded: its own entries in their order, `content` trimmed and `message_expansion` null.
    Trimmed(TrimmedResult<J>),
}

/// An applied result: the given entries with `message_expansion: null` and, unless the expansion's
/// `result_content` was null (keep the fallback), the new `content` (in place, or appended when the
/// result had no `content` key).
#[derive(Clone, Debug)]
pub struct TrimmedResult<J> {
    entries: Vec<(String, J)>,
    /// `None`: the content stays as given.
    pub content: Option<PartsContent<J>>,
}

impl<J: Serialize> Serialize for ResultOut<J> {
    fn serialize<S: Serializer>(&self, s: S) -> core::result::Result<S::Ok, S::Error> {
        let trimmed = match self {
            ResultOut::Given(result) => return result.serialize(s),
            ResultOut::Trimmed(trimmed) => trimmed,
        };
        let mut map = s.serialize_map(None)?;
        let mut content_written = false;
        for (key, value) in &trimmed.entries {
            match (key.as_str(), &trimmed.content) {
                ("message_expansion", _) => map.serialize_entry(key, &())?,
                ("content", Some(content)) => {
                    content_written = true;
                    map.serialize_entry(key, content)?
                }
                _ => map.serialize_entry(key, value)?,
            }
        }
        if let (false, Some(content)) = (content_written, &trimmed.content) {
            map.serialize_entry("content", content)?;
        }
        map.end()
    }
}

/// The chain's `exchanged_messages` as returned.
#[derive(Clone, Debug)]
pub enum ExchangedOut<J> {
    List(Vec<MessageOut<J>>),
    /// A given `null`, kept while nothing is appended.
    Null(J),
}

impl<J: Serialize> Serialize for ExchangedOut<J> {
    fn serialize<S: Serializer>(&self, s: S) -> core::result::Result<S::Ok, S::Error> {
        match self {
            ExchangedOut::List(list) => list.serialize(s),
            ExchangedOut::Null(null) => null.serialize(s),
        }
    }
}

/// Where a key of the returned chain comes from.
#[derive(Clone, Debug)]
enum ChainKey<J> {
    Messages,
    ExchangedMessages,
    LastMessage,
    NeedsResponse,
    /// A key chat-display does not read, with its value as given.
    Other(String, J),
}

/// The chain `expand_tool_results` returns: the four chain keys, in the order `messages`,
/// `exchanged_messages`, `last_message`, `needs_response`, then every other key of the given chain,
/// as given and in its order.
#[derive(Clone, Debug)]
pub struct ChainOut<J> {
    keys: Vec<ChainKey<J>>,
    pub messages: Vec<MessageOut<J>>,
    pub exchanged_messages: ExchangedOut<J>,
    /// `None` is null.
    pub last_message: Option<MessageOut<J>>,
    pub needs_response: bool,
}

impl<J: Serialize> Serialize for ChainOut<J> {
    fn serialize<S: Serializer>(&self, s: S) -> core::result::Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.keys.len()))?;
        for key in &self.keys {
            match key {
                ChainKey::Messages => map.serialize_entry("messages", &self.messages)?,
                ChainKey::ExchangedMessages => {
                    map.serialize_entry("exchanged_messages", &self.exchanged_messages)?
                }
                ChainKey::LastMessage => map.serialize_entry("last_message", &self.last_message)?,
                ChainKey::NeedsResponse => {
                    map.serialize_entry("needs_response", &self.needs_response)?
                }
                ChainKey::Other(key, value) => map.serialize_entry(key, value)?,
            }
        }
        map.end()
    }
}

/// What `expand_tool_results` returns: a chain for a chain, an array for an array.
#[derive(Clone, Debug)]
pub enum Expanded<J> {
    Chain(ChainOut<J>),
    Messages(Vec<MessageOut<J>>),
}

impl<J: Serialize> Serialize for Expanded<J> {
    fn serialize<S: Serializer>(&self, s: S) -> core::result::Result<S::Ok, S::Error> {
        match self {
            Expanded::Chain(chain) => chain.serialize(s),
            Expanded::Messages(messages) => messages.serialize(s),
        }
    }
}

/// What applying the last message's expansions changes.
struct Application<J> {
    /// The tool message as given, to be replaced wherever it is deeply equal.
    old: J,
    new: Rc<ExpandedMessage<J>>,
    /// The expansions' messages, in tool-result order, as given.
    inserted: Vec<J>,
    /// `needs_response` after the last insertion; `None` when nothing is inserted.
    needs_response: Option<bool>,
}

impl<J: Json> Application<J> {
    /// `list` with every message deeply equal to the old tool message replaced.
    fn replace(&self, list: Vec<J>) -> Vec<MessageOut<J>> {
        list.into_iter()
            .map(|message| {
                if deep_equal(&self.old, &message) {
                    MessageOut::Expanded(self.new.clone())
                } else {
                    MessageOut::Given(message)
                }
            })
            .collect()
    }

    fn append_to(&self, list: &mut Vec<MessageOut<J>>) {
        list.extend(self.inserted.iter().cloned().map(MessageOut::Given));
    }
}

/// `Steps.expand_tool_results/2` on `{"tag": "continue", "chain": ...}`, without the tags.
///
/// `input` is a chain `{messages, exchanged_messages?, last_message?, needs_response?, ...}` or a
/// bare array of messages (paths `$[i]`). A missing `last_message` is the last element of
/// `messages`, a missing `exchanged_messages` is `[]`, a missing `needs_response` is `true`.
///
/// Only the last message is examined. When it is a tool message with expandable results, each
/// such result's `content` is trimmed to its expansion's `result_content` (null keeps the content,
/// a string or a single part becomes a one-part list, anything else is used as is) and its
/// `message_expansion` becomes null; interrupted and plain results stay as given. The old tool
/// message is replaced by deep equality in `messages` and `exchanged_messages` (and as
/// `last_message`), then the expansions' messages are appended in tool-result order, setting
/// `last_message` and `needs_response` (true after user or tool, true after an assistant message
/// that completes tool calls, false after any other assistant or a system message). Applying it
/// twice gives what applying it once gives.
///
/// Errors (`invalid_input` unless said): `input` neither an object nor an array; `messages`
/// missing or not an array; `exchanged_messages` neither an array nor null; `needs_response` not a
/// boolean; `last_message` neither an object nor null; in the examined message: the role (missing
/// is `invalid_input`, unknown `unsupported_role`), `tool_results` neither an array nor null, a
/// result that is not an object; in an applied expansion: `messages` neither an array nor null, a
/// message that is not an object or lacks a valid role, an assistant's `tool_calls` neither an array
/// nor null. Nothing here recurses into the input, so no depth is too deep.
pub fn expand_tool_results<J: Json>(input: &J) -> Result<Expanded<J>> {
    match input.kind() {
        Kind::Array => {
            let messages = input.elements().unwrap_or_default();
            let application = match last_index(&messages) {
                Some((i, last)) => application(last, &Path::ROOT.index(i))?,
                None => None,
            };
            Ok(Expanded::Messages(match application {
                None => messages.into_iter().map(MessageOut::Given).collect(),
                Some(application) => {
                    let mut out = application.replace(messages);
                    application.append_to(&mut out);
                    out
                }
            }))
        }
        Kind::Object => expand_chain(input).map(Expanded::Chain),
        other => Err(Error::expected(
            &Path::ROOT,
            "a chain object or an array of messages",
            other,
        )),
    }
}

fn last_index<J>(messages: &[J]) -> Option<(usize, &J)> {
    let i = messages.len().checked_sub(1)?;
    messages.get(i).map(|last| (i, last))
}

fn expand_chain<J: Json>(chain: &J) -> Result<ChainOut<J>> {
    let root = Path::ROOT;
    let messages_path = root.key("messages");
    let messages = match chain.get("messages") {
        None => return Err(Error::missing(&messages_path, "the chain's messages")),
        Some(messages) => messages.elements().ok_or_else(|| {
            Error::expected(&messages_path, "an array of messages", messages.kind())
        })?,
    };
    let exchanged_path = root.key("exchanged_messages");
    // `None`: absent, which is `[]`; `Err(null)`: a given null.
    let exchanged: Option<core::result::Result<Vec<J>, J>> = match chain.get("exchanged_messages") {
        None => None,
        Some(value) => match value.elements() {
            Some(list) => Some(Ok(list)),
            None if value.kind() == Kind::Null => Some(Err(value)),
            None => {
                return Err(Error::expected(
                    &exchanged_path,
                    "an array of messages or null",
                    value.kind(),
                ))
            }
        },
    };
    let needs_path = root.key("needs_response");
    let needs_response = match chain.get("needs_response") {
        None => true,
        Some(value) => value
            .as_bool()
            .ok_or_else(|| Error::expected(&needs_path, "a boolean", value.kind()))?,
    };
    let last_path = root.key("last_message");
    let derived = last_index(&messages).map(|(i, last)| (messages_path.index(i), last.clone()));
    let (last_message, application) = match chain.get("last_message") {
        Some(given) => {
            let application = match given.kind() {
                Kind::Null => None,
                Kind::Object => application(&given, &last_path)?,
                other => {
                    return Err(Error::expected(
                        &last_path,
                        "a message object or null",
                        other,
                    ))
                }
            };
            (Some(given), application)
        }
        None => match derived {
            Some((path, last)) => {
                let application = application(&last, &path)?;
                (Some(last), application)
            }
            None => (None, None),
        },
    };

    let mut keys = vec![
        ChainKey::Messages,
        ChainKey::ExchangedMessages,
        ChainKey::LastMessage,
        ChainKey::NeedsResponse,
    ];
    for (key, value) in chain.entries().unwrap_or_default() {
        if !matches!(
            key.as_str(),
            "messages" | "exchanged_messages" | "last_message" | "needs_response"
        ) {
            keys.push(ChainKey::Other(key, value));
        }
    }

    let Some(application) = application else {
        return Ok(ChainOut {
            keys,
            messages: messages.into_iter().map(MessageOut::Given).collect(),
            exchanged_messages: match exchanged {
                None => ExchangedOut::List(Vec::new()),
                Some(Ok(list)) => {
                    ExchangedOut::List(list.into_iter().map(MessageOut::Given).collect())
                }
                Some(Err(null)) => ExchangedOut::Null(null),
            },
            last_message: last_message.map(MessageOut::Given),
            needs_response,
        });
    };
    let mut messages = application.replace(messages);
    application.append_to(&mut messages);
    let exchanged_messages = match exchanged {
        // Upstream appends to nil only by crashing; null with nothing to append stays null.
        Some(Err(null)) if application.inserted.is_empty() => ExchangedOut::Null(null),
        Some(Err(_)) | None => {
            let mut list = Vec::new();
            application.append_to(&mut list);
            ExchangedOut::List(list)
        }
        Some(Ok(list)) => {
            let mut list = application.replace(list);
            application.append_to(&mut list);
            ExchangedOut::List(list)
        }
    };
    let last_message = match application.inserted.last() {
        Some(inserted) => MessageOut::Given(inserted.clone()),
        // The examined message is the old tool message itself, so it is replaced.
        None => MessageOut::Expanded(application.new.clone()),
    };
    Ok(ChainOut {
        keys,
        messages,
        exchanged_messages,
        last_message: Some(last_message),
        needs_response: application.needs_response.unwrap_or(needs_response),
    })
}

/// Examines the last message (`path` names it): `None` unless it is a tool message with at least
/// one expandable result.
fn application<J: Json>(last: &J, path: &Path<'_>) -> Result<Option<Application<J>>> {
    if last.kind() != Kind::Object {
        return Err(Error::expected(path, "a message object", last.kind()));
    }
    if parse_role(last, path)? != Role::Tool {
        return Ok(None);
    }
    let results_path = path.key("tool_results");
    let results = match last.get("tool_results") {
        None => Vec::new(),
        Some(value) => match value.elements() {
            Some(list) => list,
            None if value.kind() == Kind::Null => Vec::new(),
            None => {
                return Err(Error::expected(
                    &results_path,
                    "an array of tool results or null",
                    value.kind(),
                ))
            }
        },
    };
    for (i, result) in results.iter().enumerate() {
        if result.kind() != Kind::Object {
            return Err(Error::expected(
                &results_path.index(i),
                "a tool result object",
                result.kind(),
            ));
        }
    }
    if !results.iter().any(expandable) {
        return Ok(None);
    }

    let mut inserted = Vec::new();
    let mut needs_response = None;
    let mut tool_results = Vec::with_capacity(results.len());
    for (i, result) in results.into_iter().enumerate() {
        let Some(expansion) = Some(&result)
            .filter(|r| expandable(*r))
            .and_then(|r| r.get("message_expansion"))
        else {
            tool_results.push(ResultOut::Given(result));
            continue;
        };
        let result_path = results_path.index(i);
        let expansion_path = result_path.key("message_expansion");
        let messages_path = expansion_path.key("messages");
        let messages = match expansion.get("messages") {
            None => Vec::new(),
            Some(value) => match value.elements() {
                Some(list) => list,
                None if value.kind() == Kind::Null => Vec::new(),
                None => {
                    return Err(Error::expected(
                        &messages_path,
                        "an array of messages or null",
                        value.kind(),
                    ))
                }
            },
        };
        for (j, message) in messages.into_iter().enumerate() {
            needs_response = Some(needs_response_after(&message, &messages_path.index(j))?);
            inserted.push(message);
        }
        let content = match expansion.get("result_content") {
            None => None,
            Some(value) => match value.kind() {
                Kind::Null => None,
                Kind::String => Some(PartsContent::Text(value)),
                Kind::Object => Some(PartsContent::Part(value)),
                _ => Some(PartsContent::AsGiven(value)),
            },
        };
        tool_results.push(ResultOut::Trimmed(TrimmedResult {
            entries: result.entries().unwrap_or_default(),
            content,
        }));
    }
    Ok(Some(Application {
        old: last.clone(),
        new: Rc::new(ExpandedMessage {
            entries: last.entries().unwrap_or_default(),
            tool_results,
        }),
        inserted,
        needs_response,
    }))
}

/// `needs_response` after `LLMChain.add_message` (v0.9.7) appends `message`: true for user and
/// tool messages and for an assistant tool call (status complete, the default, with a non-empty
/// `tool_calls`), false for system and any other assistant message.
fn needs_response_after<J: Json>(message: &J, path: &Path<'_>) -> Result<bool> {
    if message.kind() != Kind::Object {
        return Err(Error::expected(path, "a message object", message.kind()));
    }
    Ok(match parse_role(message, path)? {
        Role::User | Role::Tool => true,
        Role::System => false,
        Role::Assistant => {
            let complete = match message.get("status") {
                None => true,
                Some(status) => status.as_str().as_deref() == Some("complete"),
            };
            let calls_path = path.key("tool_calls");
            let has_calls = match message.get("tool_calls") {
                None => false,
                Some(calls) => match calls.elements() {
                    Some(list) => !list.is_empty(),
                    None if calls.kind() == Kind::Null => false,
                    None => {
                        return Err(Error::expected(
                            &calls_path,
                            "an array of tool calls or null",
                            calls.kind(),
                        ))
                    }
                },
            };
            complete && has_calls
        }
    })
}

/// `Kernel.inspect/1` of a value named in an error message, with Elixir's default limits.
fn inspect<J: Json>(value: &J) -> String {
    crate::elixir::inspect(value, ErrorMessage)
}

/// A role as upstream's message shows it: the atom for a string (`:system`), else the inspected
/// value (`nil`).
fn inspect_role<J: Json>(role: &J) -> String {
    match role.as_str() {
        Some(name) => inspect_atom(&name),
        None => inspect(role),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::Number;
    use serde_json::{json, Value};

    /// Elixir's default `limit`, which error messages show values with.
    const INSPECT_LIMIT: usize = 50;

    fn shown(value: Value) -> String {
        inspect(&&value)
    }

    #[test]
    fn inspect_renders_like_elixir() {
        assert_eq!(shown(json!("just text")), "\"just text\"");
        assert_eq!(shown(json!(null)), "nil");
        assert_eq!(shown(json!(true)), "true");
        assert_eq!(shown(json!(42)), "42");
        assert_eq!(shown(json!(0.1)), "0.1");
        assert_eq!(shown(json!(1e15)), "1000000000000000.0");
        assert_eq!(shown(json!(1e16)), "1.0e16");
        assert_eq!(shown(json!(1.234e-4)), "1.234e-4");
        assert_eq!(shown(json!(-0.0)), "-0.0");
        assert_eq!(shown(json!(0.001)), "0.001");
        assert_eq!(shown(json!(0.0001)), "0.0001");
        assert_eq!(shown(json!(2.5e-5)), "2.5e-5");
        assert_eq!(shown(json!(123.456)), "123.456");
        assert_eq!(shown(json!(9.99e15)), "9990000000000000.0");
        assert_eq!(shown(json!(1e21)), "1.0e21");
        assert_eq!(shown(json!(-1.5)), "-1.5");
        assert_eq!(shown(json!([1, "a", null])), "[1, \"a\", nil]");
        assert_eq!(shown(json!([104, 105])), "~c\"hi\"");
        assert_eq!(shown(json!([])), "[]");
        assert_eq!(shown(json!({})), "%{}");
        assert_eq!(
            shown(json!({"b": 1, "a": {"9": [], "10": false}})),
            "%{\"a\" => %{\"10\" => false, \"9\" => []}, \"b\" => 1}"
        );
        assert_eq!(shown(json!("q\"\\#{x}\n")), "\"q\\\"\\\\\\#{x}\\n\"");
        assert_eq!(shown(json!("a\u{0}")), "<<97, 0>>");
    }

    #[test]
    fn inspect_limits_collections_like_elixir() {
        let sixty: Vec<i32> = (1000..1060).collect();
        let text = shown(json!({ "k": sixty }));
        assert!(text.ends_with(", 1048, ...]}"), "{text}");
        assert_eq!(text.matches(", ").count(), 49);
        let long = "x".repeat(5000);
        let text = shown(json!(long));
        assert!(text.ends_with("\" <> ..."));
        assert_eq!(text.len(), 4096 + 2 + 7);
    }

    #[test]
    fn inspect_stops_deep_nesting() {
        // Elixir's limit is passed down one less per level, so nesting stops at 50: `[...]`.
        let mut value = json!(1);
        for _ in 0..1000 {
            value = json!([value, "x"]);
        }
        let text = shown(value);
        assert!(text.contains("[...]"), "{text}");
        assert_eq!(text.matches('[').count(), INSPECT_LIMIT + 1);
    }

    /// A value nested `0` arrays deep, made on demand, so depth costs no memory.
    #[derive(Clone, Debug)]
    struct Deep(usize, &'static str);

    impl Json for Deep {
        fn kind(&self) -> Kind {
            if self.0 == 0 {
                Kind::String
            } else {
                Kind::Array
            }
        }
        fn get(&self, _: &str) -> Option<Self> {
            None
        }
        fn elements(&self) -> Option<Vec<Self>> {
            (self.0 > 0).then(|| vec![Deep(self.0 - 1, self.1)])
        }
        fn as_str(&self) -> Option<alloc::borrow::Cow<'_, str>> {
            (self.0 == 0).then_some(alloc::borrow::Cow::Borrowed(self.1))
        }
        fn as_bool(&self) -> Option<bool> {
            None
        }
        fn as_number(&self) -> Option<Number> {
            None
        }
        fn entries(&self) -> Option<Vec<(String, Self)>> {
            None
        }
        fn empty_object() -> Self {
            // Never asked for by the code under test; an array-only value has no objects.
            Deep(0, "")
        }
    }

    #[test]
    fn deep_equal_walks_any_depth_without_recursion() {
        assert!(deep_equal(&Deep(1_000_000, "a"), &Deep(1_000_000, "a")));
        assert!(!deep_equal(&Deep(1_000_000, "a"), &Deep(1_000_000, "b")));
        assert!(!deep_equal(&Deep(1_000_000, "a"), &Deep(999_999, "a")));
        let text = inspect(&Deep(1_000_000, "a"));
        assert_eq!(text.matches('[').count(), INSPECT_LIMIT + 1);
    }

    #[test]
    fn a_role_of_objects_shared_at_every_level_gives_a_bounded_message() {
        use crate::elixir::tests::{reading, Lazy};
        use crate::elixir::BUDGET;
        // 2^21 and 2^31 values written out in full: the message took 10 s and 20 MB at 20 levels.
        for levels in [20, 30] {
            let message = Lazy::List(vec![Lazy::Map(vec![("role", Lazy::Shared(levels))])]);
            let (text, reads) = reading(|| {
                expand(&Lazy::Str("x"), &message, None)
                    .err()
                    .map(|e| e.message)
                    .unwrap_or_default()
            });
            assert!(reads <= BUDGET.values + 8, "{levels} levels: {reads} reads");
            assert!(text.starts_with("Cannot expand into a message with role %{\"a\" => %{"));
            assert!(
                text.ends_with("} at $.messages[0].role; supported roles: [:user, :assistant].")
            );
            assert!(text.contains(", ...}") && text.len() < BUDGET.bytes);
        }
    }

    #[test]
    fn roles_print_as_atoms() {
        assert_eq!(inspect_role(&&json!("system")), ":system");
        assert_eq!(inspect_role(&&json!("tool")), ":tool");
        assert_eq!(inspect_role(&&json!("Bad role")), ":\"Bad role\"");
        assert_eq!(inspect_role(&&json!(null)), "nil");
        assert_eq!(inspect_role(&&json!(7)), "7");
    }
}
