//! Reading a payload (`fromProvider`): docs/formats/langchain-js.md, "The three stored forms",
//! "Content" and "Tool calls".

use super::LangchainJs;
use crate::error::text;
use crate::error::{Error, ErrorCode, Path, Result};
use crate::json::fields::opt_string;
use crate::json::{Json, Kind};
use crate::map::Index;
use crate::message::Role;
use crate::prelude::*;
use crate::providers::citation::{self, Citation};
use crate::providers::{
    arguments, compact_json, field, object, opt_list, opt_str, server_result_body, str_of,
    unsupported_role, Conversation, Entries, LcCall, LcPart, LcResult, Out, PartKind, ReadPayload,
    ResultBody, Shape,
};

/// A message's type, as `getType()` names it.
#[derive(Clone, Copy, PartialEq)]
pub(super) enum Type {
    Human,
    Ai,
    System,
    Tool,
    Function,
    Generic,
    Remove,
}

/// The names a plain or stored message's `type` (or `role`) may take (LangChain's own
/// `_constructMessageFromParams` and `mapStoredMessagesToChatMessages`, langchain-js.md).
const TYPES: [(&str, Type); 11] = [
    ("human", Type::Human),
    ("user", Type::Human),
    ("ai", Type::Ai),
    ("assistant", Type::Ai),
    ("system", Type::System),
    ("developer", Type::System),
    ("tool", Type::Tool),
    ("function", Type::Function),
    ("generic", Type::Generic),
    ("remove", Type::Remove),
    ("chat", Type::Generic),
];

/// The message classes of a serialized message's `id` (its last element, a `…Chunk` read as its
/// message class).
const CLASSES: [(&str, Type); 7] = [
    ("HumanMessage", Type::Human),
    ("AIMessage", Type::Ai),
    ("SystemMessage", Type::System),
    ("ToolMessage", Type::Tool),
    ("FunctionMessage", Type::Function),
    ("ChatMessage", Type::Generic),
    ("RemoveMessage", Type::Remove),
];

const EXPECTED_TYPES: &str =
    "\"human\", \"ai\", \"system\", \"tool\", \"function\", \"generic\" or \"remove\"";

/// One message: its type, the object holding its fields (`kwargs`, `data`, or the message), and
/// its content (`content`, else `content_blocks`; a tuple's second element).
pub(super) struct Msg<J> {
    pub(super) ty: Type,
    pub(super) fields: Option<J>,
    pub(super) content: Option<J>,
    /// The content's path.
    pub(super) content_key: &'static str,
}

/// The form of one message, and where its fields are.
pub(super) fn unwrap<J: Json>(message: &J, path: &Path<'_>) -> Result<(Msg<J>, &'static str)> {
    if message.kind() == Kind::Array {
        let items = message.elements().unwrap_or_default();
        let ty = items.first().cloned();
        let ty = type_of(ty, &path.index(0))?;
        return Ok((
            Msg {
                ty,
                fields: None,
                content: items.get(1).cloned(),
                content_key: "",
            },
            "",
        ));
    }
    object(message, path, "a LangChain.js message object")?;
    let (ty, fields, key) = if field(message, "lc").is_some() {
        let id_path = path.key("id");
        let class = field(message, "id")
            .and_then(|id| id.elements())
            .and_then(|id| id.last().cloned())
            .and_then(|c| c.as_str().map(|s| s.into_owned()))
            .ok_or_else(|| Error::missing(&id_path, "the message class"))?;
        let base = class.strip_suffix("Chunk").unwrap_or(&class);
        let ty = CLASSES
            .iter()
            .find(|(name, _)| *name == base)
            .map(|(_, ty)| *ty)
            .ok_or_else(|| {
                Error::new(
                    ErrorCode::UnsupportedRole,
                    &id_path,
                    text!(
                        "Unsupported message class ",
                        crate::error::quoted(&class),
                        " at ",
                        id_path,
                        ": expected a LangChain.js message class (HumanMessage, AIMessage, SystemMessage, ToolMessage, ...)."
                    ),
                )
            })?;
        let kwargs_path = path.key("kwargs");
        let kwargs =
            field(message, "kwargs").ok_or_else(|| Error::missing(&kwargs_path, "the kwargs"))?;
        object(&kwargs, &kwargs_path, "an object")?;
        (ty, kwargs, "kwargs")
    } else if let Some(data) = field(message, "data").filter(|d| d.kind() == Kind::Object) {
        (
            type_of(field(message, "type"), &path.key("type"))?,
            data,
            "data",
        )
    } else {
        let ty = match field(message, "type") {
            Some(t) => type_of(Some(t), &path.key("type"))?,
            None => match field(message, "role") {
                Some(r) => type_of(Some(r), &path.key("role"))?,
                None => return Err(Error::missing(&path.key("type"), "the message type")),
            },
        };
        (ty, message.clone(), "")
    };
    let (content, content_key) = match field(&fields, "content") {
        Some(c) => (Some(c), "content"),
        None => (field(&fields, "content_blocks"), "content_blocks"),
    };
    Ok((
        Msg {
            ty,
            fields: Some(fields),
            content,
            content_key,
        },
        key,
    ))
}

fn type_of<J: Json>(ty: Option<J>, path: &Path<'_>) -> Result<Type> {
    let found = ty.as_ref().and_then(|t| t.as_str());
    TYPES
        .iter()
        .find(|(name, _)| found.as_deref() == Some(*name))
        .map(|(_, ty)| *ty)
        .ok_or_else(|| unsupported_type(ty.as_ref(), path))
}

fn unsupported_type<J: Json>(ty: Option<&J>, path: &Path<'_>) -> Error {
    let shown = match ty {
        None => "(missing)".to_string(),
        Some(t) => match t.as_str() {
            Some(s) => crate::error::quoted(&s),
            None => t.kind().name().to_string(),
        },
    };
    Error::new(
        ErrorCode::UnsupportedRole,
        path,
        text!(
            "Unsupported message type ",
            shown,
            " at ",
            path,
            ": expected ",
            EXPECTED_TYPES,
            "."
        ),
    )
}

impl ReadPayload for LangchainJs {
    const SHAPE: Shape = Shape {
        expected: "a LangChain.js message ({lc, kwargs}, {type, data} or {type, content}) or an array of them",
        response: &[],
        request: "messages",
        system: &[],
        one: &["lc", "type", "role", "data"],
    };

    fn message<J: Json>(c: &mut Conversation<J>, message: &J, path: &Path<'_>) -> Result<()> {
        let (msg, key) = unwrap(message, path)?;
        let fields_path = if key.is_empty() { *path } else { path.key(key) };
        let content_path = if msg.content_key.is_empty() {
            path.index(1)
        } else {
            fields_path.key(msg.content_key)
        };
        let get = |k: &str| msg.fields.as_ref().and_then(|f| field(f, k));
        let ty = match msg.ty {
            Type::Generic => {
                let role = opt_str(msg.fields.as_ref().unwrap_or(message), "role", &fields_path)?;
                match role.as_ref().and_then(|r| r.as_str()).as_deref() {
                    Some("user" | "human") => Type::Human,
                    Some("assistant" | "ai") => Type::Ai,
                    Some("system") => Type::System,
                    Some("tool") => Type::Tool,
                    _ => {
                        return Err(unsupported_role(
                            role.as_ref(),
                            &fields_path,
                            "\"user\", \"assistant\", \"system\" or \"tool\"",
                        ))
                    }
                }
            }
            ty => ty,
        };
        match ty {
            Type::Remove => Ok(()),
            Type::Human | Type::System | Type::Generic => {
                let blocks = blocks(c, msg.content.as_ref(), &content_path, &Index::new())?;
                let role = if ty == Type::System {
                    Role::System
                } else {
                    Role::User
                };
                c.message(role, blocks.parts, blocks.calls);
                c.results(blocks.results);
                Ok(())
            }
            Type::Ai => read_ai(c, &msg, &fields_path, &content_path),
            Type::Tool | Type::Function => {
                let id = if ty == Type::Tool {
                    opt_string(get("tool_call_id"), "tool_call_id", &fields_path)?
                } else {
                    None
                };
                let name = opt_string(get("name"), "name", &fields_path)?;
                let is_error =
                    get("status").and_then(|s| s.as_str().map(|s| s == "error")) == Some(true);
                let content = match &msg.content {
                    Some(text) if text.kind() == Kind::String => {
                        ResultBody::Text(Out::Given(text.clone()))
                    }
                    Some(list) => ResultBody::Parts(
                        blocks(c, Some(list), &content_path, &Index::new())?.parts,
                    ),
                    None => ResultBody::Text(Out::Str("")),
                };
                let result = c.result(id, name, content, is_error, Vec::new());
                c.results(vec![result]);
                Ok(())
            }
        }
    }
}

/// An AI message: its content (with OpenAI's reasoning summary in `additional_kwargs.reasoning`
/// first), one call per `tool_calls` entry and per `invalid_tool_calls` entry, and the results of
/// server tools in a `tool` message after it.
fn read_ai<J: Json>(
    c: &mut Conversation<J>,
    msg: &Msg<J>,
    path: &Path<'_>,
    content_path: &Path<'_>,
) -> Result<()> {
    let fields = msg.fields.as_ref();
    let list = |key: &str| match fields {
        Some(f) => opt_list(f, key, path).map(Option::unwrap_or_default),
        None => Ok(Vec::new()),
    };
    let mut parts = Vec::new();
    if let Some(reasoning) = fields
        .and_then(|f| field(f, "additional_kwargs"))
        .and_then(|k| field(&k, "reasoning"))
    {
        for summary in field(&reasoning, "summary")
            .and_then(|s| s.elements())
            .unwrap_or_default()
        {
            if let Some(text) = field(&summary, "text").filter(|t| t.kind() == Kind::String) {
                if !text.is_empty_str() {
                    parts.push(LcPart::thinking(Out::Given(text), None));
                }
            }
        }
    }
    let mut calls = Vec::new();
    let mut ids = Index::new();
    let calls_path = path.key("tool_calls");
    for (i, call) in list("tool_calls")?.iter().enumerate() {
        let call_path = calls_path.index(i);
        object(call, &call_path, "a tool call object")?;
        let id = opt_str(call, "id", &call_path)?;
        if let Some(text) = id.as_ref().and_then(|i| i.as_str()) {
            ids.add(alloc::borrow::Cow::Owned(text.into_owned()));
        }
        // An OpenAI-style call (`function: {name, arguments}`), which LangChain coerces too.
        let (call, call_path) =
            match field(call, "function").filter(|_| field(call, "args").is_none()) {
                Some(function) => (function, call_path.key("function")),
                None => (call.clone(), call_path),
            };
        let name = opt_str(&call, "name", &call_path)?;
        let args = field(&call, "args").or_else(|| field(&call, "arguments"));
        calls.push(c.call(id, name.map(Out::Given), arguments(args), Vec::new()));
    }
    let mut blocks = blocks(c, msg.content.as_ref(), content_path, &ids)?;
    parts.append(&mut blocks.parts);
    calls.append(&mut blocks.calls);
    let invalid_path = path.key("invalid_tool_calls");
    for (i, call) in list("invalid_tool_calls")?.iter().enumerate() {
        let call_path = invalid_path.index(i);
        object(call, &call_path, "an invalid tool call object")?;
        let id = opt_str(call, "id", &call_path)?;
        let name = opt_str(call, "name", &call_path)?;
        // Its arguments did not parse, so it never runs: `failed`, not a call waiting forever.
        let mut metadata: Entries<J> =
            vec![("invalid", Out::Bool(true)), ("status", Out::Str("failed"))];
        if let Some(error) = field(call, "error") {
            metadata.push(("error", Out::Given(error)));
        }
        let args = field(call, "args").map_or(Out::empty_map(), Out::Given);
        calls.push(c.call(id, name.map(Out::Given), args, metadata));
    }
    c.message(Role::Assistant, parts, calls);
    c.results(blocks.results);
    Ok(())
}

/// What a content array gives.
struct Blocks<J> {
    parts: Vec<LcPart<J>>,
    calls: Vec<LcCall<J>>,
    results: Vec<LcResult<J>>,
}

/// A message's content: a string (one text part, none when empty) or blocks, in order. A
/// `tool_call` / `tool_use` block whose id is in `known` (the message's `tool_calls`) gives no
/// second call.
fn blocks<J: Json>(
    c: &mut Conversation<J>,
    content: Option<&J>,
    path: &Path<'_>,
    known: &Index<'_>,
) -> Result<Blocks<J>> {
    let mut out = Blocks {
        parts: Vec::new(),
        calls: Vec::new(),
        results: Vec::new(),
    };
    let Some(content) = content else {
        return Ok(out);
    };
    if content.kind() == Kind::String {
        out.parts = LcPart::texts(content.clone());
        return Ok(out);
    }
    let Some(list) = content.elements() else {
        return Err(Error::expected(
            path,
            "a string or an array of content blocks",
            content.kind(),
        ));
    };
    for (i, block) in list.iter().enumerate() {
        let path = path.index(i);
        if block.kind() == Kind::String {
            out.parts.extend(LcPart::texts(block.clone()));
            continue;
        }
        object(block, &path, "a content block object")?;
        let Some(ty_value) = field(block, "type") else {
            return Err(Error::missing(&path.key("type"), "the block type"));
        };
        let Some(ty) = ty_value.as_str().map(|s| s.into_owned()) else {
            return Err(Error::expected(
                &path.key("type"),
                "a string",
                ty_value.kind(),
            ));
        };
        let text = |key: &str| field(block, key).filter(|t| t.kind() == Kind::String);
        match ty.as_str() {
            "text" | "refusal" => {
                let key = if ty == "text" { "text" } else { "refusal" };
                if let Some(t) = text(key).filter(|t| !t.is_empty_str()) {
                    let mut part = LcPart::text(t);
                    part.citations = citations(block);
                    out.parts.push(part);
                }
            }
            "reasoning" | "thinking" => {
                let key = if ty == "reasoning" {
                    "reasoning"
                } else {
                    "thinking"
                };
                if let Some(t) = text(key).filter(|t| !t.is_empty_str()) {
                    let signature = text("signature")
                        .or_else(|| field(block, "extras").and_then(|e| field(&e, "signature")));
                    out.parts.push(LcPart::thinking(Out::Given(t), signature));
                }
            }
            "redacted_thinking" => out.parts.push(LcPart::redacted(text("data"))),
            "tool_call" | "tool_use" | "server_tool_call" | "server_tool_use" | "mcp_tool_use" => {
                let id = opt_str(block, "id", &path)?;
                let given = id.as_ref().and_then(|i| i.as_str().map(|s| s.into_owned()));
                if given.as_ref().is_some_and(|g| known.find(g).is_some()) {
                    continue;
                }
                let name = opt_str(block, "name", &path)?;
                let args = field(block, "args").or_else(|| field(block, "input"));
                let metadata: Entries<J> = if ty.starts_with("tool_") {
                    Vec::new()
                } else {
                    vec![("provider_type", Out::Given(ty_value))]
                };
                out.calls
                    .push(c.call(id, name.map(Out::Given), arguments(args), metadata));
            }
            "server_tool_call_result" => {
                let id = opt_str(block, "toolCallId", &path)?;
                let is_error = str_of(block, "status").as_deref() == Some("error");
                let content = match field(block, "output") {
                    Some(o) if o.kind() == Kind::String => Out::Given(o),
                    Some(o) => Out::Text(compact_json(&o, &path.key("output"))?),
                    None => Out::Str(""),
                };
                out.results.push(c.result(
                    id,
                    None,
                    ResultBody::Text(content),
                    is_error,
                    vec![("provider_type", Out::Given(ty_value))],
                ));
            }
            // Anthropic's native server tool results, read as the Anthropic reader reads them.
            t if t.ends_with("_tool_result") => {
                let id = opt_str(block, "tool_use_id", &path)?;
                let (content, is_error) = server_result_body(block, &path)?;
                let mut options = vec![("provider_type", Out::Given(ty_value))];
                if let Some(structured) =
                    field(block, "content").filter(|c| c.kind() != Kind::String)
                {
                    options.push(("result", Out::Given(structured)));
                }
                out.results
                    .push(c.result(id, None, content, is_error, options));
            }
            "image" | "image_url" => out.parts.push(media_part(block, true)),
            "file" | "audio" | "video" | "text-plain" | "document" => {
                out.parts.push(media_part(block, false))
            }
            "tool_call_chunk"
            | "server_tool_call_chunk"
            | "invalid_tool_call"
            | "input_json_delta" => {}
            _ => out
                .parts
                .push(LcPart::raw(Out::Given(ty_value), "block", block.clone())),
        }
    }
    Ok(out)
}

/// An image or a file: by URL, by base64 data (with its media type), or by provider file id, in
/// any of the shapes LangChain.js accepts (v1 `url` / `data` / `fileId`, the 0.3 data blocks'
/// `source_type`, OpenAI's `image_url` and `file`, Anthropic's `source`).
fn media_part<J: Json>(block: &J, image: bool) -> LcPart<J> {
    let (by_url, by_data) = if image {
        (PartKind::ImageUrl, PartKind::Image)
    } else {
        (PartKind::FileUrl, PartKind::File)
    };
    let mut options: Entries<J> = Vec::new();
    let s = |v: &J, k: &str| field(v, k).filter(|x| x.kind() == Kind::String);
    let mime = s(block, "mimeType").or_else(|| s(block, "mime_type"));
    let name = field(block, "metadata")
        .and_then(|m| s(&m, "filename").or_else(|| s(&m, "name")))
        .or_else(|| s(block, "filename"))
        .or_else(|| s(block, "title"));
    let (kind, content) = if let Some(url) = field(block, "image_url") {
        let url = if url.kind() == Kind::String {
            Some(url)
        } else {
            s(&url, "url")
        };
        (PartKind::ImageUrl, url)
    } else if let Some(file) = field(block, "file").filter(|f| f.kind() == Kind::Object) {
        let name = s(&file, "filename");
        let found = match s(&file, "file_data") {
            Some(data) => (PartKind::File, Some(data)),
            None => {
                options.push(("type", Out::Str("file_id")));
                (PartKind::File, s(&file, "file_id"))
            }
        };
        if let Some(name) = name {
            options.push(("filename", Out::Given(name)));
        }
        return LcPart::new(found.0, found.1.map(Out::Given), options);
    } else if let Some(source) = field(block, "source").filter(|s| s.kind() == Kind::Object) {
        match str_of(&source, "type").as_deref() {
            Some("url") => (by_url, s(&source, "url")),
            Some("file") => {
                options.push(("type", Out::Str("file_id")));
                (by_data, s(&source, "file_id"))
            }
            _ => {
                if let Some(m) = s(&source, "media_type") {
                    options.push(("media", Out::Given(m)));
                }
                (by_data, s(&source, "data"))
            }
        }
    } else {
        let source_type = str_of(block, "source_type");
        match source_type.as_deref() {
            Some("url") => (by_url, s(block, "url")),
            Some("id") => {
                options.push(("type", Out::Str("file_id")));
                (by_data, s(block, "id"))
            }
            Some("text") => (by_data, s(block, "text")),
            Some(_) => (by_data, s(block, "data")),
            None => {
                if let Some(url) = s(block, "url") {
                    (by_url, Some(url))
                } else if let Some(data) = s(block, "data") {
                    (by_data, Some(data))
                } else if let Some(id) = s(block, "fileId").or_else(|| s(block, "file_id")) {
                    options.push(("type", Out::Str("file_id")));
                    (by_data, Some(id))
                } else {
                    (by_data, s(block, "text"))
                }
            }
        }
    };
    if let Some(m) = mime {
        if kind == by_data {
            options.insert(0, ("media", Out::Given(m)));
        }
    }
    if let Some(name) = name.filter(|_| !image) {
        options.push(("filename", Out::Given(name)));
    }
    LcPart::new(kind, content.map(Out::Given), options)
}

/// A text block's citations: its v1 `annotations` (LangChain's `citation`, OpenAI's
/// `url_citation` / `file_citation`) and Anthropic's native `citations`, as Citation objects
/// (langchain-js.md "v1 standard blocks"); annotations of other types are left out.
fn citations<J: Json>(block: &J) -> Vec<Out<J>> {
    let mut out = Vec::new();
    for key in ["annotations", "citations"] {
        for a in field(block, key)
            .and_then(|l| l.elements())
            .unwrap_or_default()
        {
            if let Some(c) = citation(&a) {
                out.push(c);
            }
        }
    }
    out
}

fn citation<J: Json>(a: &J) -> Option<Out<J>> {
    let ty = str_of(a, "type")?;
    match ty.as_str() {
        "citation" => {
            let given = |key: &str| field(a, key).map(Out::Given);
            let unit = match str_of(a, "source").as_deref() {
                Some("char") => Some(("char_location", "char")),
                Some("page") => Some(("page_location", "page")),
                Some("block") => Some(("content_block_location", "block")),
                _ => None,
            };
            let mut c = Citation {
                cited_text: given("citedText"),
                url: given("url"),
                title: given("title"),
                file_id: given("fileId"),
                document_index: given("document_index"),
                start_index: given("startIndex"),
                end_index: given("endIndex"),
                ..Citation::default()
            };
            if let Some((t, u)) = unit {
                c.r#type = Some(Out::Str(t));
                c.document_title = given("title");
                c.unit = Some(Out::Str(u));
            } else {
                if field(a, "encrypted_index").is_some() && field(a, "url").is_some() {
                    c.r#type = Some(Out::Str("web_search_result_location"));
                }
                if c.start_index.is_some() {
                    c.unit = Some(Out::Str("char"));
                }
            }
            Some(c.into_out())
        }
        // OpenAI's and Anthropic's own annotations, read as those formats read them.
        "url_citation" | "file_citation" | "container_file_citation" => {
            citation::openai(a).map(Citation::into_out)
        }
        "char_location"
        | "page_location"
        | "content_block_location"
        | "web_search_result_location"
        | "search_result_location" => Some(citation::anthropic(a).into_out()),
        _ => None,
    }
}
