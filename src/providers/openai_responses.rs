//! OpenAI Responses (`openai_responses`, wire-formats.md b.2).
//!
//! Reads a request body `{instructions?, input}`, a response `{output, status}`, or an item array.
//! A run of consecutive output items (reasoning, assistant messages, function calls, server-tool
//! calls) forms one assistant message; a `*_output` item or a user / system message starts a new
//! one (api.md "Provider mapping decisions"). Server-tool items (`web_search_call`, `mcp_call`, ...)
//! are a call and a result in one item: the call goes in the run, the result in a `tool` message
//! after it. There is no error flag on function results: they are `is_error: false`.

use super::anthropic::unsupported_role;
use super::{
    block_type, compact_json, field, object, opt_list, opt_str, read_text, str_of, Conversation,
    Entries, InCall, InMessage, InPart, InResult, LcCall, LcMessage, LcPart, LcResult, Out,
    PartKind, ResultBody, Status, WireProtocol, PAYLOAD,
};
use crate::error::text;
use crate::error::{Error, Path, Result};
use crate::json::{Json, Kind};
use crate::message::{PartType, Role};
use crate::prelude::*;

const PROTOCOL: WireProtocol = WireProtocol::OpenaiResponses;

/// Calls whose output comes back as its own `*_call_output` item; every other `*_call` item is a
/// server tool whose item holds its outcome too.
const CLIENT_CALLS: [&str; 6] = [
    "function_call",
    "custom_tool_call",
    "computer_call",
    "local_shell_call",
    "shell_call",
    "apply_patch_call",
];

/// `fromProvider("openai_responses", payload)`.
pub fn from_provider<J: Json>(payload: &J) -> Result<Vec<LcMessage<J>>> {
    let mut reader = Reader {
        conversation: Conversation::new(PROTOCOL),
        run: None,
    };
    let root = PAYLOAD;
    match payload.kind() {
        Kind::Array => reader.items(payload, &root)?,
        Kind::Object if payload.get("output").is_some() => {
            let path = root.key("output");
            match field(payload, "output") {
                Some(list) if list.kind() == Kind::Array => reader.items(&list, &path)?,
                other => {
                    return Err(Error::expected(
                        &path,
                        "an array of output items",
                        other.map_or(Kind::Null, |o| o.kind()),
                    ))
                }
            }
            reader.flush();
            if let Some(status) = field(payload, "status") {
                let reason = field(payload, "incomplete_details").and_then(|d| field(&d, "reason"));
                let mapped = status_of(
                    status.as_str().as_deref().unwrap_or_default(),
                    reason
                        .as_ref()
                        .and_then(|r| r.as_str())
                        .as_deref()
                        .unwrap_or_default(),
                );
                reader
                    .conversation
                    .stop(mapped, Some(reason.unwrap_or(status)), Vec::new());
            }
        }
        Kind::Object if payload.get("input").is_some() => {
            if let Some(instructions) =
                opt_str(payload, "instructions", &root)?.filter(|i| !i.is_empty_str())
            {
                reader.conversation.message(
                    Role::System,
                    vec![LcPart::text(instructions)],
                    Vec::new(),
                );
            }
            let path = root.key("input");
            match field(payload, "input") {
                Some(text) if text.kind() == Kind::String => {
                    reader
                        .conversation
                        .message(Role::User, vec![LcPart::text(text)], Vec::new())
                }
                Some(list) if list.kind() == Kind::Array => reader.items(&list, &path)?,
                other => {
                    return Err(Error::expected(
                        &path,
                        "a string or an array of input items",
                        other.map_or(Kind::Null, |o| o.kind()),
                    ))
                }
            }
        }
        Kind::Object if payload.get("type").is_some() || payload.get("role").is_some() => {
            reader.item(payload, &root)?
        }
        other => return Err(Error::expected(
            &root,
            "a Responses request body ({input}), a response ({output}), an item or an item array",
            other,
        )),
    }
    reader.flush();
    Ok(reader.conversation.finish())
}

/// Response `status` → message status: `incomplete` for `max_output_tokens` is `length`, for
/// `content_filter` `content_filtered`; `failed` and `cancelled` are `cancelled`; the rest
/// (`completed`, ...) `complete`. The raw reason kept is `incomplete_details.reason` when there
/// is one, else `status`.
pub fn status_of(status: &str, reason: &str) -> Status {
    match (status, reason) {
        ("incomplete", "max_output_tokens") => Status::Length,
        ("incomplete", "content_filter") => Status::ContentFiltered,
        ("failed" | "cancelled", _) => Status::Cancelled,
        _ => Status::Complete,
    }
}

/// The assistant run being gathered.
#[derive(Default)]
struct Run<J> {
    parts: Vec<LcPart<J>>,
    calls: Vec<LcCall<J>>,
    /// Server-tool results, written in a `tool` message after the run's assistant message.
    results: Vec<LcResult<J>>,
}

struct Reader<J> {
    conversation: Conversation<J>,
    run: Option<Run<J>>,
}

impl<J: Json> Reader<J> {
    fn run(&mut self) -> &mut Run<J> {
        self.run.get_or_insert_with(|| Run {
            parts: Vec::new(),
            calls: Vec::new(),
            results: Vec::new(),
        })
    }

    /// Ends the run: its assistant message, then its server-tool results.
    fn flush(&mut self) {
        if let Some(run) = self.run.take() {
            self.conversation
                .message(Role::Assistant, run.parts, run.calls);
            self.conversation.results(run.results);
        }
    }

    fn items(&mut self, list: &J, path: &Path<'_>) -> Result<()> {
        for (i, item) in list.elements().unwrap_or_default().iter().enumerate() {
            self.item(item, &path.index(i))?;
        }
        Ok(())
    }

    fn item(&mut self, item: &J, path: &Path<'_>) -> Result<()> {
        object(item, path, "an item object")?;
        let ty = opt_str(item, "type", path)?;
        let ty_text = ty.as_ref().and_then(|t| t.as_str()).map(|t| t.into_owned());
        match ty_text.as_deref() {
            None | Some("message") => self.message(item, path),
            Some("reasoning") => {
                let parts = reasoning(item, path)?;
                self.run().parts.extend(parts);
                Ok(())
            }
            Some(t) if t.ends_with("_call") => self.call(item, t, ty, path),
            Some(t) if t.ends_with("_call_output") => {
                self.flush();
                let id = opt_str(item, "call_id", path)?;
                let content = output(item, path)?;
                let options: Entries<J> = if t == "function_call_output" {
                    Vec::new()
                } else {
                    vec![
                        ("provider_type", ty.clone().map_or(Out::Null, Out::Given)),
                        ("item", Out::Given(item.clone())),
                    ]
                };
                let result = self.conversation.result(id, None, content, false, options);
                self.conversation.results(vec![result]);
                Ok(())
            }
            Some(_) => {
                let part = LcPart::raw(
                    ty.clone().map_or(Out::Null, Out::Given),
                    "item",
                    item.clone(),
                );
                self.run().parts.push(part);
                Ok(())
            }
        }
    }

    /// A message item (`{role, content}`, typed or not).
    fn message(&mut self, item: &J, path: &Path<'_>) -> Result<()> {
        let role = field(item, "role");
        let parts = content_parts(item, path)?;
        match role.as_ref().and_then(|r| r.as_str()).as_deref() {
            Some("assistant") => {
                self.run().parts.extend(parts);
            }
            Some("user") => {
                self.flush();
                self.conversation.message(Role::User, parts, Vec::new());
            }
            Some("system" | "developer") => {
                self.flush();
                self.conversation.message(Role::System, parts, Vec::new());
            }
            None if field(item, "type").is_none() => {
                return Err(Error::missing(&path.key("type"), "the item type"))
            }
            _ => {
                return Err(unsupported_role(
                    role.as_ref(),
                    &path.key("role"),
                    "\"user\", \"assistant\", \"system\" or \"developer\"",
                ))
            }
        }
        Ok(())
    }

    /// A `*_call` item: a function or custom tool call, a client tool call whose output follows as
    /// its own item, or a server tool whose item holds the outcome too.
    fn call(&mut self, item: &J, ty: &str, ty_value: Option<J>, path: &Path<'_>) -> Result<()> {
        let ty_out = ty_value.map_or(Out::Null, Out::Given);
        let item_id = opt_str(item, "id", path)?;
        let call_id = opt_str(item, "call_id", path)?;
        let name = opt_str(item, "name", path)?;
        match ty {
            "function_call" | "custom_tool_call" => {
                let key = if ty == "function_call" {
                    "arguments"
                } else {
                    "input"
                };
                let mut metadata: Entries<J> = Vec::new();
                if ty != "function_call" {
                    metadata.push(("provider_type", ty_out));
                }
                if let Some(id) = item_id {
                    metadata.push(("item_id", Out::Given(id)));
                }
                let arguments = super::arguments(field(item, key));
                let call =
                    self.conversation
                        .call(call_id, name.map(Out::Given), arguments, metadata);
                self.run().calls.push(call);
            }
            _ => {
                let server = !CLIENT_CALLS.contains(&ty);
                let id = if server { item_id.clone() } else { call_id };
                let name = name.map(Out::Given).or_else(|| {
                    // `trim_end_matches("_call")`, without core's reverse string search (2 KB).
                    let mut bare = ty;
                    while let Some(shorter) = bare.strip_suffix("_call") {
                        bare = shorter;
                    }
                    Some(Out::Text(bare.to_string()))
                });
                let arguments = call_arguments(item);
                let metadata = vec![
                    ("provider_type", ty_out.clone()),
                    ("item", Out::Given(item.clone())),
                ];
                let call = self
                    .conversation
                    .call(id.clone(), name.clone(), arguments, metadata);
                self.run().calls.push(call);
                if server {
                    let (content, is_error) = server_outcome(item, path)?;
                    let result = self.conversation.result(
                        id,
                        None,
                        content,
                        is_error,
                        vec![("provider_type", ty_out)],
                    );
                    self.run().results.push(result);
                }
            }
        }
        Ok(())
    }
}

/// The arguments of a non-function call: its `arguments` (parsed when it is JSON text), else its
/// `action`, else its `code` or `queries` as an object, else `{}`.
fn call_arguments<J: Json>(item: &J) -> Out<J> {
    if let Some(arguments) = field(item, "arguments") {
        return super::arguments(Some(arguments));
    }
    if let Some(action) = field(item, "action") {
        return Out::Given(action);
    }
    for key in ["code", "queries", "input"] {
        if let Some(value) = field(item, key) {
            return Out::Map(vec![(key, Out::Given(value))]);
        }
    }
    Out::empty_map()
}

/// What a server-tool item shows as its result: an MCP call's `output` (or its `error`, as an
/// error); a code interpreter's log texts and images; a file search's result texts; an image
/// generation's image; else its `status`. `status: "failed"` is an error.
fn server_outcome<J: Json>(item: &J, path: &Path<'_>) -> Result<(ResultBody<J>, bool)> {
    let failed = str_of(item, "status").as_deref() == Some("failed");
    if let Some(error) = field(item, "error") {
        let text = match error.kind() {
            Kind::String => Out::Given(error),
            _ => Out::Text(compact_json(&error, &path.key("error"))?),
        };
        return Ok((ResultBody::Text(text), true));
    }
    if let Some(output) = field(item, "output") {
        let text = match output.kind() {
            Kind::String => Out::Given(output),
            _ => Out::Text(compact_json(&output, &path.key("output"))?),
        };
        return Ok((ResultBody::Text(text), failed));
    }
    if let Some(outputs) = field(item, "outputs").and_then(|o| o.elements()) {
        let mut parts = Vec::new();
        for entry in &outputs {
            if let Some(logs) = field(entry, "logs").filter(|l| l.kind() == Kind::String) {
                parts.push(LcPart::text(logs));
            } else if let Some(url) = field(entry, "url").filter(|u| u.kind() == Kind::String) {
                parts.push(LcPart::new(
                    PartKind::ImageUrl,
                    Some(Out::Given(url)),
                    Vec::new(),
                ));
            }
        }
        return Ok((ResultBody::Parts(parts), failed));
    }
    if let Some(results) = field(item, "results").and_then(|r| r.elements()) {
        let parts = results
            .iter()
            .filter_map(|r| field(r, "text").filter(|t| t.kind() == Kind::String))
            .map(LcPart::text)
            .collect();
        return Ok((ResultBody::Parts(parts), failed));
    }
    if let Some(image) = field(item, "result").filter(|r| r.kind() == Kind::String) {
        let part = LcPart::new(
            PartKind::Image,
            Some(Out::Given(image)),
            vec![("media", Out::Str("image/png"))],
        );
        return Ok((ResultBody::Parts(vec![part]), failed));
    }
    let status = field(item, "status").map_or(Out::Str(""), Out::Given);
    Ok((ResultBody::Text(status), failed))
}

/// A reasoning item: its summary texts (else its reasoning texts) as thinking parts, each with
/// `options.id`; the first also keeps `encrypted_content`. With no text at all, one empty thinking
/// part keeps the item for passing back.
fn reasoning<J: Json>(item: &J, path: &Path<'_>) -> Result<Vec<LcPart<J>>> {
    let id = opt_str(item, "id", path)?;
    let encrypted = opt_str(item, "encrypted_content", path)?;
    let mut texts = Vec::new();
    for key in ["summary", "content"] {
        let list_path = path.key(key);
        for (i, entry) in opt_list(item, key, path)?
            .unwrap_or_default()
            .iter()
            .enumerate()
        {
            texts.push(read_text(entry, "text", &list_path.index(i))?);
        }
        if !texts.is_empty() {
            break;
        }
    }
    let mut parts: Vec<LcPart<J>> = texts
        .into_iter()
        .map(|text| LcPart::thinking(Out::Given(text), None))
        .collect();
    if parts.is_empty() && (id.is_some() || encrypted.is_some()) {
        parts.push(LcPart::thinking(Out::Str(""), None));
    }
    for (i, part) in parts.iter_mut().enumerate() {
        if let Some(id) = &id {
            part.options.push(("id", Out::Given(id.clone())));
        }
        if i == 0 {
            if let Some(encrypted) = &encrypted {
                part.options
                    .push(("encrypted_content", Out::Given(encrypted.clone())));
            }
        }
    }
    Ok(parts)
}

/// A message item's `content`: a string, or input / output parts.
fn content_parts<J: Json>(item: &J, path: &Path<'_>) -> Result<Vec<LcPart<J>>> {
    let content_path = path.key("content");
    match field(item, "content") {
        None => Ok(Vec::new()),
        Some(c) if c.kind() == Kind::String => Ok(if c.is_empty_str() {
            Vec::new()
        } else {
            vec![LcPart::text(c)]
        }),
        Some(c) => match c.elements() {
            Some(list) => list
                .iter()
                .enumerate()
                .map(|(i, p)| part(p, &content_path.index(i)))
                .collect(),
            None => Err(Error::expected(
                &content_path,
                "a string or an array of content parts",
                c.kind(),
            )),
        },
    }
}

/// A `*_call_output` item's `output`: a string, or content parts.
fn output<J: Json>(item: &J, path: &Path<'_>) -> Result<ResultBody<J>> {
    let output_path = path.key("output");
    Ok(match field(item, "output") {
        None => ResultBody::Text(Out::Str("")),
        Some(o) if o.kind() == Kind::String => ResultBody::Text(Out::Given(o)),
        Some(o) => match o.elements() {
            Some(list) => ResultBody::Parts(
                list.iter()
                    .enumerate()
                    .map(|(i, p)| part(p, &output_path.index(i)))
                    .collect::<Result<_>>()?,
            ),
            None => ResultBody::Text(Out::Text(compact_json(&o, &output_path)?)),
        },
    })
}

/// A content part: text kinds, refusals, images and files; anything else kept as its part.
fn part<J: Json>(part: &J, path: &Path<'_>) -> Result<LcPart<J>> {
    let (ty, ty_value) = block_type(part, path)?;
    Ok(match ty.as_str() {
        "input_text" | "output_text" | "text" | "summary_text" | "reasoning_text" => {
            LcPart::text(read_text(part, "text", path)?)
        }
        "refusal" => LcPart::text(read_text(part, "refusal", path)?),
        "input_image" => match opt_str(part, "image_url", path)? {
            Some(url) => LcPart::new(PartKind::ImageUrl, Some(Out::Given(url)), Vec::new()),
            None => LcPart::new(
                PartKind::Image,
                opt_str(part, "file_id", path)?.map(Out::Given),
                vec![("type", Out::Str("file_id"))],
            ),
        },
        "input_file" => {
            let mut options: Entries<J> = Vec::new();
            let (kind, content) = if let Some(data) = opt_str(part, "file_data", path)? {
                (PartKind::File, Some(data))
            } else if let Some(url) = opt_str(part, "file_url", path)? {
                (PartKind::FileUrl, Some(url))
            } else {
                options.push(("type", Out::Str("file_id")));
                (PartKind::File, opt_str(part, "file_id", path)?)
            };
            if let Some(name) = opt_str(part, "filename", path)? {
                options.push(("filename", Out::Given(name)));
            }
            LcPart::new(kind, content.map(Out::Given), options)
        }
        _ => LcPart::raw(Out::Given(ty_value), "part", part.clone()),
    })
}

// ---------------------------------------------------------------------------------------------
// toProvider

/// `toProvider("openai_responses", messages)`: the `input` item array. System messages stay
/// messages; assistant texts are assistant messages, thinking parts are reasoning items (grouped by
/// their `options.id`, with `encrypted_content` passed back), calls are `function_call` items
/// (arguments as JSON text); each result is a `function_call_output` item (the format has no
/// error flag). Items kept from a Responses payload (server-tool calls, custom and computer calls
/// and their outputs, anything else) go back as they were.
pub fn to_provider<J: Json>(messages: &[InMessage<J>]) -> Result<Out<J>> {
    let mut out = Vec::new();
    for message in messages {
        let own = message.own;
        for result in &message.results {
            if let Some(item) = result_item(result, own) {
                out.push(item);
            }
        }
        match message.role {
            Role::System | Role::User => {
                let role = if message.role == Role::System {
                    "system"
                } else {
                    "user"
                };
                let parts: Vec<Out<J>> = message
                    .parts
                    .iter()
                    .filter_map(|p| input_part(p, own))
                    .collect();
                if let Some(content) = content_value(parts) {
                    out.push(Out::Map(vec![
                        ("role", Out::Str(role)),
                        ("content", content),
                    ]));
                }
            }
            Role::Assistant => {
                assistant_items(message, &mut out);
                for call in &message.calls {
                    out.push(call_item(call, own)?);
                }
            }
            Role::Tool => {}
        }
    }
    Ok(Out::List(out))
}

/// A reasoning item being gathered from consecutive thinking parts with the same `options.id`.
struct Reasoning<J> {
    id: Option<J>,
    id_text: Option<String>,
    summary: Vec<Out<J>>,
    encrypted: Option<J>,
}

impl<J: Json> Reasoning<J> {
    /// `{type: "reasoning", id?, summary, encrypted_content?}`.
    fn item(self) -> Out<J> {
        let mut item = vec![("type", Out::Str("reasoning"))];
        if let Some(id) = self.id {
            item.push(("id", Out::Given(id)));
        }
        item.push(("summary", Out::List(self.summary)));
        if let Some(encrypted) = self.encrypted {
            item.push(("encrypted_content", Out::Given(encrypted)));
        }
        Out::Map(item)
    }
}

/// The items of an assistant message's parts, in order: reasoning items, one assistant message
/// per text, items kept as they were.
fn assistant_items<J: Json>(message: &InMessage<J>, out: &mut Vec<Out<J>>) {
    let mut reasoning: Option<Reasoning<J>> = None;
    for part in &message.parts {
        if part.kind != PartType::Thinking {
            if let Some(done) = reasoning.take() {
                out.push(done.item());
            }
        }
        match part.kind {
            PartType::Thinking => {
                let id = part.option("id").filter(|_| message.own);
                let id_text = id.as_ref().and_then(|i| i.as_str()).map(|s| s.into_owned());
                let same =
                    id_text.is_some() && reasoning.as_ref().is_some_and(|r| r.id_text == id_text);
                if !same {
                    if let Some(done) = reasoning.take() {
                        out.push(done.item());
                    }
                }
                let current = reasoning.get_or_insert_with(|| Reasoning {
                    id,
                    id_text,
                    summary: Vec::new(),
                    encrypted: None,
                });
                if let Some(text) = part.text().filter(|t| !t.is_empty_str()) {
                    current.summary.push(Out::Map(vec![
                        ("type", Out::Str("summary_text")),
                        ("text", Out::Given(text)),
                    ]));
                }
                if message.own && current.encrypted.is_none() {
                    current.encrypted = part.option("encrypted_content");
                }
            }
            PartType::Text => {
                if let Some(text) = part.text().filter(|t| !t.is_empty_str()) {
                    out.push(Out::Map(vec![
                        ("role", Out::Str("assistant")),
                        ("content", Out::Given(text)),
                    ]));
                }
            }
            _ => {
                if let Some(item) = part.raw("item", message.own) {
                    out.push(Out::Given(item));
                }
            }
        }
    }
    if let Some(done) = reasoning.take() {
        out.push(done.item());
    }
}

/// A call as an item: kept items go back as they were; custom tool calls as `custom_tool_call`;
/// the rest as `function_call`.
fn call_item<J: Json>(call: &InCall<J>, own: bool) -> Result<Out<J>> {
    if let Some(item) = call.meta("item").filter(|_| own) {
        return Ok(Out::Given(item));
    }
    let custom = own && call.meta_str("provider_type").as_deref() == Some("custom_tool_call");
    let mut item = vec![(
        "type",
        Out::Str(if custom {
            "custom_tool_call"
        } else {
            "function_call"
        }),
    )];
    if let Some(id) = call.meta("item_id").filter(|_| own) {
        item.push(("id", Out::Given(id)));
    }
    item.push(("call_id", call.id.clone()));
    item.push(("name", call.name.clone().map_or(Out::Str(""), Out::Given)));
    item.push((
        if custom { "input" } else { "arguments" },
        call.arguments_text()?,
    ));
    Ok(Out::Map(item))
}

/// A result as an item: none for a server tool's result (its item is written with the call);
/// kept output items as they were; else a `function_call_output` with the result's content.
fn result_item<J: Json>(result: &InResult<J>, own: bool) -> Option<Out<J>> {
    if own {
        if let Some(provider_type) = result.option_str("provider_type") {
            if provider_type.ends_with("_call") {
                return None;
            }
            if let Some(item) = result.option("item") {
                return Some(Out::Given(item));
            }
        }
    }
    let output = match &result.content {
        super::InContent::Text(text) => Out::Given(text.clone()),
        super::InContent::Parts(parts) => {
            let items: Vec<Out<J>> = parts.iter().filter_map(|p| input_part(p, false)).collect();
            Out::List(items)
        }
        super::InContent::None => Out::Str(""),
    };
    Some(Out::Map(vec![
        ("type", Out::Str("function_call_output")),
        ("call_id", result.id.clone()),
        ("output", output),
    ]))
}

/// A lone `input_text` part as its string, several parts as the array, none as `None`.
fn content_value<J: Json>(parts: Vec<Out<J>>) -> Option<Out<J>> {
    if let [Out::Map(entries)] = parts.as_slice() {
        let is_text = entries
            .iter()
            .any(|(k, v)| *k == "type" && matches!(v, Out::Str("input_text")));
        if let Some((_, text)) = entries
            .iter()
            .find(|(k, _)| *k == "text")
            .filter(|_| is_text)
        {
            return Some(text.clone());
        }
    }
    (!parts.is_empty()).then_some(Out::List(parts))
}

/// An input part: `input_text`, `input_image`, `input_file`; parts kept from a Responses payload
/// as they were.
fn input_part<J: Json>(part: &InPart<J>, own: bool) -> Option<Out<J>> {
    let text = part.text();
    let file_id = part.option_str("type").as_deref() == Some("file_id");
    match part.kind {
        PartType::Text => Some(Out::Map(vec![
            ("type", Out::Str("input_text")),
            ("text", Out::Given(text.filter(|t| !t.is_empty_str())?)),
        ])),
        PartType::Image if file_id => Some(Out::Map(vec![
            ("type", Out::Str("input_image")),
            ("file_id", Out::Given(text?)),
        ])),
        PartType::Image => {
            let data = text?.as_str()?.into_owned();
            let media = super::media_text(part, "image/png");
            Some(Out::Map(vec![
                ("type", Out::Str("input_image")),
                (
                    "image_url",
                    Out::Text(text!("data:", media, ";base64,", data)),
                ),
            ]))
        }
        PartType::ImageUrl => Some(Out::Map(vec![
            ("type", Out::Str("input_image")),
            ("image_url", Out::Given(text?)),
        ])),
        PartType::File | PartType::FileUrl => {
            let content = text?;
            let entry = if part.kind == PartType::FileUrl {
                ("file_url", Out::Given(content))
            } else if file_id {
                ("file_id", Out::Given(content))
            } else if content.as_str().is_some_and(|c| c.starts_with("data:")) {
                ("file_data", Out::Given(content))
            } else {
                let media = super::media_text(part, "application/pdf");
                let data = content.as_str()?.into_owned();
                (
                    "file_data",
                    Out::Text(text!("data:", media, ";base64,", data)),
                )
            };
            let mut item = vec![("type", Out::Str("input_file")), entry];
            if let Some(name) = part.option("filename") {
                item.push(("filename", Out::Given(name)));
            }
            Some(Out::Map(item))
        }
        PartType::Unsupported if !part.is_redacted() => part.raw("part", own).map(Out::Given),
        _ => None,
    }
}
