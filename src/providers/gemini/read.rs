//! Reading a payload (`fromProvider`).

use super::Gemini;
use crate::error::{Error, Path, Result};
use crate::json::{Json, Kind};
use crate::message::Role;
use crate::prelude::*;
use crate::providers::{
    arguments, compact_json, each_object, field, object, opt_list, opt_str, role_in, Citation,
    Conversation, Entries, LcCall, LcPart, LcResult, Out, PartKind, ReadPayload, ResultBody, Shape,
    Split, Status, Statuses,
};

/// Content roles: `model` is the assistant; `function` (older function-calling contents) the
/// user, as is a content without a role.
const ROLES: [(&str, Role); 3] = [
    ("user", Role::User),
    ("function", Role::User),
    ("model", Role::Assistant),
];

/// `finishReason` → status: `MAX_TOKENS` is `length`; `SAFETY`, `RECITATION`, `BLOCKLIST`,
/// `PROHIBITED_CONTENT`, `SPII` and the `IMAGE_*` filters (the candidate was blocked or cut by a
/// filter) are `content_filtered`; the rest (`STOP`, `MALFORMED_FUNCTION_CALL`, `OTHER`, ...)
/// `complete`.
const STATUSES: Statuses = Statuses {
    length: &["MAX_TOKENS"],
    filtered: &[
        "SAFETY",
        "RECITATION",
        "BLOCKLIST",
        "PROHIBITED_CONTENT",
        "SPII",
        "IMAGE_SAFETY",
        "IMAGE_PROHIBITED_CONTENT",
        "IMAGE_RECITATION",
    ],
    cancelled: &[],
};

/// A field's two names: its JSON name (camelCase, what Google's servers send) and its proto name
/// (snake_case), which Google's REST API accepts as well and some clients send (the proto3 JSON
/// mapping reads both). Either is read alike.
type Names = (&'static str, &'static str);

const FUNCTION_CALL: Names = ("functionCall", "function_call");
const FUNCTION_RESPONSE: Names = ("functionResponse", "function_response");
const INLINE_DATA: Names = ("inlineData", "inline_data");
const FILE_DATA: Names = ("fileData", "file_data");
const MIME_TYPE: Names = ("mimeType", "mime_type");
const FILE_URI: Names = ("fileUri", "file_uri");
const DISPLAY_NAME: Names = ("displayName", "display_name");
const THOUGHT_SIGNATURE: Names = ("thoughtSignature", "thought_signature");
const FINISH_REASON: Names = ("finishReason", "finish_reason");
const PROMPT_FEEDBACK: Names = ("promptFeedback", "prompt_feedback");
const BLOCK_REASON: Names = ("blockReason", "block_reason");
const GROUNDING: Names = ("groundingMetadata", "grounding_metadata");
const GROUNDING_CHUNKS: Names = ("groundingChunks", "grounding_chunks");
const GROUNDING_SUPPORTS: Names = ("groundingSupports", "grounding_supports");
const GROUNDING_CHUNK_INDICES: Names = ("groundingChunkIndices", "grounding_chunk_indices");
const RETRIEVED_CONTEXT: Names = ("retrievedContext", "retrieved_context");
const TOOL_CALL: Names = ("toolCall", "tool_call");
const TOOL_RESPONSE: Names = ("toolResponse", "tool_response");
const TOOL_TYPE: Names = ("toolType", "tool_type");
const START_INDEX: Names = ("startIndex", "start_index");
const END_INDEX: Names = ("endIndex", "end_index");

/// The name under which `value` holds the field `names` names: the JSON name, unless only the
/// proto name has a value (so paths in errors name the key the input has).
fn key<J: Json>(value: &J, (json, proto): Names) -> &'static str {
    if field(value, json).is_none() && field(value, proto).is_some() {
        proto
    } else {
        json
    }
}

impl ReadPayload for Gemini {
    const SHAPE: Shape = Shape {
        expected: "a generateContent request body ({contents}), a response ({candidates}), a content or a content array",
        response: &["candidates", "promptFeedback", "prompt_feedback"],
        request: "contents",
        system: &["systemInstruction", "system_instruction"],
        one: &["parts", "role"],
    };

    fn message<J: Json>(c: &mut Conversation<J>, content: &J, path: &Path<'_>) -> Result<()> {
        object(content, path, "a content object")?;
        let role = match field(content, "role") {
            None => Role::User,
            role => role_in(role, path, &ROLES, "\"user\" or \"model\"")?,
        };
        let parts_path = path.key("parts");
        let list = match field(content, "parts") {
            Some(p) => p
                .elements()
                .ok_or_else(|| Error::expected(&parts_path, "an array of parts", p.kind()))?,
            None => return Err(Error::missing(&parts_path, "the parts")),
        };
        let mut split = Split::new(role);
        let mut server_results = Vec::new();
        for (i, part) in list.iter().enumerate() {
            let path = parts_path.index(i);
            object(part, &path, "a part object")?;
            let signature = opt_str(part, key(part, THOUGHT_SIGNATURE), &path)?;
            let response_key = key(part, FUNCTION_RESPONSE);
            let call_key = key(part, FUNCTION_CALL);
            let tool_call_key = key(part, TOOL_CALL);
            let tool_response_key = key(part, TOOL_RESPONSE);
            if let Some(call) = field(part, tool_call_key) {
                let call = tool_call(c, part, &call, signature, &path.key(tool_call_key))?;
                split.call(c, call);
            } else if let Some(response) = field(part, tool_response_key) {
                let path = path.key(tool_response_key);
                server_results.push(tool_response(c, part, &response, &path)?);
            } else if let Some(response) = field(part, response_key) {
                let result = function_response(c, &response, &path.key(response_key))?;
                split.result(c, result);
            } else if let Some(call) = field(part, call_key) {
                let call_path = path.key(call_key);
                object(&call, &call_path, "a functionCall object")?;
                let id = opt_str(&call, "id", &call_path)?;
                let name = opt_str(&call, "name", &call_path)?;
                let metadata: Entries<J> = signature
                    .map(|s| vec![("thought_signature", Out::Given(s))])
                    .unwrap_or_default();
                let arguments = arguments(field(&call, "args"));
                let call = c.call(id, name.map(Out::Given), arguments, metadata);
                split.call(c, call);
            } else {
                let part = content_part(part, signature, &path)?;
                split.parts(c, part);
            }
        }
        split.finish(c);
        c.results(server_results);
        Ok(())
    }

    /// A response: the first candidate's content, with its `finishReason`; with no candidates
    /// (or none at all: a body of only `promptFeedback`), a blocked prompt. A candidate whose
    /// content has no parts (`{}`, `{role: "model"}`: a `SAFETY` or `MAX_TOKENS` stop before any
    /// text) is an assistant message with no parts, never an error.
    fn response<J: Json>(c: &mut Conversation<J>, payload: &J, root: &Path<'_>) -> Result<()> {
        let path = root.key("candidates");
        let candidates = opt_list(payload, "candidates", root)?.unwrap_or_default();
        match candidates.first() {
            Some(candidate) => {
                let candidate_path = path.index(0);
                object(candidate, &candidate_path, "a candidate object")?;
                match field(candidate, "content") {
                    Some(content)
                        if content.kind() != Kind::Object || field(&content, "parts").is_some() =>
                    {
                        Self::message(c, &content, &candidate_path.key("content"))?
                    }
                    _ => c.message(Role::Assistant, Vec::new(), Vec::new()),
                }
                if let Some(grounding) = field(candidate, key(candidate, GROUNDING)) {
                    c.cite_last_text(grounding_citations(&grounding));
                }
                if let Some(reason) = field(candidate, key(candidate, FINISH_REASON)) {
                    c.stop_reason(reason, &STATUSES, Vec::new());
                }
            }
            None => {
                // A blocked prompt: no candidates, the reason in promptFeedback.
                let blocked = field(payload, key(payload, PROMPT_FEEDBACK))
                    .and_then(|f| field(&f, key(&f, BLOCK_REASON)));
                if let Some(reason) = blocked {
                    c.stop(Status::ContentFiltered, Some(reason), Vec::new());
                }
            }
        }
        Ok(())
    }

    /// `systemInstruction`: a content's text parts, or a string.
    fn system<J: Json>(system: &J, path: &Path<'_>) -> Result<Vec<LcPart<J>>> {
        match system.kind() {
            Kind::String => Ok(LcPart::texts(system.clone())),
            Kind::Object => {
                let mut parts = Vec::new();
                each_object(system, "parts", path, "a part object", |part, path| {
                    if let Some(text) = opt_str(part, "text", path)? {
                        parts.extend(LcPart::texts(text));
                    }
                    Ok(())
                })?;
                Ok(parts)
            }
            other => Err(Error::expected(path, "a content object or a string", other)),
        }
    }
}

/// A built-in tool's call (`toolCall: {id, toolType, args}`: Google Search, file search, URL
/// context, Maps), which Gemini makes itself: a call named after its `toolType`, with
/// `metadata.provider_type: "toolCall"` and the part in `metadata.part` (`toProvider` writes it
/// back as it came), as Anthropic's `server_tool_use`.
fn tool_call<J: Json>(
    c: &mut Conversation<J>,
    part: &J,
    call: &J,
    signature: Option<J>,
    path: &Path<'_>,
) -> Result<LcCall<J>> {
    object(call, path, "a toolCall object")?;
    let id = opt_str(call, "id", path)?;
    let name = opt_str(call, key(call, TOOL_TYPE), path)?;
    let mut metadata: Entries<J> = vec![
        ("provider_type", Out::Str("toolCall")),
        ("part", Out::Given(part.clone())),
    ];
    if let Some(signature) = signature {
        metadata.push(("thought_signature", Out::Given(signature)));
    }
    let arguments = arguments(field(call, "args"));
    Ok(c.call(id, name.map(Out::Given), arguments, metadata))
}

/// A built-in tool's outcome (`toolResponse: {id, toolType, response}`), in the model's own
/// content after its call: a result after the model's message, as Anthropic's server tool
/// results, read as a `functionResponse`'s `response` is (its `output` or `content` string, else
/// its compact JSON; an `error` key is an error), the part kept in `options.part` and `response`
/// in `options.result`.
fn tool_response<J: Json>(
    c: &mut Conversation<J>,
    part: &J,
    value: &J,
    path: &Path<'_>,
) -> Result<LcResult<J>> {
    object(value, path, "a toolResponse object")?;
    let id = opt_str(value, "id", path)?;
    let name = opt_str(value, key(value, TOOL_TYPE), path)?;
    let response = field(value, "response");
    let (content, is_error) = response_text(response.as_ref(), &path.key("response"))?;
    let mut options: Entries<J> = vec![
        ("provider_type", Out::Str("toolResponse")),
        ("part", Out::Given(part.clone())),
    ];
    if let Some(response) = response {
        options.push(("result", Out::Given(response)));
    }
    Ok(c.result(id, name, ResultBody::Text(content), is_error, options))
}

/// What a person reads of a `response` (a `functionResponse`'s or a `toolResponse`'s): its
/// `output` or `content` string, else its compact JSON text; and whether it has an `error` key.
fn response_text<J: Json>(response: Option<&J>, path: &Path<'_>) -> Result<(Out<J>, bool)> {
    let text = response
        .and_then(|r| {
            field(r, "output")
                .filter(|o| o.kind() == Kind::String)
                .or_else(|| field(r, "content").filter(|c| c.kind() == Kind::String))
        })
        .map(Out::Given);
    let content = match (text, response) {
        (Some(text), _) => text,
        (None, Some(response)) => Out::Text(compact_json(response, path)?),
        (None, None) => Out::Str(""),
    };
    let is_error = response.is_some_and(|r| r.kind() == Kind::Object && r.get("error").is_some());
    Ok((content, is_error))
}

/// A `functionResponse`: its content is the `output` or `content` string of `response`, else the
/// compact JSON text of `response`; a `response` with an `error` key is an error. The `response`
/// is kept in `options.response` to be passed back unchanged.
fn function_response<J: Json>(
    c: &mut Conversation<J>,
    value: &J,
    path: &Path<'_>,
) -> Result<LcResult<J>> {
    object(value, path, "a functionResponse object")?;
    let id = opt_str(value, "id", path)?;
    let name = opt_str(value, "name", path)?;
    let response = field(value, "response");
    let (content, is_error) = response_text(response.as_ref(), &path.key("response"))?;
    let options: Entries<J> = response
        .map(|r| vec![("response", Out::Given(r))])
        .unwrap_or_default();
    Ok(c.result(id, name, ResultBody::Text(content), is_error, options))
}

/// A part other than a call or a response: text (a thought when `thought: true`), inline data,
/// file data; anything else kept as the part. A `thoughtSignature` is kept in the part's options.
fn content_part<J: Json>(
    part: &J,
    signature: Option<J>,
    path: &Path<'_>,
) -> Result<Option<LcPart<J>>> {
    let signed = |mut part: LcPart<J>| {
        if let Some(signature) = signature.clone() {
            part.options
                .push(("thought_signature", Out::Given(signature)));
        }
        part
    };
    if let Some(text) = field(part, "text") {
        if text.kind() != Kind::String {
            return Err(Error::expected(&path.key("text"), "a string", text.kind()));
        }
        if text.is_empty_str() && signature.is_none() {
            return Ok(None);
        }
        let thought = field(part, "thought").and_then(|t| t.as_bool()) == Some(true);
        let kind = if thought {
            PartKind::Thinking
        } else {
            PartKind::Text
        };
        return Ok(Some(signed(LcPart::new(
            kind,
            Some(Out::Given(text)),
            Vec::new(),
        ))));
    }
    for (names, uri) in [(INLINE_DATA, ("data", "data")), (FILE_DATA, FILE_URI)] {
        let data_key = key(part, names);
        if let Some(data) = field(part, data_key) {
            let data_path = path.key(data_key);
            object(&data, &data_path, "an object")?;
            let media = opt_str(&data, key(&data, MIME_TYPE), &data_path)?;
            let image = media
                .as_ref()
                .and_then(|m| m.as_str())
                .is_some_and(|m| m.starts_with("image/"));
            let kind = match (names == INLINE_DATA, image) {
                (true, true) => PartKind::Image,
                (true, false) => PartKind::File,
                (_, true) => PartKind::ImageUrl,
                _ => PartKind::FileUrl,
            };
            let mut options: Entries<J> = Vec::new();
            if let Some(media) = media {
                options.push(("media", Out::Given(media)));
            }
            if let Some(name) = opt_str(&data, key(&data, DISPLAY_NAME), &data_path)? {
                options.push(("filename", Out::Given(name)));
            }
            let content = opt_str(&data, key(&data, uri), &data_path)?.map(Out::Given);
            return Ok(Some(signed(LcPart::new(kind, content, options))));
        }
    }
    let ty = part
        .entries()
        .unwrap_or_default()
        .into_iter()
        .filter(|(k, v)| {
            v.kind() != Kind::Null && k != THOUGHT_SIGNATURE.0 && k != THOUGHT_SIGNATURE.1
        })
        .map(|(k, _)| k)
        .next()
        .unwrap_or_default();
    Ok(Some(LcPart::raw(Out::Text(ty), "part", part.clone())))
}

/// A candidate's `groundingMetadata` as citations of its text: one for each chunk each
/// `groundingSupports` entry names (`cited_text` the segment's text, `url` and `title` the chunk's
/// `web` or `retrievedContext`, the segment's `startIndex` / `endIndex`, which Gemini counts in
/// bytes, so `unit` is null), or, without supports, one for each chunk.
fn grounding_citations<J: Json>(grounding: &J) -> Vec<Out<J>> {
    let chunks = field(grounding, key(grounding, GROUNDING_CHUNKS))
        .and_then(|c| c.elements())
        .unwrap_or_default();
    let source =
        |chunk: &J| field(chunk, "web").or_else(|| field(chunk, key(chunk, RETRIEVED_CONTEXT)));
    let cite = |chunk: &J, segment: Option<&J>| {
        let web = source(chunk);
        let from = |key: &str| web.as_ref().and_then(|w| field(w, key)).map(Out::Given);
        let at = |names: Names| {
            segment
                .and_then(|s| field(s, key(s, names)))
                .map(Out::Given)
        };
        Citation {
            cited_text: at(("text", "text")),
            url: from("uri"),
            title: from("title"),
            start_index: at(START_INDEX),
            end_index: at(END_INDEX),
            ..Citation::default()
        }
        .into_out()
    };
    let supports = field(grounding, key(grounding, GROUNDING_SUPPORTS))
        .and_then(|s| s.elements())
        .unwrap_or_default();
    if supports.is_empty() {
        return chunks.iter().map(|chunk| cite(chunk, None)).collect();
    }
    let mut out = Vec::new();
    for support in &supports {
        let segment = field(support, "segment");
        for index in field(support, key(support, GROUNDING_CHUNK_INDICES))
            .and_then(|i| i.elements())
            .unwrap_or_default()
        {
            let chunk = index
                .as_number()
                .map(|n| n.as_f64())
                .filter(|n| *n >= 0.0 && (*n as usize) as f64 == *n)
                .and_then(|n| chunks.get(n as usize));
            if let Some(chunk) = chunk {
                out.push(cite(chunk, segment.as_ref()));
            }
        }
    }
    out
}
