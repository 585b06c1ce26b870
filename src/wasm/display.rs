//! The display functions, in every build (the `chat-display/display` entry has these alone):
//! `extractDisplayItems` and `toDisplayMessages`, which read their input through the tape and
//! write their results through its glue ([`super::tape`]), `isChatDisplayError`, and `toText`.
//! Their types (`display.d.ts`, and `sycophant_message.d.ts` for the Sycophant messages they also
//! take) are the ones every other group builds on.

use super::error::chat_display_error;
use super::input::Input;
use super::tape::{items_from_words, records_from_words, Tape};
use super::write::serde_result;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

#[wasm_bindgen(typescript_custom_section)]
const DISPLAY_TYPES: &str = include_str!("display.d.ts");

#[wasm_bindgen(typescript_custom_section)]
const SYCOPHANT_MESSAGE_TYPES: &str = include_str!("sycophant_message.d.ts");

/// Sagents `extract_display_items/1`: the display items of one message, in display order.
#[wasm_bindgen(js_name = extractDisplayItems, unchecked_return_type = "DisplayItem[]")]
pub fn extract_display_items(
    #[wasm_bindgen(unchecked_param_type = "Message | SycophantMessage")] message: JsValue,
) -> Result<JsValue, JsValue> {
    let tape = Tape::read(&message, false);
    let root = tape
        .as_ref()
        .map_or_else(|| Input::in_place(message), Tape::root);
    let result = crate::display::extract_display_items(&root);
    let result = result
        .map(|items| items_from_words(&items))
        .map_err(|e| chat_display_error(&e));
    Tape::done(tape);
    result
}

/// Display-message records for a message or a whole conversation, with tool call statuses derived
/// from the results that follow.
#[wasm_bindgen(js_name = toDisplayMessages, unchecked_return_type = "DisplayRecord[]")]
pub fn to_display_messages(
    #[wasm_bindgen(
        unchecked_param_type = "Message | SycophantMessage | (Message | SycophantMessage)[]"
    )]
    messages: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "ToDisplayMessagesOptions | null")]
    options: JsValue,
) -> Result<JsValue, JsValue> {
    let options = Input::optional(options);
    let tape = Tape::read(&messages, true);
    let root = tape
        .as_ref()
        .map_or_else(|| Input::in_place(messages), Tape::root);
    let result = crate::display::to_display_messages(&root, options.as_ref());
    let result = result
        .map(|records| records_from_words(&records))
        .map_err(|e| chat_display_error(&e));
    Tape::done(tape);
    result
}

/// True when `error` is an error this module threw.
#[wasm_bindgen(js_name = isChatDisplayError, unchecked_return_type = "error is ChatDisplayError")]
pub fn is_chat_display_error(
    #[wasm_bindgen(unchecked_param_type = "unknown")] error: JsValue,
) -> bool {
    error
        .dyn_ref::<js_sys::Error>()
        .is_some_and(|e| e.name() == "ChatDisplayError")
}

/// `to_text/1`: a record's search text. Never throws.
#[wasm_bindgen(js_name = toText, unchecked_return_type = "string | null")]
pub fn to_text(
    #[wasm_bindgen(unchecked_param_type = "DisplayMessage | DisplayRecord")] record: JsValue,
) -> Result<JsValue, JsValue> {
    serde_result(Ok(crate::text::to_text(&Input::in_place(record))))
}
