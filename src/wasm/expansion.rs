//! Tool-result expansion (langchain v0.14.1 `MessageExpansion` and
//! `Steps.expand_tool_results/2`): `expand`, `isExpandable`, `expandToolResults`, with their
//! types in `expansion.d.ts`. Arguments are read in place; results leave through serde.
//!
//! In the module with the `expansion` feature only (part of `core`).

use super::input::Input;
use super::write::serde_result;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const EXPANSION_TYPES: &str = include_str!("expansion.d.ts");

/// `MessageExpansion.expand/3`: a tool result that expands into `messages`, its content the
/// normalized `fallbackContent`.
#[wasm_bindgen(js_name = expand, unchecked_return_type = "ExpandingToolResult")]
pub fn expand(
    #[wasm_bindgen(
        js_name = fallbackContent,
        unchecked_param_type = "string | ContentPart | ContentPart[]"
    )]
    fallback_content: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Message[]")] messages: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "ExpandOptions | null")] options: JsValue,
) -> Result<JsValue, JsValue> {
    let options = Input::optional(options);
    serde_result(crate::expand::expand(
        &Input::in_place(fallback_content),
        &Input::in_place(messages),
        options.as_ref(),
    ))
}

/// `MessageExpansion.expandable?/1`: an expansion, and `is_interrupt` exactly false (or absent).
#[wasm_bindgen(
    js_name = isExpandable,
    unchecked_return_type = "toolResult is ExpandableToolResult"
)]
pub fn is_expandable(
    #[wasm_bindgen(js_name = toolResult, unchecked_param_type = "ToolResult")] tool_result: JsValue,
) -> Result<JsValue, JsValue> {
    serde_result(crate::expand::is_expandable(&Input::in_place(tool_result)))
}

/// `Steps.expand_tool_results/2` without pipeline tags, on a chain or a bare array of messages.
/// Its overloads are declared in `expansion.d.ts`, which one generated signature cannot express.
#[wasm_bindgen(js_name = expandToolResults, skip_typescript)]
pub fn expand_tool_results(input: JsValue) -> Result<JsValue, JsValue> {
    serde_result(crate::expand::expand_tool_results(&Input::in_place(input)))
}
