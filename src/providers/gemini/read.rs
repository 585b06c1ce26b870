//! Reading a payload (`fromProvider`).

use super::Gemini;
use crate::error::{Error, Path, Result};
use crate::json::{Json, Kind};
use crate::message::Role;
use crate::prelude::*;
use crate::providers::{
    arguments, compact_json, each_object, field, object, opt_list, opt_str, role_in, Citation,
    Conversation, Entries, LcPart, LcResult, Out, PartKind, ReadPayload, ResultBody, Shape, Split,
    Status, Statuses,
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
};

impl ReadPayload for Gemini {
    const SHAPE: Shape = Shape {
        expected: "a generateContent request body ({contents}), a response ({candidates}), a content or a content array",
        response: Some("candidates"),
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
        for (i, part) in list.iter().enumerate() {
            let path = parts_path.index(i);
            object(part, &path, "a part object")?;
            let signature = opt_str(part, "thoughtSignature", &path)?;
            if let Some(response) = field(part, "functionResponse") {
                let result = function_response(c, &response, &path.key("functionResponse"))?;
                split.result(c, result);
            } else if let Some(call) = field(part, "functionCall") {
                let call_path = path.key("functionCall");
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
        Ok(())
    }

    /// A response: the first candidate's content, with its `finishReason`; with no candidates,
    /// a blocked prompt.
    fn response<J: Json>(c: &mut Conversation<J>, payload: &J, root: &Path<'_>) -> Result<()> {
        let path = root.key("candidates");
        let candidates = opt_list(payload, "candidates", root)?.unwrap_or_default();
        match candidates.first() {
            Some(candidate) => {
                let candidate_path = path.index(0);
                object(candidate, &candidate_path, "a candidate object")?;
                if let Some(content) = field(candidate, "content") {
                    Self::message(c, &content, &candidate_path.key("content"))?;
                }
                if let Some(grounding) = field(candidate, "groundingMetadata") {
                    c.cite_last_text(grounding_citations(&grounding));
                }
                if let Some(reason) = field(candidate, "finishReason") {
                    c.stop_reason(reason, &STATUSES, Vec::new());
                }
            }
            None => {
                // A blocked prompt: no candidates, the reason in promptFeedback.
                let blocked =
                    field(payload, "promptFeedback").and_then(|f| field(&f, "blockReason"));
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
    let text = response
        .as_ref()
        .and_then(|r| {
            field(r, "output")
                .filter(|o| o.kind() == Kind::String)
                .or_else(|| field(r, "content").filter(|c| c.kind() == Kind::String))
        })
        .map(Out::Given);
    let content = match (text, &response) {
        (Some(text), _) => text,
        (None, Some(response)) => Out::Text(compact_json(response, &path.key("response"))?),
        (None, None) => Out::Str(""),
    };
    let is_error = response
        .as_ref()
        .is_some_and(|r| r.kind() == Kind::Object && r.get("error").is_some());
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
    for (key, uri_key) in [("inlineData", "data"), ("fileData", "fileUri")] {
        if let Some(data) = field(part, key) {
            let data_path = path.key(key);
            object(&data, &data_path, "an object")?;
            let media = opt_str(&data, "mimeType", &data_path)?;
            let image = media
                .as_ref()
                .and_then(|m| m.as_str())
                .is_some_and(|m| m.starts_with("image/"));
            let kind = match (key, image) {
                ("inlineData", true) => PartKind::Image,
                ("inlineData", false) => PartKind::File,
                (_, true) => PartKind::ImageUrl,
                _ => PartKind::FileUrl,
            };
            let mut options: Entries<J> = Vec::new();
            if let Some(media) = media {
                options.push(("media", Out::Given(media)));
            }
            if let Some(name) = opt_str(&data, "displayName", &data_path)? {
                options.push(("filename", Out::Given(name)));
            }
            let content = opt_str(&data, uri_key, &data_path)?.map(Out::Given);
            return Ok(Some(signed(LcPart::new(kind, content, options))));
        }
    }
    let ty = part
        .entries()
        .unwrap_or_default()
        .into_iter()
        .map(|(k, _)| k)
        .find(|k| k != "thoughtSignature")
        .unwrap_or_default();
    Ok(Some(LcPart::raw(Out::Text(ty), "part", part.clone())))
}

/// A candidate's `groundingMetadata` as citations of its text: one for each chunk each
/// `groundingSupports` entry names (`cited_text` the segment's text, `url` and `title` the chunk's
/// `web` or `retrievedContext`, the segment's `startIndex` / `endIndex`, which Gemini counts in
/// bytes, so `unit` is null), or, without supports, one for each chunk.
fn grounding_citations<J: Json>(grounding: &J) -> Vec<Out<J>> {
    let chunks = field(grounding, "groundingChunks")
        .and_then(|c| c.elements())
        .unwrap_or_default();
    let source = |chunk: &J| field(chunk, "web").or_else(|| field(chunk, "retrievedContext"));
    let cite = |chunk: &J, segment: Option<&J>| {
        let web = source(chunk);
        let from = |key: &str| web.as_ref().and_then(|w| field(w, key)).map(Out::Given);
        let at = |key: &str| segment.and_then(|s| field(s, key)).map(Out::Given);
        Citation {
            cited_text: at("text"),
            url: from("uri"),
            title: from("title"),
            start_index: at("startIndex"),
            end_index: at("endIndex"),
            ..Citation::default()
        }
        .into_out()
    };
    let supports = field(grounding, "groundingSupports")
        .and_then(|s| s.elements())
        .unwrap_or_default();
    if supports.is_empty() {
        return chunks.iter().map(|chunk| cite(chunk, None)).collect();
    }
    let mut out = Vec::new();
    for support in &supports {
        let segment = field(support, "segment");
        for index in field(support, "groundingChunkIndices")
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
