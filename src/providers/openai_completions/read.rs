//! Reading a payload (`fromProvider`).

use super::OpenaiCompletions;
use crate::error::text;
use crate::error::{Error, ErrorCode, Path, Result};
use crate::json::{Json, Kind};
use crate::message::Role;
use crate::prelude::*;
use crate::providers::citation;
use crate::providers::{
    arguments, block_type, content_parts, each_object, field, message_role, object, opt_list,
    opt_str, read_text, str_of, Citation, Conversation, Entries, LcPart, Out, PartKind,
    ReadPayload, ResultBody, Shape, Statuses,
};

/// `finish_reason` → status: `length` is `length`, `content_filter` is `content_filtered`,
/// OpenRouter's `error` is `cancelled`, the rest (`stop`, `tool_calls`, `function_call`)
/// `complete`.
const STATUSES: Statuses = Statuses {
    length: &["length"],
    filtered: &["content_filter"],
    // OpenRouter: an error cut the generation short (the choice's `error` says which).
    cancelled: &["error"],
};

/// Who a message is from: `developer` is a system message; `tool` answers a call by its id, the
/// older `function` by its name.
#[derive(Clone, Copy)]
enum Sender {
    System,
    User,
    Assistant,
    Tool,
    Function,
}

const ROLES: [(&str, Sender); 6] = [
    ("system", Sender::System),
    ("developer", Sender::System),
    ("user", Sender::User),
    ("assistant", Sender::Assistant),
    ("tool", Sender::Tool),
    ("function", Sender::Function),
];

impl ReadPayload for OpenaiCompletions {
    const SHAPE: Shape = Shape {
        expected: "a Chat Completions request body ({messages}), a response ({choices}), a message or a message array",
        response: &["choices"],
        request: "messages",
        system: &[],
        one: &["role"],
    };

    fn message<J: Json>(c: &mut Conversation<J>, message: &J, path: &Path<'_>) -> Result<()> {
        let expected =
            "\"system\", \"developer\", \"user\", \"assistant\", \"tool\" or \"function\"";
        match message_role(message, path, &ROLES, expected)? {
            Sender::System => {
                let parts = content(message, path)?;
                c.message(Role::System, parts, Vec::new());
            }
            Sender::User => {
                let parts = content(message, path)?;
                c.message(Role::User, parts, Vec::new());
            }
            Sender::Assistant => read_assistant(c, message, path)?,
            Sender::Tool => {
                let id = opt_str(message, "tool_call_id", path)?;
                let content = result_content(message, path)?;
                let result = c.result(id, None, content, false, Vec::new());
                c.results(vec![result]);
            }
            Sender::Function => {
                let name = opt_str(message, "name", path)?;
                let content = result_content(message, path)?;
                let result = c.result(None, name, content, false, Vec::new());
                c.results(vec![result]);
            }
        }
        Ok(())
    }

    /// A response: the first choice's message, with its `finish_reason`.
    fn response<J: Json>(c: &mut Conversation<J>, payload: &J, root: &Path<'_>) -> Result<()> {
        let path = root.key("choices");
        let choices = opt_list(payload, "choices", root)?.unwrap_or_default();
        let Some(choice) = choices.first() else {
            return Err(Error::new(
                ErrorCode::InvalidInput,
                &path,
                text!("Expected at least one choice at ", path, "."),
            ));
        };
        let choice_path = path.index(0);
        object(choice, &choice_path, "a choice object")?;
        let message_path = choice_path.key("message");
        let message = field(choice, "message")
            .ok_or_else(|| Error::missing(&message_path, "the choice's message"))?;
        Self::message(c, &message, &message_path)?;
        // Perplexity's sources, beside the choices: `search_results` ({title, url}), else the
        // `citations` URLs, which the answer's `[n]` markers count from 1.
        let sources = field(payload, "search_results")
            .or_else(|| field(payload, "citations"))
            .and_then(|s| s.elements())
            .unwrap_or_default();
        let citations: Vec<Out<J>> = sources
            .iter()
            .map(|source| {
                let mut citation = Citation::default();
                if source.kind() == Kind::String {
                    citation.url = Some(Out::Given(source.clone()));
                } else {
                    citation.url = field(source, "url").map(Out::Given);
                    citation.title = field(source, "title").map(Out::Given);
                }
                citation.into_out()
            })
            .collect();
        c.cite_last_text(citations);
        if let Some(reason) = field(choice, "finish_reason") {
            c.stop_reason(reason, &STATUSES, Vec::new());
        }
        Ok(())
    }
}

fn read_assistant<J: Json>(c: &mut Conversation<J>, message: &J, path: &Path<'_>) -> Result<()> {
    let mut parts = reasoning(message, path)?;
    parts.extend(content(message, path)?);
    // `annotations` (`[{type: "url_citation", url_citation: {url, title, start_index,
    // end_index}}]`) cite the message's text.
    let citations: Vec<Out<J>> = field(message, "annotations")
        .and_then(|a| a.elements())
        .unwrap_or_default()
        .iter()
        .filter_map(|a| citation::openai(a).map(Citation::into_out))
        .collect();
    if let Some(last) = parts.iter_mut().rev().find(|p| p.kind == PartKind::Text) {
        last.citations.extend(citations);
    }
    if let Some(refusal) = opt_str(message, "refusal", path)?.filter(|r| !r.is_empty_str()) {
        parts.push(LcPart::text(refusal));
    }
    let mut calls = Vec::new();
    each_object(
        message,
        "tool_calls",
        path,
        "a tool call object",
        |call, path| {
            let id = opt_str(call, "id", path)?;
            let custom = str_of(call, "type").as_deref() == Some("custom");
            let (key, arguments_key) = if custom {
                ("custom", "input")
            } else {
                ("function", "arguments")
            };
            let inner_path = path.key(key);
            let inner = field(call, key).ok_or_else(|| Error::missing(&inner_path, "the call"))?;
            object(&inner, &inner_path, "an object")?;
            let name = opt_str(&inner, "name", &inner_path)?;
            let arguments = arguments(field(&inner, arguments_key));
            let metadata: Entries<J> = if custom {
                vec![("provider_type", Out::Str("custom"))]
            } else {
                Vec::new()
            };
            calls.push(c.call(id, name.map(Out::Given), arguments, metadata));
            Ok(())
        },
    )?;
    if let Some(function_call) = field(message, "function_call") {
        let call_path = path.key("function_call");
        object(&function_call, &call_path, "an object")?;
        let name = opt_str(&function_call, "name", &call_path)?;
        let given = field(&function_call, "arguments");
        // A zero-valued `{name: "", arguments: ""}` beside `tool_calls: null` (Snowflake fills
        // the deprecated field in every message) is no call.
        let empty = |value: &Option<J>| value.as_ref().is_none_or(|v| v.is_empty_str());
        if !(empty(&name) && empty(&given)) {
            let arguments = arguments(given);
            calls.push(c.call(None, name.map(Out::Given), arguments, Vec::new()));
        }
    }
    c.message(Role::Assistant, parts, calls);
    Ok(())
}

/// Reasoning from OpenAI-compatible servers: `reasoning_content` (DeepSeek, vLLM), else
/// `reasoning_details` (OpenRouter: text and summary entries as thinking, encrypted ones as
/// redacted thinking), else `reasoning` (OpenRouter's plain string). A `reasoning.text` entry
/// with a signature but no text (reasoning the provider did not show) is an empty thinking part
/// that keeps the signature, as Anthropic's signature-only thinking is; an entry with neither, or
/// a summary without its text, gives no part.
fn reasoning<J: Json>(message: &J, path: &Path<'_>) -> Result<Vec<LcPart<J>>> {
    if let Some(text) = opt_str(message, "reasoning_content", path)?.filter(|t| !t.is_empty_str()) {
        return Ok(vec![LcPart::thinking(Out::Given(text), None)]);
    }
    let details_path = path.key("reasoning_details");
    let details = opt_list(message, "reasoning_details", path)?.unwrap_or_default();
    if !details.is_empty() {
        let mut parts = Vec::new();
        for (i, detail) in details.iter().enumerate() {
            let detail_path = details_path.index(i);
            let (ty, _) = block_type(detail, &detail_path)?;
            match ty.as_str() {
                "reasoning.text" => {
                    let text = opt_str(detail, "text", &detail_path)?;
                    let signature = opt_str(detail, "signature", &detail_path)?;
                    if text.is_some() || signature.is_some() {
                        let text = text.map_or(Out::Str(""), Out::Given);
                        parts.push(LcPart::thinking(text, signature));
                    }
                }
                "reasoning.summary" => {
                    if let Some(summary) = opt_str(detail, "summary", &detail_path)? {
                        parts.push(LcPart::thinking(Out::Given(summary), None));
                    }
                }
                "reasoning.encrypted" => {
                    parts.push(LcPart::redacted(opt_str(detail, "data", &detail_path)?))
                }
                _ => {}
            }
        }
        return Ok(parts);
    }
    Ok(opt_str(message, "reasoning", path)?
        .filter(|t| !t.is_empty_str())
        .map(|text| vec![LcPart::thinking(Out::Given(text), None)])
        .unwrap_or_default())
}

/// A message's `content`: a string (one text part, none when empty), an array of parts, or null.
fn content<J: Json>(message: &J, path: &Path<'_>) -> Result<Vec<LcPart<J>>> {
    let expected = "a string, an array of content parts, or null";
    content_parts(message, path, expected, part)
}

/// A `tool` message's content: a string, or text parts.
fn result_content<J: Json>(message: &J, path: &Path<'_>) -> Result<ResultBody<J>> {
    Ok(match field(message, "content") {
        Some(c) if c.kind() == Kind::String => ResultBody::Text(Out::Given(c)),
        _ => ResultBody::Parts(content(message, path)?),
    })
}

/// A content part: `text`, `refusal`, `image_url`, `file`; anything else is kept as its part.
fn part<J: Json>(part: &J, path: &Path<'_>) -> Result<LcPart<J>> {
    let (ty, ty_value) = block_type(part, path)?;
    Ok(match ty.as_str() {
        "text" => LcPart::text(read_text(part, "text", path)?),
        "refusal" => LcPart::text(read_text(part, "refusal", path)?),
        // Mistral's reasoning: `thinking` is a string or a list of text chunks (joined).
        "thinking" => match field(part, "thinking") {
            Some(t) if t.kind() == Kind::String => LcPart::thinking(Out::Given(t), None),
            Some(t) => {
                let mut text = String::new();
                for chunk in t.elements().unwrap_or_default() {
                    text.push_str(&str_of(&chunk, "text").unwrap_or_default());
                }
                LcPart::thinking(Out::Text(text), None)
            }
            None => LcPart::thinking(Out::Str(""), None),
        },
        "image_url" => {
            let url = match field(part, "image_url") {
                Some(u) if u.kind() == Kind::String => Some(u),
                Some(u) => opt_str(&u, "url", &path.key("image_url"))?,
                None => None,
            };
            LcPart::new(PartKind::ImageUrl, url.map(Out::Given), Vec::new())
        }
        "file" => {
            let file_path = path.key("file");
            let file = field(part, "file").ok_or_else(|| Error::missing(&file_path, "the file"))?;
            object(&file, &file_path, "a file object")?;
            let mut options: Entries<J> = Vec::new();
            let content = match opt_str(&file, "file_data", &file_path)? {
                Some(data) => Some(data),
                None => {
                    let id = opt_str(&file, "file_id", &file_path)?;
                    if id.is_some() {
                        options.push(("type", Out::Str("file_id")));
                    }
                    id
                }
            };
            if let Some(name) = opt_str(&file, "filename", &file_path)? {
                options.push(("filename", Out::Given(name)));
            }
            LcPart::new(PartKind::File, content.map(Out::Given), options)
        }
        _ => LcPart::raw(Out::Given(ty_value), "part", part.clone()),
    })
}
