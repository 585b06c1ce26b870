//! Sycophant messages: the constructors `userMessage`, `assistantMessage`, `systemMessage`,
//! `toolResultMessage` and the decoder `decodeSycophant`, with the types only they take
//! (`sycophant.d.ts`; the message types themselves are the display functions',
//! `sycophant_message.d.ts`). Arguments are read in place; results leave through serde.
//!
//! In the module with the `sycophant` feature only (part of `core`).

use super::input::Input;
use super::write::serde_result;
use crate::sycophant;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const SYCOPHANT_INPUT_TYPES: &str = include_str!("sycophant.d.ts");

/// `Sycophant.Message.user/1`: `{__type__: "Message", role: "user", content}` as canonical JSON.
#[wasm_bindgen(
    js_name = userMessage,
    unchecked_return_type = "SycophantMessage & { role: \"user\" }"
)]
pub fn user_message(
    #[wasm_bindgen(unchecked_param_type = "SycophantContentInput")] content: JsValue,
) -> Result<JsValue, JsValue> {
    serde_result(sycophant::user(&Input::in_place(content)))
}

/// `Sycophant.Message.assistant/1`.
#[wasm_bindgen(
    js_name = assistantMessage,
    unchecked_return_type = "SycophantMessage & { role: \"assistant\" }"
)]
pub fn assistant_message(
    #[wasm_bindgen(unchecked_param_type = "SycophantContentInput")] content: JsValue,
) -> Result<JsValue, JsValue> {
    serde_result(sycophant::assistant(&Input::in_place(content)))
}

/// `Sycophant.Message.system/1`.
#[wasm_bindgen(
    js_name = systemMessage,
    unchecked_return_type = "SycophantMessage & { role: \"system\" }"
)]
pub fn system_message(
    #[wasm_bindgen(unchecked_param_type = "SycophantContentInput")] content: JsValue,
) -> Result<JsValue, JsValue> {
    serde_result(sycophant::system(&Input::in_place(content)))
}

/// `Sycophant.Message.tool_result/2`: the result of `toolCall`, with `tool_call_id` and
/// `metadata.tool_name` set from it.
#[wasm_bindgen(
    js_name = toolResultMessage,
    unchecked_return_type = "SycophantMessage & { role: \"tool_result\"; tool_call_id: string; metadata: { tool_name: string } }"
)]
pub fn tool_result_message(
    #[wasm_bindgen(js_name = toolCall, unchecked_param_type = "SycophantToolCallInput")]
    tool_call: JsValue,
    #[wasm_bindgen(unchecked_param_type = "SycophantContentInput")] result: JsValue,
) -> Result<JsValue, JsValue> {
    serde_result(sycophant::tool_result(
        &Input::in_place(tool_call),
        &Input::in_place(result),
    ))
}

/// `Sycophant.Serializable.Decoder.from_map/1`, returning the canonical JSON again.
#[wasm_bindgen(js_name = decodeSycophant, unchecked_return_type = "SycophantMessage")]
pub fn decode_sycophant(
    #[wasm_bindgen(unchecked_param_type = "object")] json: JsValue,
) -> Result<JsValue, JsValue> {
    serde_result(sycophant::decode(&Input::in_place(json)))
}
