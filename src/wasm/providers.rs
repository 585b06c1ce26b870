//! The provider wire formats: `fromProvider`, `detectProtocol`, `toProvider`, with their types in
//! `providers.d.ts`. Arguments are read in place; results leave through serde.
//!
//! In the module with the `providers` feature only (the `chat-display` entry; not `core`).

use super::input::Input;
use super::write::serde_result;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const PROVIDERS_TYPES: &str = include_str!("providers.d.ts");

/// `WireProtocol`: the registry's names, one per row.
#[wasm_bindgen(typescript_custom_section)]
const WIRE_PROTOCOL_TYPE: &str = crate::registry::WIRE_PROTOCOL_TS;

/// `fromProvider`: a provider request body, response body or message array as LangChain messages.
#[wasm_bindgen(js_name = fromProvider, unchecked_return_type = "ProviderMessage[]")]
pub fn from_provider(
    #[wasm_bindgen(unchecked_param_type = "WireProtocol")] protocol: JsValue,
    #[wasm_bindgen(unchecked_param_type = "unknown")] payload: JsValue,
) -> Result<JsValue, JsValue> {
    serde_result(crate::providers::from_provider(
        &Input::in_place(protocol),
        &Input::in_place(payload),
    ))
}

/// `detectProtocol`: the wire format of a payload, from its shape, or `null`.
#[wasm_bindgen(js_name = detectProtocol, unchecked_return_type = "WireProtocol | null")]
pub fn detect_protocol(
    #[wasm_bindgen(unchecked_param_type = "unknown")] payload: JsValue,
) -> JsValue {
    match crate::providers::detect_protocol(&Input::in_place(payload)) {
        Some(protocol) => JsValue::from_str(protocol.as_str()),
        None => JsValue::NULL,
    }
}

/// `toProvider`: LangChain messages as a provider's request array.
#[wasm_bindgen(js_name = toProvider, unchecked_return_type = "ProviderRequest")]
pub fn to_provider(
    #[wasm_bindgen(unchecked_param_type = "WireProtocol")] protocol: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Message[]")] messages: JsValue,
) -> Result<JsValue, JsValue> {
    serde_result(crate::providers::to_provider(
        &Input::in_place(protocol),
        &Input::in_place(messages),
    ))
}
