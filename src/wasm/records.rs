//! Display-message records: `newDisplayMessage`, `changeDisplayMessage`,
//! `validateDisplayMessage` (Ecto cast and validation), with the `Changeset` type they return
//! (`records.d.ts`). Arguments are read in place; results leave through serde. (`toText`, the
//! records' search text, is a display function: `display.rs`.)
//!
//! In the module with the `records` feature only (part of `core`).

use super::input::Input;
use super::write::serde_result;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const RECORDS_TYPES: &str = include_str!("records.d.ts");

/// `create_changeset(conversation_id, attrs)`: casts and validates `attrs` into a new record.
#[wasm_bindgen(js_name = newDisplayMessage, unchecked_return_type = "Changeset")]
pub fn new_display_message(
    #[wasm_bindgen(js_name = conversationId, unchecked_param_type = "string | null")]
    conversation_id: JsValue,
    #[wasm_bindgen(unchecked_param_type = "object")] attrs: JsValue,
) -> Result<JsValue, JsValue> {
    let conversation_id = Input::optional(conversation_id);
    serde_result(crate::record::new_display_message(
        conversation_id.as_ref(),
        &Input::in_place(attrs),
    ))
}

/// `changeset(record, attrs)`: casts and validates `attrs` over an existing record.
#[wasm_bindgen(js_name = changeDisplayMessage, unchecked_return_type = "Changeset")]
pub fn change_display_message(
    #[wasm_bindgen(unchecked_param_type = "DisplayMessage | DisplayRecord")] record: JsValue,
    #[wasm_bindgen(unchecked_param_type = "object")] attrs: JsValue,
) -> Result<JsValue, JsValue> {
    serde_result(crate::record::change_display_message(
        &Input::in_place(record),
        &Input::in_place(attrs),
    ))
}

/// Validates a complete record, keeping its `id` and `inserted_at`.
#[wasm_bindgen(js_name = validateDisplayMessage, unchecked_return_type = "Changeset")]
pub fn validate_display_message(
    #[wasm_bindgen(unchecked_param_type = "DisplayMessage | DisplayRecord")] record: JsValue,
) -> Result<JsValue, JsValue> {
    serde_result(crate::record::validate_display_message(&Input::in_place(
        record,
    )))
}
