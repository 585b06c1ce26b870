//! The JavaScript boundary: the only module that touches `wasm_bindgen` and `JsValue`.
//!
//! Inputs arrive as plain `JsValue`s and are read in place through [`Js`], the core's [`Json`] view
//! of a JavaScript value, so strings and nested objects the core only moves go back to JavaScript
//! as the very same values. Outputs leave through one serializer, `json_compatible()`: plain
//! objects, never `Map`, and `null`, never `undefined`. Every failure becomes a real `Error` named
//! `ChatDisplayError` with `code` and `path`; nothing here can panic on input.

use crate::display;
use crate::error::{Error, ErrorCode, Path};
use crate::json::{Json, Kind, Number};
use js_sys::{Array, JsString, Reflect};
use serde::{Serialize, Serializer};
use std::borrow::Cow;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &'static str = r#"
/** A message role, which is also a display item's `message_type`. */
export type MessageType = "user" | "assistant" | "tool" | "system";

/** Any value `JSON.parse` can return. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** `LangChain.Message.ContentPart`. Only `text` and `thinking` parts are displayed. */
export interface ContentPart {
  type: "text" | "image_url" | "image" | "file" | "file_url" | "thinking" | "unsupported";
  content?: string | null;
  options?: { [key: string]: JsonValue } | JsonValue[] | null;
  citations?: JsonValue[] | null;
}

/** `LangChain.Message.ToolCall`. */
export interface ToolCall {
  call_id?: string | null;
  name?: string | null;
  /** Any JSON: usually an object, or a raw JSON string while a call streams. */
  arguments?: JsonValue;
  display_text?: string | null;
  status?: "incomplete" | "complete";
  type?: "function";
  index?: number | null;
  metadata?: { [key: string]: JsonValue } | null;
}

/** `LangChain.MessageExpansion` (langchain v0.14.1). */
export interface MessageExpansion {
  messages: Message[];
  result_content?: string | ContentPart | ContentPart[] | null;
}

/** `LangChain.Message.ToolResult`. Absent keys take the upstream defaults. */
export interface ToolResult {
  type?: "function";
  tool_call_id?: string | null;
  name?: string | null;
  content?: string | ContentPart[] | null;
  processed_content?: JsonValue;
  display_text?: string | null;
  is_error?: boolean | null;
  is_interrupt?: boolean | null;
  interrupt_data?: JsonValue;
  options?: JsonValue;
  message_expansion?: MessageExpansion | null;
}

/** `LangChain.Message`. `role` is required: it is never assumed. */
export interface Message {
  role: MessageType;
  content?: string | ContentPart[] | null;
  processed_content?: JsonValue;
  status?: "complete" | "cancelled" | "length" | "content_filtered" | "stream_error";
  index?: number | null;
  name?: string | null;
  tool_calls?: ToolCall[] | null;
  tool_results?: ToolResult[] | null;
  metadata?: { [key: string]: JsonValue } | null;
}

/** One displayable piece of a message (Sagents `extract_display_items/1`). */
export type DisplayItem =
  | { type: "text" | "thinking"; message_type: MessageType; content: { text: string } }
  | { type: "tool_call"; message_type: MessageType; content: ToolCallContent }
  | { type: "tool_result"; message_type: MessageType; content: ToolResultContent };

export interface ToolCallContent {
  call_id: string | null;
  name: string | null;
  arguments: JsonValue;
  display_text: string | null;
}

export interface ToolResultContent {
  tool_call_id: string | null;
  name: string | null;
  content: string;
  is_error: boolean;
  is_interrupt: boolean;
}

/** The ten content types of a display-message record. */
export type ContentType = "text" | "thinking" | "image" | "file_reference" | "structured_data"
  | "notification" | "error" | "tool_call" | "tool_result" | "todo_snapshot";

/** The six statuses of a display-message record. */
export type DisplayStatus = "pending" | "executing" | "completed" | "failed" | "interrupted" | "cancelled";

/** A display-message record (the Sagents DisplayMessage schema, as JSON). */
export interface DisplayMessage {
  id?: string;
  conversation_id: string | null;
  message_type: string | null;
  content_type: ContentType | string | null;
  content: { [key: string]: JsonValue } | null;
  tool_call_id: string | null;
  sequence: number | null;
  status: DisplayStatus | string | null;
  metadata: { [key: string]: JsonValue } | null;
  inserted_at?: string;
}

/** A record as `toDisplayMessages` makes it from one display item. */
export type DisplayRecord = {
  conversation_id: string | null;
  message_type: MessageType;
  sequence: number;
  metadata: { [key: string]: never };
} & (
  | { content_type: "text" | "thinking"; content: { text: string }; status: "completed"; tool_call_id: null }
  | { content_type: "tool_call"; content: ToolCallContent; status: "pending" | "completed" | "failed" | "interrupted"; tool_call_id: string | null }
  | { content_type: "tool_result"; content: ToolResultContent; status: "completed"; tool_call_id: string | null }
);

export interface ToDisplayMessagesOptions {
  conversation_id?: string | null;
}

export type ErrorCode = "invalid_input" | "unsupported_role" | "empty_expansion" | "invalid_expansion"
  | "invalid_expansion_role" | "missing_type" | "unknown_type" | "too_deep" | "unsupported_protocol";

/** What every function throws on bad input: a real `Error` with a stable `code` and the `path` of
 * the offending place (`$`, `$.tool_calls[1].call_id`, `$.messages[3].content[0]`). */
export interface ChatDisplayError extends Error {
  name: "ChatDisplayError";
  code: ErrorCode;
  path: string;
}
"#;

#[wasm_bindgen]
extern "C" {
    /// `Object.keys`, with a thrown exception returned as an error.
    #[wasm_bindgen(catch, js_namespace = Object, js_name = keys)]
    fn object_keys(object: &JsValue) -> Result<Array, JsValue>;
}

/// A JavaScript value seen through the core's [`Json`] view.
#[derive(Clone, Debug)]
pub struct Js(pub JsValue);

impl Json for Js {
    fn kind(&self) -> Kind {
        let v = &self.0;
        if v.is_null() || v.is_undefined() {
            Kind::Null
        } else if v.is_string() {
            Kind::String
        } else if v.as_bool().is_some() {
            Kind::Bool
        } else if v.as_f64().is_some() {
            Kind::Number
        } else if Array::is_array(v) {
            Kind::Array
        } else if v.is_object() && !v.is_function() {
            Kind::Object
        } else {
            Kind::Other
        }
    }

    fn get(&self, key: &str) -> Option<Self> {
        if self.kind() != Kind::Object {
            return None;
        }
        // A throwing getter or proxy trap reads as absent rather than escaping as a foreign error.
        Reflect::get(&self.0, &JsValue::from_str(key))
            .ok()
            .filter(|v| !v.is_undefined())
            .map(Js)
    }

    fn elements(&self) -> Option<Vec<Self>> {
        if !Array::is_array(&self.0) {
            return None;
        }
        let array: &Array = self.0.unchecked_ref();
        Some((0..array.length()).map(|i| Js(array.get(i))).collect())
    }

    fn as_str(&self) -> Option<Cow<'_, str>> {
        self.0.as_string().map(Cow::Owned)
    }

    fn as_bool(&self) -> Option<bool> {
        self.0.as_bool()
    }

    fn as_number(&self) -> Option<Number> {
        self.0.as_f64().map(Number::from_f64)
    }

    fn entries(&self) -> Option<Vec<(String, Self)>> {
        if self.kind() != Kind::Object {
            return None;
        }
        // A proxy whose `ownKeys` trap throws lists no keys, rather than letting the exception
        // escape through the module.
        let keys = object_keys(&self.0).ok()?;
        Some(
            keys.iter()
                .filter_map(|key| {
                    let name = key.as_string()?;
                    let value = Reflect::get(&self.0, &key).ok()?;
                    Some((name, Js(value)))
                })
                .collect(),
        )
    }

    fn is_empty_str(&self) -> bool {
        self.0
            .dyn_ref::<JsString>()
            .is_some_and(|s| s.length() == 0)
    }
}

/// The value goes back to JavaScript as itself (`serde_wasm_bindgen::preserve`).
impl Serialize for Js {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        serde_wasm_bindgen::preserve::serialize(&self.0, s)
    }
}

/// The `Error` JavaScript sees: `name` "ChatDisplayError", `code`, `path`, and the message.
fn to_js_error(error: &Error) -> JsValue {
    let js = js_sys::Error::new(&error.message);
    js.set_name("ChatDisplayError");
    let object: &JsValue = js.as_ref();
    // Setting a property on a fresh Error cannot fail; if it somehow did, the message still names
    // the code and path.
    let _ = Reflect::set(object, &"code".into(), &error.code.as_str().into());
    let _ = Reflect::set(object, &"path".into(), &error.path.as_str().into());
    js.into()
}

/// Every value leaving Rust goes through this one serializer: plain objects, `null` for nil.
fn to_js<T: Serialize>(value: &T) -> Result<JsValue, JsValue> {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(|e| {
            to_js_error(&Error::new(
                ErrorCode::InvalidInput,
                &Path::ROOT,
                format!("The result could not be converted to JavaScript: {e}."),
            ))
        })
}

fn run<T: Serialize>(result: crate::error::Result<T>) -> Result<JsValue, JsValue> {
    match result {
        Ok(value) => to_js(&value),
        Err(error) => Err(to_js_error(&error)),
    }
}

/// Sagents `extract_display_items/1`: the display items of one message, in display order.
#[wasm_bindgen(js_name = extractDisplayItems, unchecked_return_type = "DisplayItem[]")]
pub fn extract_display_items(
    #[wasm_bindgen(unchecked_param_type = "Message")] message: JsValue,
) -> Result<JsValue, JsValue> {
    run(display::extract_display_items(&Js(message)))
}

/// Display-message records for a message or a whole conversation, with tool call statuses derived
/// from the results that follow.
#[wasm_bindgen(js_name = toDisplayMessages, unchecked_return_type = "DisplayRecord[]")]
pub fn to_display_messages(
    #[wasm_bindgen(unchecked_param_type = "Message | Message[]")] messages: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "ToDisplayMessagesOptions | null")]
    options: JsValue,
) -> Result<JsValue, JsValue> {
    let options = Some(options).filter(|o| !o.is_undefined()).map(Js);
    run(display::to_display_messages(
        &Js(messages),
        options.as_ref(),
    ))
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

// ---------------------------------------------------------------------------------------------
// Provider wire formats (issue 9): fromProvider, detectProtocol, toProvider

#[wasm_bindgen(typescript_custom_section)]
const PROVIDERS_TYPES: &'static str = r#"
/** A provider wire format, named as Sycophant's `wire_protocol` names it. */
export type WireProtocol = "anthropic_messages" | "openai_completions" | "openai_responses"
  | "bedrock_converse" | "google_gemini";

/** `metadata` of a message read from a provider payload. `stop_reason` is the provider's raw stop
 * reason (response bodies only); `stop_details` is Anthropic's refusal detail. */
export type ProviderMetadata = {
  wire_protocol: WireProtocol;
  stop_reason?: JsonValue;
  stop_details?: JsonValue;
};

/** A LangChain message made by `fromProvider`: every key present. */
export interface ProviderMessage extends Message {
  role: MessageType;
  content: ContentPart[] | null;
  status: "complete" | "cancelled" | "length" | "content_filtered";
  tool_calls: ToolCall[];
  tool_results: ToolResult[] | null;
  metadata: ProviderMetadata;
}

/** A provider JSON object (a message, block, part or item). */
export type ProviderObject = { [key: string]: JsonValue };

/** What `toProvider` returns: the format's request array (`messages`, `input` or `contents`), or,
 * for Anthropic, Bedrock and Gemini when there are system messages, the request-body fields
 * `{system, messages}` / `{systemInstruction, contents}`. */
export type ProviderRequest =
  | ProviderObject[]
  | { system: string | ProviderObject[]; messages: ProviderObject[] }
  | { systemInstruction: ProviderObject; contents: ProviderObject[] };
"#;

/// `fromProvider`: a provider request body, response body or message array as LangChain messages.
#[wasm_bindgen(js_name = fromProvider, unchecked_return_type = "ProviderMessage[]")]
pub fn from_provider(
    #[wasm_bindgen(unchecked_param_type = "WireProtocol")] protocol: JsValue,
    #[wasm_bindgen(unchecked_param_type = "unknown")] payload: JsValue,
) -> Result<JsValue, JsValue> {
    run(crate::providers::from_provider(&Js(protocol), &Js(payload)))
}

/// `detectProtocol`: the wire format of a payload, from its shape, or `null`.
#[wasm_bindgen(js_name = detectProtocol, unchecked_return_type = "WireProtocol | null")]
pub fn detect_protocol(
    #[wasm_bindgen(unchecked_param_type = "unknown")] payload: JsValue,
) -> JsValue {
    match crate::providers::detect_protocol(&Js(payload)) {
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
    run(crate::providers::to_provider(&Js(protocol), &Js(messages)))
}
