//! What the request writers share: [`Turns`], the messages of a block-based request as they
//! are merged, and the readers of parts' media.

use crate::error::text;
use crate::json::Json;
use crate::message::{PartType, Role};
use crate::prelude::*;

use super::{InMessage, InPart, Out};

/// A provider message being written: tool results first, then the other blocks.
#[derive(Debug)]
pub struct Turn<J> {
    pub role: Role,
    pub results: Vec<Out<J>>,
    pub blocks: Vec<Out<J>>,
}

impl<J> Turn<J> {
    /// The results, then the other blocks.
    pub fn content(self) -> Vec<Out<J>> {
        let mut content = self.results;
        content.extend(self.blocks);
        content
    }
}

/// The messages of a block-based request (Anthropic, Bedrock, Gemini) as they are written.
/// User-role content (user messages and tool results) is merged into a previous user turn, tool
/// results first; with `merge_all`, consecutive assistant (and system) messages merge too, for
/// formats that require the roles to alternate. Empty turns are never added.
#[derive(Debug)]
pub struct Turns<J> {
    pub list: Vec<Turn<J>>,
    merge_all: bool,
}

impl<J> Turns<J> {
    pub fn new(merge_all: bool) -> Turns<J> {
        Turns {
            list: Vec::new(),
            merge_all,
        }
    }

    /// Adds user-role content: tool results and other blocks.
    pub fn user(&mut self, results: Vec<Out<J>>, blocks: Vec<Out<J>>) {
        if results.is_empty() && blocks.is_empty() {
            return;
        }
        if let Some(last) = self.list.last_mut().filter(|t| t.role == Role::User) {
            last.results.extend(results);
            last.blocks.extend(blocks);
        } else {
            self.list.push(Turn {
                role: Role::User,
                results,
                blocks,
            });
        }
    }

    /// Adds an assistant or system message.
    pub fn push(&mut self, role: Role, blocks: Vec<Out<J>>) {
        if blocks.is_empty() {
            return;
        }
        if self.merge_all {
            if let Some(last) = self.list.last_mut().filter(|t| t.role == role) {
                last.blocks.extend(blocks);
                return;
            }
        }
        self.list.push(Turn {
            role,
            results: Vec::new(),
            blocks,
        });
    }

    /// The last turn, when it is the assistant's.
    pub fn last_assistant(&mut self) -> Option<&mut Turn<J>> {
        self.list.last_mut().filter(|t| t.role == Role::Assistant)
    }
}

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
