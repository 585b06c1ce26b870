//! The pieces of requests the writers share: contents, system prompts, media types.

use crate::error::text;
use crate::json::Json;
use crate::message::{PartType, Role};
use crate::prelude::*;

use super::{InMessage, InPart, Out};

/// The text of the system messages' text parts, in order (empty texts left out).
pub fn system_texts<J: Json>(messages: &[InMessage<J>]) -> Vec<J> {
    messages
        .iter()
        .filter(|m| m.role == Role::System)
        .flat_map(|m| m.parts.iter())
        .filter(|p| p.kind == PartType::Text)
        .filter_map(|p| p.text())
        .filter(|t| !t.is_empty_str())
        .collect()
}

/// `{type, text}`: a text part of type `ty`.
pub fn typed_text<J>(ty: &'static str, text: J) -> Out<J> {
    Out::Map(vec![("type", Out::Str(ty)), ("text", Out::Given(text))])
}

/// Texts as text blocks, `{text}` each (Bedrock's system blocks, Gemini's parts).
pub fn text_blocks<J>(texts: Vec<J>) -> Vec<Out<J>> {
    texts
        .into_iter()
        .map(|t| Out::Map(vec![("text", Out::Given(t))]))
        .collect()
}

/// A request body of `list` under `key` with the system prompt under its key, or the list alone
/// when there is no system prompt.
pub fn with_system<J>(
    list: Vec<Out<J>>,
    key: &'static str,
    system: Option<(&'static str, Out<J>)>,
) -> Out<J> {
    match system {
        Some(system) => Out::Map(vec![system, (key, Out::List(list))]),
        None => Out::List(list),
    }
}

/// Content as the formats write it: a lone text part (an object with a `text`, whose `type` is
/// `text_type` when one is given) as its string, else the parts as an array; none when there are
/// no parts.
pub fn content_value<J: Clone>(parts: Vec<Out<J>>, text_type: Option<&str>) -> Option<Out<J>> {
    if let [Out::Map(entries)] = parts.as_slice() {
        let typed = text_type.is_none_or(|ty| {
            entries
                .iter()
                .any(|(k, v)| *k == "type" && matches!(v, Out::Str(t) if *t == ty))
        });
        if let Some((_, text)) = entries.iter().find(|(k, _)| *k == "text").filter(|_| typed) {
            return Some(text.clone());
        }
    }
    (!parts.is_empty()).then_some(Out::List(parts))
}

/// A system or user message, `{role, content}` (see [`content_value`]), when it has content.
pub fn role_message<J: Clone>(role: Role, parts: Vec<Out<J>>, text_type: &str) -> Option<Out<J>> {
    let content = content_value(parts, Some(text_type))?;
    Some(Out::Map(vec![
        ("role", Out::Str(role.as_str())),
        ("content", content),
    ]))
}

/// A part's media type: `options.media` (`"png"` read as `"image/png"`), else `default`.
pub fn media<J: Json>(part: &InPart<J>, default: &'static str) -> Out<J> {
    match part.option("media") {
        Some(m) if m.as_str().is_some_and(|s| s.contains('/')) => Out::Given(m),
        Some(m) => match m.as_str() {
            Some(short) if !short.is_empty() => {
                let prefix = default.split('/').next().unwrap_or("application");
                Out::Text(text!(prefix, "/", short))
            }
            _ => Out::Str(default),
        },
        None => Out::Str(default),
    }
}

/// The media type of a part as text (see [`media`]).
pub fn media_text<J: Json>(part: &InPart<J>, default: &'static str) -> String {
    match media(part, default) {
        Out::Given(m) => m.as_str().map(|s| s.into_owned()).unwrap_or_default(),
        Out::Text(t) => t,
        _ => default.to_string(),
    }
}

/// `data:<media>;base64,<data>` split into media type and data.
pub fn split_data_url(url: &str) -> Option<(String, String)> {
    let rest = url.strip_prefix("data:")?;
    // The first ";base64,", found bytewise: `split_once` with a string pattern brings core's
    // two-way string search into the module (3 KB).
    const MARK: &[u8] = b";base64,";
    let at = rest
        .as_bytes()
        .windows(MARK.len())
        .position(|w| w == MARK)?;
    Some((
        rest.get(..at)?.to_string(),
        rest.get(at + MARK.len()..)?.to_string(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_data_url_splits_at_its_first_base64_mark() {
        let split = |url: &str| split_data_url(url);
        let pair = |a: &str, b: &str| Some((a.to_string(), b.to_string()));
        assert_eq!(
            split("data:image/png;base64,iVBOR"),
            pair("image/png", "iVBOR")
        );
        assert_eq!(split("data:a;base64,b;base64,c"), pair("a", "b;base64,c"));
        assert_eq!(split("data:;base64,"), pair("", ""));
        assert_eq!(split("data:éè;base64,ü"), pair("éè", "ü"));
        assert_eq!(split("data:image/png,plain"), None);
        assert_eq!(split("data:;base64"), None);
        assert_eq!(split("https://example.com/a;base64,b"), None);
    }
}
