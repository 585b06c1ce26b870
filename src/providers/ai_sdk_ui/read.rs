//! Reading a payload (`fromProvider`).

use super::AiSdkUi;
use crate::error::{text, Error, ErrorCode, Path, Result};
use crate::json::{Json, Kind};
use crate::message::Role;
use crate::prelude::*;
use crate::providers::citation::Citation;
use crate::providers::{
    arguments, block_type, compact_json, field, message_role, object, opt_list, opt_str, read_text,
    split_data_url, Conversation, Entries, LcCall, LcPart, LcResult, Out, Parsed, PartKind,
    ReadPayload, ResultBody, Shape,
};

const ROLES: [(&str, Role); 3] = [
    ("user", Role::User),
    ("assistant", Role::Assistant),
    ("system", Role::System),
];

impl ReadPayload for AiSdkUi {
    const SHAPE: Shape = Shape {
        expected: "AI SDK UI messages ([{id, role, parts}]), one UIMessage, or a request body ({messages})",
        response: &[],
        request: "messages",
        system: &[],
        one: &["parts", "role"],
    };

    /// One `UIMessage`: its steps, each an assistant (or user, system) message and the `tool`
    /// message of its outputs; the first holds the UIMessage's `id` and `metadata`.
    fn message<J: Json>(c: &mut Conversation<J>, message: &J, path: &Path<'_>) -> Result<()> {
        let expected = "\"user\", \"assistant\" or \"system\"";
        let role = message_role(message, path, &ROLES, expected)?;
        if field(message, "toolInvocations").is_some() {
            return Err(ai_sdk_4(&path.key("toolInvocations")));
        }
        let parts_path = path.key("parts");
        let parts = match field(message, "parts") {
            None => return Err(Error::missing(&parts_path, "the message parts")),
            Some(p) => p
                .elements()
                .ok_or_else(|| Error::expected(&parts_path, "an array of parts", p.kind()))?,
        };
        let first = c.message_count();
        let mut step = Step::new();
        for (i, part) in parts.iter().enumerate() {
            let path = parts_path.index(i);
            let (ty, ty_value) = block_type(part, &path)?;
            match ty.as_str() {
                "step-start" => {
                    if !step.is_empty() {
                        core::mem::replace(&mut step, Step::new()).finish(c, role);
                    }
                    step.parts.push(keep(ty_value, part));
                }
                "text" => {
                    let text = read_text(part, "text", &path)?;
                    if text.is_empty_str() {
                        step.parts.push(keep(ty_value, part));
                        continue;
                    }
                    let mut options: Entries<J> = Vec::new();
                    let citations = match opt_list(part, "citations", &path)? {
                        Some(list) => {
                            let list_path = path.key("citations");
                            let mut out = Vec::new();
                            for (k, cite) in list.iter().enumerate() {
                                object(cite, &list_path.index(k), "a citation object")?;
                                let source = field(cite, "source");
                                if let Some(key) = source.as_ref().and_then(source_key) {
                                    step.cited_keys.push(key);
                                }
                                out.push(citation(source, Some(cite)));
                            }
                            out
                        }
                        None => Vec::new(),
                    };
                    step.cited |= !citations.is_empty();
                    if has_extras(part) {
                        options.push(("part", Out::Given(part.clone())));
                    }
                    step.texts.push(step.parts.len());
                    step.parts.push(
                        LcPart::new(PartKind::Text, Some(Out::Given(text)), options)
                            .cited(citations),
                    );
                }
                "reasoning" => step.parts.push(reasoning(part, &path)?),
                "file" => step.parts.push(file(part, ty_value, &path)?),
                "source-url" | "source-document" => {
                    step.sources.push((
                        step.parts.len(),
                        source_key(part),
                        citation(Some(part.clone()), None),
                    ));
                    step.parts.push(keep(ty_value, part));
                }
                "tool-invocation" => return Err(ai_sdk_4(&path.key("type"))),
                "dynamic-tool" => tool(c, &mut step, part, None, &path)?,
                t if t.starts_with("tool-") => {
                    let name = Out::Text(t["tool-".len()..].to_string());
                    tool(c, &mut step, part, Some(name), &path)?
                }
                "steering-message" => {
                    if !step.is_empty() {
                        core::mem::replace(&mut step, Step::new()).finish(c, role);
                    }
                    let inner_path = path.key("parts");
                    let mut inner = Vec::new();
                    for (k, p) in opt_list(part, "parts", &path)?
                        .unwrap_or_default()
                        .iter()
                        .enumerate()
                    {
                        let p_path = inner_path.index(k);
                        let (ty, ty_value) = block_type(p, &p_path)?;
                        inner.push(match ty.as_str() {
                            "text" => {
                                let text = read_text(p, "text", &p_path)?;
                                LcPart::new(PartKind::Text, Some(Out::Given(text)), Vec::new())
                            }
                            "file" => file(p, ty_value, &p_path)?,
                            _ => keep(ty_value, p),
                        });
                    }
                    inner.push(keep(ty_value, part));
                    c.message(Role::User, inner, Vec::new());
                }
                // `custom`, `data-*`, `reasoning-file` and parts of later versions: kept, not shown.
                _ => step.parts.push(keep(ty_value, part)),
            }
        }
        step.finish(c, role);
        let mut entries: Entries<J> = Vec::new();
        if let Some(id) = field(message, "id") {
            entries.push(("message_id", Out::Given(id)));
        }
        if let Some(metadata) = field(message, "metadata") {
            entries.push(("message_metadata", Out::Given(metadata)));
        }
        // Every step's assistant message holds the UIMessage's id and metadata, as the message
        // of each step a UI message stream gives does (`StreamAccumulator.message()`), so that
        // the two name the same message; toProvider joins consecutive steps of one id back into
        // one UIMessage.
        c.annotate_each(first, role, entries);
        Ok(())
    }
}

/// The parts of one step of a UIMessage, gathered until the next `step-start`.
struct Step<J> {
    parts: Vec<LcPart<J>>,
    calls: Vec<LcCall<J>>,
    results: Vec<LcResult<J>>,
    /// Where the text parts are among `parts`.
    texts: Vec<usize>,
    /// The citations of the `source-*` parts, each with where it sits among `parts` and what
    /// names its source ([`source_key`]).
    sources: Vec<(usize, Option<String>, Out<J>)>,
    /// True when a text part has `citations` of its own (AI SDK 7).
    cited: bool,
    /// What names the source of each of those citations.
    cited_keys: Vec<String>,
}

impl<J: Json> Step<J> {
    fn new() -> Step<J> {
        Step {
            parts: Vec::new(),
            calls: Vec::new(),
            results: Vec::new(),
            texts: Vec::new(),
            sources: Vec::new(),
            cited: false,
            cited_keys: Vec::new(),
        }
    }

    fn is_empty(&self) -> bool {
        self.parts.is_empty() && self.calls.is_empty() && self.results.is_empty()
    }

    /// The step as messages: its parts and calls, then its outputs. The step's `source-*` parts
    /// become citations, each on the last text before it, else the first text after it
    /// (docs/formats/ai-sdk-ui.md "Citations"). The AI SDK means by them the sources the step's
    /// answer drew on (its `sources`: a web search's results, a file search's files), not a span
    /// of one text; their place in the parts is when the provider named them, so the text they
    /// follow (or, before any text, the first one) is where they show. When texts carry
    /// citations of their own (AI SDK 7), a source that one of those names already (same URL,
    /// or same file), or that names nothing to tell, is left out, so no source shows twice;
    /// the others (search results no sentence cites) are added after the text's own.
    fn finish(mut self, c: &mut Conversation<J>, role: Role) {
        {
            let mut lists: Vec<(usize, Vec<Out<J>>)> = Vec::new();
            let mut seen = core::mem::take(&mut self.cited_keys);
            for (at, key, cite) in self.sources {
                if self.cited {
                    let Some(key) = key else { continue };
                    if seen.contains(&key) {
                        continue;
                    }
                    seen.push(key);
                }
                let target = self
                    .texts
                    .iter()
                    .rev()
                    .find(|&&t| t < at)
                    .or_else(|| self.texts.iter().find(|&&t| t > at));
                let Some(&target) = target else { continue };
                match lists.iter_mut().find(|(t, _)| *t == target) {
                    Some((_, list)) => list.push(cite),
                    None => lists.push((target, vec![cite])),
                }
            }
            for (target, list) in lists {
                if let Some(part) = self.parts.get_mut(target) {
                    part.citations.extend(list);
                }
            }
        }
        c.message(role, self.parts, self.calls);
        c.results(self.results);
    }
}

/// A part that makes no record, kept for `toProvider`:
/// `{type: "unsupported", content: null, options: {type: <its type>, part: <the part>}}`.
fn keep<J: Json>(ty: J, part: &J) -> LcPart<J> {
    LcPart::raw(Out::Given(ty), "part", part.clone())
}

/// True when a text or reasoning part has more than its text (which `toProvider` then keeps).
fn has_extras<J: Json>(part: &J) -> bool {
    ["state", "providerMetadata", "citations", "id"]
        .iter()
        .any(|k| field(part, k).is_some())
}

/// `invalid_input` for an AI SDK 4 message (`toolInvocations`, `tool-invocation` parts).
fn ai_sdk_4(path: &Path<'_>) -> Error {
    Error::new(
        ErrorCode::InvalidInput,
        path,
        text!(
            "An AI SDK 4 message at ",
            path,
            " (toolInvocations, tool-invocation parts): \"ai_sdk_ui\" reads the UIMessages of AI SDK 5, 6 and 7."
        ),
    )
}

/// A `reasoning` part: a thinking part (Anthropic's signature as `options.signature`), or
/// redacted reasoning when Anthropic's `redactedData` is all it has.
fn reasoning<J: Json>(part: &J, path: &Path<'_>) -> Result<LcPart<J>> {
    let anthropic = field(part, "providerMetadata").and_then(|m| field(&m, "anthropic"));
    let text = opt_str(part, "text", path)?;
    if let Some(data) = anthropic.as_ref().and_then(|a| field(a, "redactedData")) {
        if text.as_ref().is_none_or(|t| t.is_empty_str()) {
            let mut redacted = LcPart::redacted(Some(data));
            redacted.options.push(("part", Out::Given(part.clone())));
            return Ok(redacted);
        }
    }
    let signature = anthropic
        .as_ref()
        .and_then(|a| field(a, "signature"))
        .filter(|s| s.kind() == Kind::String);
    let mut thinking = LcPart::thinking(text.map_or(Out::Str(""), Out::Given), signature);
    if has_extras(part) {
        thinking.options.push(("part", Out::Given(part.clone())));
    }
    Ok(thinking)
}

/// A `file` part: an image (`image/*`) or a document, inline (a `data:` URL, as base64 with
/// `options.media`) or by URL; one with no URL (an AI SDK 7 `providerReference`) is kept unread.
fn file<J: Json>(part: &J, ty: J, path: &Path<'_>) -> Result<LcPart<J>> {
    let media = opt_str(part, "mediaType", path)?;
    let Some(url) = opt_str(part, "url", path)?.filter(|u| !u.is_empty_str()) else {
        return Ok(keep(ty, part));
    };
    let image = media
        .as_ref()
        .and_then(|m| m.as_str().map(|s| s == "image" || s.starts_with("image/")))
        .unwrap_or(false);
    let mut options: Entries<J> = Vec::new();
    if let Some(media) = media {
        options.push(("media", Out::Given(media)));
    }
    if let Some(name) = opt_str(part, "filename", path)? {
        options.push(("filename", Out::Given(name)));
    }
    options.push(("part", Out::Given(part.clone())));
    let inline = url.as_str().as_deref().and_then(split_data_url);
    Ok(match (inline, image) {
        (Some((_, data)), true) => LcPart::new(PartKind::Image, Some(Out::Text(data)), options),
        (Some((_, data)), false) => LcPart::new(PartKind::File, Some(Out::Text(data)), options),
        (None, true) => LcPart::new(PartKind::ImageUrl, Some(Out::Given(url)), options),
        (None, false) => LcPart::new(PartKind::FileUrl, Some(Out::Given(url)), options),
    })
}

/// The status a tool part's state gives its call where its result does not say it
/// (docs/formats/ai-sdk-ui.md "Parts"): `input-available`, an approved `approval-responded` and a
/// `preliminary` output are `executing`; a denied `approval-responded` and `output-denied` are
/// `cancelled`. The other states are what results make of them (none: pending; an output:
/// completed; an error: failed).
fn status_of<J: Json>(part: &J, state: &str) -> Option<&'static str> {
    let approved = || {
        field(part, "approval")
            .and_then(|a| field(&a, "approved"))
            .and_then(|a| a.as_bool())
    };
    match state {
        "input-available" => Some("executing"),
        "approval-responded" => Some(if approved() == Some(false) {
            "cancelled"
        } else {
            "executing"
        }),
        "output-available"
            if field(part, "preliminary").and_then(|p| p.as_bool()) == Some(true) =>
        {
            Some("executing")
        }
        "output-denied" => Some("cancelled"),
        _ => None,
    }
}

/// A tool part (`tool-{name}`, whose name is given, or `dynamic-tool`): a call whose metadata
/// holds the part's `state` (and `approval_request: true` while approval is asked), and, in
/// the states `output-available` and `output-error`, its result. A part marked `continuation`
/// (what a stream makes of an output whose call came in an earlier response) is the result alone.
/// `metadata.parts_before` is how many of the step's content parts came before the call, so that
/// `toProvider` puts it back in its place.
fn tool<J: Json>(
    c: &mut Conversation<J>,
    step: &mut Step<J>,
    part: &J,
    name: Option<Out<J>>,
    path: &Path<'_>,
) -> Result<()> {
    let name = match name {
        Some(name) => Some(name),
        None => opt_str(part, "toolName", path)?.map(Out::Given),
    };
    let id = opt_str(part, "toolCallId", path)?;
    let state = opt_str(part, "state", path)?;
    let state_text = state
        .as_ref()
        .and_then(|s| s.as_str().map(|s| s.into_owned()))
        .unwrap_or_default();
    if field(part, "continuation").and_then(|v| v.as_bool()) != Some(true) {
        let input = field(part, "input").or_else(|| field(part, "rawInput"));
        let mut metadata: Entries<J> = Vec::new();
        if let Some(state) = state {
            metadata.push(("state", Out::Given(state)));
        }
        if state_text == "approval-requested" {
            metadata.push(("approval_request", Out::Bool(true)));
        }
        if let Some(status) = status_of(part, &state_text) {
            metadata.push(("status", Out::Str(status)));
        }
        metadata.push(("part", Out::Given(part.clone())));
        let before = Parsed::Number(step.parts.len().into());
        metadata.push(("parts_before", Out::Json(before)));
        let call = c.call(id.clone(), name, arguments(input), metadata);
        step.calls.push(call);
    }
    let (content, is_error) = match state_text.as_str() {
        "output-available" => match field(part, "output") {
            None => (Out::Str(""), false),
            Some(o) if o.kind() == Kind::String => (Out::Given(o), false),
            Some(o) => (Out::Text(compact_json(&o, &path.key("output"))?), false),
        },
        "output-error" => (
            opt_str(part, "errorText", path)?.map_or(Out::Str(""), Out::Given),
            true,
        ),
        _ => return Ok(()),
    };
    let result = c.result(id, None, ResultBody::Text(content), is_error, Vec::new());
    step.results.push(result);
    Ok(())
}

/// What names a source (a `source-*` part, or a v7 citation's `source`): its `url`, else the
/// provider's file id (`providerMetadata.openai.fileId`, `.anthropic.file_id`).
fn source_key<J: Json>(source: &J) -> Option<String> {
    let text = |v: Option<J>| v.and_then(|v| v.as_str().map(|s| s.into_owned()));
    let provider = |name: &str, key: &str| {
        let metadata = field(source, "providerMetadata")?;
        field(&field(&metadata, name)?, key)
    };
    text(field(source, "url"))
        .or_else(|| text(provider("openai", "fileId")))
        .or_else(|| text(provider("anthropic", "file_id")))
}

/// A citation from a source (a v7 `Citation`'s `source`, or a `source-url` / `source-document`
/// part) and, for a v7 `Citation`, the citation itself (`citedText`, `startIndex`, `endIndex`);
/// the provider's own citation object in `source.providerMetadata` fills the rest
/// (docs/formats/ai-sdk-ui.md "Citations").
fn citation<J: Json>(source: Option<J>, cite: Option<&J>) -> Out<J> {
    let get = |v: &Option<J>, key: &str| v.as_ref().and_then(|v| field(v, key));
    let metadata = get(&source, "providerMetadata");
    let anthropic = get(&metadata, "anthropic");
    let openai = get(&metadata, "openai");
    let given = |v: Option<J>| v.map(Out::Given);
    let document = get(&source, "sourceType")
        .and_then(|t| t.as_str().map(|t| t == "document"))
        .or_else(|| get(&source, "type").and_then(|t| t.as_str().map(|t| t == "source-document")))
        .unwrap_or(false);
    let mut out = Citation {
        r#type: given(get(&anthropic, "type")),
        cited_text: given(
            cite.and_then(|c| field(c, "citedText"))
                .or_else(|| get(&anthropic, "cited_text")),
        ),
        url: given(get(&source, "url")),
        title: given(get(&source, "title")),
        source: given(get(&anthropic, "source")),
        file_id: given(get(&openai, "fileId").or_else(|| get(&anthropic, "file_id"))),
        document_index: given(get(&anthropic, "document_index")),
        document_title: given(
            get(&anthropic, "document_title")
                .or_else(|| get(&source, "title").filter(|_| document)),
        ),
        start_index: None,
        end_index: None,
        unit: None,
    };
    let pairs: [(&str, &str, &'static str); 3] = [
        ("start_char_index", "end_char_index", "char"),
        ("start_page_number", "end_page_number", "page"),
        ("start_block_index", "end_block_index", "block"),
    ];
    let start = cite.and_then(|c| field(c, "startIndex"));
    let end = cite.and_then(|c| field(c, "endIndex"));
    if start.is_some() || end.is_some() {
        out.start_index = given(start);
        out.end_index = given(end);
        out.unit = Some(Out::Str("char"));
    } else if let Some((s, e, unit)) = pairs
        .iter()
        .find(|(s, e, _)| get(&anthropic, s).is_some() || get(&anthropic, e).is_some())
    {
        out.start_index = given(get(&anthropic, s));
        out.end_index = given(get(&anthropic, e));
        out.unit = Some(Out::Str(unit));
    } else if let Some(index) = get(&openai, "index") {
        out.start_index = Some(Out::Given(index));
        out.unit = Some(Out::Str("char"));
    }
    out.into_out()
}
