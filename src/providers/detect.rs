//! `detectProtocol`: the format of a payload, from its shape.

use crate::json::{Json, Kind};

use super::{field, str_of, Format, Visit, WireProtocol};

/// `detectProtocol(payload)`: the format a payload is in, from its shape, or `None` when it is not
/// one of them (Elixir LangChain messages, Sycophant messages, anything else). A conversation of plain
/// `{role, content: string}` messages reads the same in every role-based format and is reported as
/// `openai_completions`.
pub fn detect_protocol<J: Json>(payload: &J) -> Option<WireProtocol> {
    if let Some(claimed) = claimed(payload) {
        return Some(claimed);
    }
    match payload.kind() {
        Kind::Object => detect_object(payload),
        Kind::Array => detect_list(&payload.elements().unwrap_or_default()),
        _ => None,
    }
}

/// The first format, in the registry's order, that claims the payload by a sign only its payloads
/// have ([`super::ReadPayload::claims`]): how a format is recognized without a rule here.
fn claimed<J: Json>(payload: &J) -> Option<WireProtocol> {
    struct Claims<'a, J>(&'a J);
    impl<J: Json> Visit for Claims<'_, J> {
        type Output = bool;
        fn visit<F: Format>(self, _: WireProtocol) -> bool {
            F::claims(self.0)
        }
    }
    if field(payload, "__type__").is_some() {
        return None;
    }
    WireProtocol::ALL
        .into_iter()
        .find(|protocol| protocol.visit(Claims(payload)))
}

fn has<J: Json>(value: &J, key: &str) -> bool {
    field(value, key).is_some()
}

fn is_list<J: Json>(value: &J, key: &str) -> bool {
    field(value, key).is_some_and(|v| v.kind() == Kind::Array)
}

/// Keys only a Gemini body has (beside `candidates` and `contents`): its system instruction, and
/// the prompt feedback of a blocked prompt (a body with no candidates at all), each under its
/// JSON and its proto name.
const GEMINI_KEYS: [&str; 4] = [
    "systemInstruction",
    "system_instruction",
    "promptFeedback",
    "prompt_feedback",
];

fn detect_object<J: Json>(payload: &J) -> Option<WireProtocol> {
    if has(payload, "__type__") {
        return None;
    }
    if is_list(payload, "candidates")
        || is_list(payload, "contents")
        || GEMINI_KEYS.iter().any(|key| has(payload, key))
    {
        return Some(WireProtocol::GoogleGemini);
    }
    if is_list(payload, "choices") {
        return Some(WireProtocol::OpenaiCompletions);
    }
    if field(payload, "output").is_some_and(|o| has(&o, "message")) || has(payload, "stopReason") {
        return Some(WireProtocol::BedrockConverse);
    }
    if is_list(payload, "output")
        || str_of(payload, "object").as_deref() == Some("response")
        || (has(payload, "input") && !has(payload, "messages"))
    {
        return Some(WireProtocol::OpenaiResponses);
    }
    if str_of(payload, "type").as_deref() == Some("message") && has(payload, "role") {
        // An Anthropic response and a Responses message item share `type: "message"`: their
        // parts tell them apart, and only the Anthropic response has `stop_reason`.
        return match detect_content(payload) {
            Some(Sign::Format(p)) => Some(p),
            _ if payload.get("stop_reason").is_some() => Some(WireProtocol::AnthropicMessages),
            _ => Some(WireProtocol::OpenaiResponses),
        };
    }
    if has(payload, "stop_reason") && has(payload, "content") {
        return Some(WireProtocol::AnthropicMessages);
    }
    if let Some(messages) = field(payload, "messages").and_then(|m| m.elements()) {
        if let Some(system) = field(payload, "system") {
            match system.kind() {
                Kind::String => return Some(WireProtocol::AnthropicMessages),
                Kind::Array => {
                    let blocks = system.elements().unwrap_or_default();
                    if blocks.iter().any(|b| has(b, "type")) {
                        return Some(WireProtocol::AnthropicMessages);
                    }
                    if !blocks.is_empty() {
                        return Some(WireProtocol::BedrockConverse);
                    }
                }
                _ => {}
            }
        }
        return detect_list(&messages);
    }
    if has(payload, "parts") {
        return Some(parts_format(payload));
    }
    if has(payload, "role") || has(payload, "type") {
        return detect_list(core::slice::from_ref(payload));
    }
    None
}

/// Each element votes; the first decisive sign wins. Any LangChain or Sycophant sign gives `None`.
fn detect_list<J: Json>(items: &[J]) -> Option<WireProtocol> {
    if items.is_empty() {
        return None;
    }
    let mut plain = true;
    let mut found = None;
    for item in items {
        let sign = match item.kind() {
            Kind::Object => detect_item(item),
            Kind::Array if is_tuple(item) => Sign::Format(WireProtocol::LangchainJs),
            _ => return None,
        };
        match sign {
            Sign::Foreign => return None,
            Sign::Format(p) => {
                if found.is_none() {
                    found = Some(p);
                }
            }
            Sign::Plain => {}
            Sign::Unknown => plain = false,
        }
    }
    match found {
        Some(p) => Some(p),
        None if plain => Some(WireProtocol::OpenaiCompletions),
        None => None,
    }
}

/// A LangChain.js `[type, content]` tuple (a `BaseMessageLike`): two elements, the first a
/// message type `coerceMessageLikeToMessage` takes (docs/formats/langchain-js.md).
fn is_tuple<J: Json>(item: &J) -> bool {
    let items = item.elements().unwrap_or_default();
    items.len() == 2
        && items[0].as_str().is_some_and(|t| {
            matches!(
                &*t,
                "human" | "user" | "ai" | "assistant" | "system" | "developer"
            )
        })
}

/// A message with `parts`: an AI SDK UIMessage when its parts have a string `type` (or, with none,
/// when it has an `id` and no Gemini role), else Gemini `contents`, whose parts are one-key
/// objects without a `type` (docs/formats/ai-sdk-ui.md "Recognizing it").
fn parts_format<J: Json>(item: &J) -> WireProtocol {
    let parts = field(item, "parts").and_then(|p| p.elements());
    let typed = parts.as_ref().is_some_and(|list| {
        list.first()
            .is_some_and(|p| field(p, "type").is_some_and(|t| t.kind() == Kind::String))
    });
    let empty_ui = parts.as_ref().is_some_and(|list| list.is_empty())
        && has(item, "id")
        && str_of(item, "role").as_deref() != Some("model");
    if typed || empty_ui {
        WireProtocol::AiSdkUi
    } else {
        WireProtocol::GoogleGemini
    }
}

enum Sign {
    /// Decisively this format.
    Format(WireProtocol),
    /// `{role, content: string}` that every role-based format shares.
    Plain,
    /// LangChain, Sycophant or LangGraph: not a provider format.
    Foreign,
    /// Nothing recognizable.
    Unknown,
}

const RESPONSES_ITEMS: [&str; 6] = [
    "function_call",
    "function_call_output",
    "reasoning",
    "custom_tool_call",
    "custom_tool_call_output",
    "item_reference",
];

const BEDROCK_KEYS: [&str; 9] = [
    "toolUse",
    "toolResult",
    "reasoningContent",
    "cachePoint",
    "guardContent",
    "citationsContent",
    "searchResult",
    "document",
    "video",
];

const ANTHROPIC_BLOCKS: [&str; 8] = [
    "tool_use",
    "tool_result",
    "thinking",
    "redacted_thinking",
    "server_tool_use",
    "document",
    "search_result",
    "container_upload",
];

fn detect_item<J: Json>(item: &J) -> Sign {
    if has(item, "__type__") || has(item, "tool_results") {
        return Sign::Foreign;
    }
    // LangChain.js: serialized (`lc`, `kwargs`), stored (`type` and a `data` object) or plain
    // (`type` a message type): docs/formats/langchain-js.md "Recognizing it".
    if (has(item, "lc") && has(item, "kwargs"))
        || field(item, "data").is_some_and(|d| d.kind() == Kind::Object && has(item, "type"))
        || matches!(
            str_of(item, "type").as_deref(),
            Some("human" | "ai" | "tool" | "system" | "remove" | "generic")
        )
    {
        return Sign::Format(WireProtocol::LangchainJs);
    }
    if has(item, "lc") || has(item, "kwargs") {
        return Sign::Foreign;
    }
    if has(item, "parts") {
        return Sign::Format(parts_format(item));
    }
    if let Some(ty) = str_of(item, "type") {
        if RESPONSES_ITEMS.contains(&ty.as_str()) || ty.ends_with("_call") || ty == "message" {
            return Sign::Format(WireProtocol::OpenaiResponses);
        }
    }
    let role = str_of(item, "role");
    match role.as_deref() {
        Some("model") => return Sign::Format(WireProtocol::GoogleGemini),
        Some("tool" | "function") => return Sign::Format(WireProtocol::OpenaiCompletions),
        Some("developer") => {
            return match field(item, "content").map(|c| c.kind()) {
                Some(Kind::String) => Sign::Plain,
                _ => detect_content(item).unwrap_or(Sign::Unknown),
            }
        }
        _ => {}
    }
    if let Some(calls) = field(item, "tool_calls").and_then(|c| c.elements()) {
        if calls.iter().any(|c| has(c, "function") || has(c, "custom")) {
            return Sign::Format(WireProtocol::OpenaiCompletions);
        }
        if calls.iter().any(|c| has(c, "args")) {
            return Sign::Format(WireProtocol::LangchainJs);
        }
        if !calls.is_empty() {
            return Sign::Foreign;
        }
    }
    if has(item, "reasoning_content") || has(item, "refusal") || has(item, "function_call") {
        return Sign::Format(WireProtocol::OpenaiCompletions);
    }
    if role.is_none() {
        return Sign::Unknown;
    }
    match field(item, "content") {
        None => {
            if matches!(role.as_deref(), Some("assistant")) {
                Sign::Format(WireProtocol::OpenaiCompletions)
            } else {
                Sign::Unknown
            }
        }
        Some(c) if c.kind() == Kind::String => Sign::Plain,
        Some(_) => detect_content(item).unwrap_or(Sign::Unknown),
    }
}

/// The sign of a message's content array.
fn detect_content<J: Json>(item: &J) -> Option<Sign> {
    let blocks = field(item, "content")?.elements()?;
    let mut plain = !blocks.is_empty();
    for block in &blocks {
        if block.kind() != Kind::Object {
            return Some(Sign::Unknown);
        }
        match str_of(block, "type") {
            None => {
                if BEDROCK_KEYS.iter().any(|k| has(block, k))
                    || has(block, "text")
                    || field(block, "image").is_some_and(|i| has(&i, "format"))
                {
                    return Some(Sign::Format(WireProtocol::BedrockConverse));
                }
                return Some(Sign::Unknown);
            }
            Some(ty) => {
                let ty = ty.as_str();
                if matches!(
                    ty,
                    "input_text" | "output_text" | "input_image" | "input_file" | "summary_text"
                ) {
                    return Some(Sign::Format(WireProtocol::OpenaiResponses));
                }
                if matches!(ty, "image_url" | "input_audio" | "refusal")
                    || (ty == "file" && has(block, "file"))
                {
                    return Some(Sign::Format(WireProtocol::OpenaiCompletions));
                }
                if ANTHROPIC_BLOCKS.contains(&ty)
                    || ty.ends_with("_tool_result")
                    || (ty == "image" && has(block, "source"))
                {
                    return Some(Sign::Format(WireProtocol::AnthropicMessages));
                }
                if ty == "text" {
                    if has(block, "content") && !has(block, "text") {
                        return Some(Sign::Foreign);
                    }
                    if has(block, "citations") || has(block, "cache_control") {
                        return Some(Sign::Format(WireProtocol::AnthropicMessages));
                    }
                } else {
                    plain = false;
                    if matches!(
                        ty,
                        "thinking" | "image" | "file" | "unsupported" | "file_url"
                    ) {
                        return Some(Sign::Foreign);
                    }
                }
            }
        }
    }
    // Text blocks only: `{type: "text", text}` is shared by OpenAI and Anthropic.
    plain.then_some(Sign::Plain)
}
