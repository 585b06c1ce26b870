//! Search text for display-message records: the template's `to_text/1` (docs/API.md "toText") of a
//! record ([`to_text`]) or of the record a display item makes ([`item_text`]), with Elixir string
//! interpolation ([`interpolate`]) and `Kernel.inspect/1` ([`crate::elixir::inspect`] with
//! [`ToText`]) rendered exactly as upstream prints JSON values.
//!
//! `to_text` never fails. Where upstream would crash (a map passed to string interpolation, a
//! non-map image content, a non-list `todos`) the text is `""`. Two deviations (docs/DECISIONS.md
//! "toText"): maps of any size are sorted by key, and nothing is cut short except nesting deeper
//! than [`crate::json::MAX_DEPTH`] and what lies past the work [`crate::elixir::BUDGET`], which
//! render as `...`. Values JSON cannot express (JavaScript functions, symbols, bigints, `NaN`,
//! `±Infinity`) read as `null`, as `JSON.stringify` writes them in arrays.

use crate::display::{ContentType, ItemContent};
use crate::elixir::{inspect_onto, interpolate, ToText};
use crate::error::text;
use crate::json::{Json, Kind};
use crate::prelude::*;
use serde::{Serialize, Serializer};

/// What `toText` returns: a value of the record handed back as is (the `"text"` of a text record,
/// an image's caption), or a string built here.
#[derive(Clone, Debug)]
pub enum Text<J> {
    Given(J),
    Built(String),
}

impl<J: Json> Text<J> {
    /// The text as a Rust string when it is one (a given non-string value gives `None`).
    pub fn as_string(&self) -> Option<String> {
        match self {
            Text::Given(j) => j.as_str().map(|s| s.into_owned()),
            Text::Built(s) => Some(s.clone()),
        }
    }
}

impl<J: Serialize> Serialize for Text<J> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Text::Given(j) => j.serialize(s),
            Text::Built(text) => s.serialize_str(text),
        }
    }
}

/// `to_text/1`: the search text of a display-message record. The first matching row of
/// docs/API.md "toText" wins; anything else gives `""`.
///
/// ```
/// use chat_display::text::to_text;
/// let record = serde_json::json!({
///     "content_type": "tool_call",
///     "content": {"call_id": "1", "name": "search", "arguments": {"q": "elixir", "limit": 5}}
/// });
/// assert_eq!(
///     to_text(&&record).as_string().unwrap(),
///     r#"Tool call: search(%{"limit" => 5, "q" => "elixir"})"#
/// );
/// ```
pub fn to_text<J: Json>(record: &J) -> Text<J> {
    render(record).unwrap_or_else(|| Text::Built(String::new()))
}

/// The matching row's text, or `None` for the catch-all and where upstream crashes.
fn render<J: Json>(record: &J) -> Option<Text<J>> {
    let content_type = record.get("content_type")?;
    let content_type = content_type.as_str()?;
    // `get` on a non-object is `None`: the map patterns of the template do not match.
    let content = record.get("content").filter(|c| c.kind() == Kind::Object);
    let key = |name: &str| content.as_ref().and_then(|c| c.get(name));
    match ContentType::parse(&content_type)? {
        ContentType::Text
        | ContentType::Thinking
        | ContentType::Notification
        | ContentType::Error => key("text").map(Text::Given),
        ContentType::Image => {
            // `Map.get(content, "caption") || Map.get(content, "alt_text") || ""`; a content that is
            // not a map raises BadMapError upstream.
            content.as_ref()?;
            let truthy =
                |v: &J| !matches!(v.kind(), Kind::Null | Kind::Other) && v.as_bool() != Some(false);
            key("caption")
                .filter(truthy)
                .or_else(|| key("alt_text").filter(truthy))
                .map(Text::Given)
        }
        ContentType::FileReference => {
            Some(Text::Built(text!("File: ", interpolate(&key("name")?)?)))
        }
        ContentType::StructuredData => {
            content.as_ref()?;
            let format = match key("format") {
                Some(format) => interpolate(&format)?,
                None => String::new(),
            };
            Some(Text::Built(text!("Data: ", format)))
        }
        ContentType::ToolCall => {
            let name = interpolate(&key("name")?)?;
            let mut text = String::new();
            tool_call_onto(&mut text, &name, Some(&key("arguments")?));
            Some(Text::Built(text))
        }
        ContentType::ToolResult => {
            let name = interpolate(&key("name")?)?;
            let body = interpolate(&key("content")?)?;
            let mut text = String::new();
            tool_result_onto(&mut text, &name, |out| out.push_str(&body));
            Some(Text::Built(text))
        }
        ContentType::TodoSnapshot => match key("summary").filter(|s| s.kind() == Kind::Object) {
            Some(summary) => {
                let count = |name: &str| match summary.get(name) {
                    Some(v) => interpolate(&v),
                    None => Some("0".to_string()),
                };
                Some(Text::Built(text!(
                    "Todo list: ",
                    count("pending")?,
                    " pending, ",
                    count("in_progress")?,
                    " in progress, ",
                    count("completed")?,
                    " completed"
                )))
            }
            None => {
                // `length/1` of anything but a list raises ArgumentError upstream.
                let todos = key("todos")?.elements()?;
                Some(Text::Built(text!("Todo list (", todos.len(), " items)")))
            }
        },
    }
}

/// [`to_text`] of the record `toDisplayMessages` makes of a display item, without making the
/// record (what `Transcript` does for the records of the messages it holds): a text or thinking
/// item's text as given, else the text built, in `buffer` (cleared first, so that a caller can
/// reuse one for many records).
pub fn item_text<J: Json>(item: ItemContent<J>, mut buffer: String) -> Text<J> {
    buffer.clear();
    // A name is a string or null here (the message reader checked it), so it always interpolates.
    let name = |name: Option<J>| name.as_ref().and_then(interpolate).unwrap_or_default();
    match item {
        ItemContent::Text { text }
        | ItemContent::Thinking { text }
        | ItemContent::Notification { text } => return Text::Given(text),
        // An image record with neither `caption` nor `alt_text` (docs/API.md "toText").
        ItemContent::Image { .. } | ItemContent::ImageRef { .. } => {}
        // `File: name` (a null name interpolates as "").
        ItemContent::FileReference { name: file, .. } => {
            buffer.push_str("File: ");
            buffer.push_str(&name(file));
        }
        ItemContent::ToolCall {
            name: called,
            arguments,
            ..
        } => tool_call_onto(&mut buffer, &name(called), arguments.as_ref()),
        ItemContent::ToolResult {
            name: from,
            content,
            ..
        } => tool_result_onto(&mut buffer, &name(from), |out| content.push_onto(out)),
    }
    Text::Built(buffer)
}

/// A tool call's text, `Tool call: name(arguments)`, with the arguments inspected (`None` is
/// null), appended to `out`.
fn tool_call_onto<J: Json>(out: &mut String, name: &str, arguments: Option<&J>) {
    out.push_str("Tool call: ");
    out.push_str(name);
    out.push('(');
    match arguments {
        Some(arguments) => inspect_onto(out, arguments, ToText),
        None => out.push_str("nil"),
    }
    out.push(')');
}

/// A tool result's text, `Tool result from name: content`, the content written by `content`,
/// appended to `out`.
fn tool_result_onto(out: &mut String, name: &str, content: impl FnOnce(&mut String)) {
    out.push_str("Tool result from ");
    out.push_str(name);
    out.push_str(": ");
    content(out);
}

#[cfg(test)]
mod tests {
    use super::to_text;
    use crate::elixir::tests::{reading, Lazy};
    use crate::elixir::BUDGET;
    use crate::prelude::*;

    #[test]
    fn arguments_of_objects_shared_at_every_level_give_a_bounded_text() {
        // 2^21 and 2^31 values written out in full: toText took 2.5 s and 10 MB at 20 levels.
        for levels in [20, 30] {
            let record = Lazy::Map(vec![
                ("content_type", Lazy::Str("tool_call")),
                (
                    "content",
                    Lazy::Map(vec![
                        ("name", Lazy::Str("t")),
                        ("arguments", Lazy::Shared(levels)),
                    ]),
                ),
            ]);
            let (text, reads) = reading(|| to_text(&record).as_string().unwrap_or_default());
            assert!(reads <= BUDGET.values + 8, "{levels} levels: {reads} reads");
            assert!(text.starts_with("Tool call: t(%{\"a\" => %{") && text.ends_with("})"));
            assert!(text.contains(", ...}") && text.len() < BUDGET.bytes);
        }
    }
}
