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
use crate::sycophant;
use js_sys::{Array, JsString, Object, Reflect};
use serde::{Serialize, Serializer};
use std::borrow::Cow;
use std::cell::RefCell;
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
    /// `Object.keys`, with a throwing proxy trap caught.
    #[wasm_bindgen(catch, js_namespace = Object, js_name = keys)]
    fn object_keys(value: &JsValue) -> Result<Array, JsValue>;
    /// `Array.isArray`, which throws on a revoked proxy.
    #[wasm_bindgen(catch, js_namespace = Array, js_name = isArray)]
    fn array_is_array(value: &JsValue) -> Result<bool, JsValue>;
}

/// `Array.isArray(value)`; a revoked proxy is not an array.
fn is_array(value: &JsValue) -> bool {
    array_is_array(value).unwrap_or(false)
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
        } else if is_array(v) {
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
        if !is_array(&self.0) {
            return None;
        }
        // Read through Reflect so a throwing proxy trap or getter reads as undefined (absent)
        // instead of escaping as a foreign exception.
        let length = Reflect::get(&self.0, &"length".into())
            .ok()
            .and_then(|l| l.as_f64())
            .unwrap_or(0.0) as u32;
        Some(
            (0..length)
                .map(|i| Js(Reflect::get_u32(&self.0, i).unwrap_or(JsValue::UNDEFINED)))
                .collect(),
        )
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

    fn empty_object() -> Self {
        Js(Object::new().into())
    }
}

thread_local! {
    /// The JavaScript value a [`Js`] hands to [`JsSerializer`] while it serializes itself.
    static PRESERVED: RefCell<Option<JsValue>> = const { RefCell::new(None) };
}

/// The newtype name by which [`Js`] tells [`JsSerializer`] to take its value as it is.
const PRESERVE: &str = "chat_display::wasm::Js";

/// The value goes back to JavaScript as itself: [`JsSerializer`] takes it unchanged.
impl Serialize for Js {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        PRESERVED.with(|slot| slot.replace(Some(self.0.clone())));
        s.serialize_newtype_struct(PRESERVE, &())
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
    value.serialize(JsSerializer).map_err(|e| {
        to_js_error(&Error::new(
            ErrorCode::InvalidInput,
            &Path::ROOT,
            format!("The result could not be converted to JavaScript: {}.", e.0),
        ))
    })
}

// ---------------------------------------------------------------------------------------------
// The serializer: serde values to plain JavaScript objects, arrays and primitives
// ---------------------------------------------------------------------------------------------

/// Turns serde values into JavaScript values: maps and structs into plain objects (never `Map`),
/// sequences into arrays, nil into `null`, and a [`Js`] into itself. Object keys that come from
/// the input are defined as own properties, so a `__proto__` key stays a key instead of replacing
/// the new object's prototype (assignment, as `serde-wasm-bindgen` does, would run the setter).
struct JsSerializer;

#[derive(Debug)]
struct SerError(String);

impl std::fmt::Display for SerError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SerError {}

impl serde::ser::Error for SerError {
    fn custom<T: std::fmt::Display>(msg: T) -> Self {
        SerError(msg.to_string())
    }
}

/// Sets `object[key] = value` as an own data property, whatever the key.
fn define(object: &Object, key: &JsValue, value: &JsValue) {
    let is_proto =
        key.dyn_ref::<JsString>().is_some_and(|k| k.length() == 9) && *key == "__proto__";
    if is_proto {
        let descriptor = Object::new();
        let _ = Reflect::set(&descriptor, &"value".into(), value);
        for flag in ["writable", "enumerable", "configurable"] {
            let _ = Reflect::set(&descriptor, &flag.into(), &JsValue::TRUE);
        }
        let _ = Reflect::define_property(object, key, &descriptor);
    } else {
        // A plain object made here has no setters but `__proto__`; setting cannot fail.
        let _ = Reflect::set(object, key, value);
    }
}

struct SeqSerializer(Array);

struct MapSerializer {
    object: Object,
    key: Option<JsValue>,
}

impl serde::ser::SerializeSeq for SeqSerializer {
    type Ok = JsValue;
    type Error = SerError;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), SerError> {
        self.0.push(&value.serialize(JsSerializer)?);
        Ok(())
    }
    fn end(self) -> Result<JsValue, SerError> {
        Ok(self.0.into())
    }
}

impl serde::ser::SerializeTuple for SeqSerializer {
    type Ok = JsValue;
    type Error = SerError;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), SerError> {
        serde::ser::SerializeSeq::serialize_element(self, value)
    }
    fn end(self) -> Result<JsValue, SerError> {
        Ok(self.0.into())
    }
}

impl serde::ser::SerializeTupleStruct for SeqSerializer {
    type Ok = JsValue;
    type Error = SerError;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), SerError> {
        serde::ser::SerializeSeq::serialize_element(self, value)
    }
    fn end(self) -> Result<JsValue, SerError> {
        Ok(self.0.into())
    }
}

impl serde::ser::SerializeMap for MapSerializer {
    type Ok = JsValue;
    type Error = SerError;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), SerError> {
        let key = key.serialize(JsSerializer)?;
        // JSON object keys are strings; a number key becomes its decimal text, as in JSON.
        self.key = Some(match key.as_f64() {
            Some(n) => JsValue::from_str(&n.to_string()),
            None => key,
        });
        Ok(())
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), SerError> {
        let key = self
            .key
            .take()
            .ok_or_else(|| SerError("a map value came before its key".into()))?;
        define(&self.object, &key, &value.serialize(JsSerializer)?);
        Ok(())
    }
    fn end(self) -> Result<JsValue, SerError> {
        Ok(self.object.into())
    }
}

impl serde::ser::SerializeStruct for MapSerializer {
    type Ok = JsValue;
    type Error = SerError;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), SerError> {
        define(
            &self.object,
            &JsValue::from_str(key),
            &value.serialize(JsSerializer)?,
        );
        Ok(())
    }
    fn end(self) -> Result<JsValue, SerError> {
        Ok(self.object.into())
    }
}

impl Serializer for JsSerializer {
    type Ok = JsValue;
    type Error = SerError;
    type SerializeSeq = SeqSerializer;
    type SerializeTuple = SeqSerializer;
    type SerializeTupleStruct = SeqSerializer;
    type SerializeTupleVariant = serde::ser::Impossible<JsValue, SerError>;
    type SerializeMap = MapSerializer;
    type SerializeStruct = MapSerializer;
    type SerializeStructVariant = serde::ser::Impossible<JsValue, SerError>;

    fn serialize_bool(self, v: bool) -> Result<JsValue, SerError> {
        Ok(JsValue::from_bool(v))
    }
    fn serialize_i8(self, v: i8) -> Result<JsValue, SerError> {
        Ok(JsValue::from_f64(v.into()))
    }
    fn serialize_i16(self, v: i16) -> Result<JsValue, SerError> {
        Ok(JsValue::from_f64(v.into()))
    }
    fn serialize_i32(self, v: i32) -> Result<JsValue, SerError> {
        Ok(JsValue::from_f64(v.into()))
    }
    fn serialize_i64(self, v: i64) -> Result<JsValue, SerError> {
        Ok(JsValue::from_f64(v as f64))
    }
    fn serialize_i128(self, v: i128) -> Result<JsValue, SerError> {
        Ok(JsValue::from_f64(v as f64))
    }
    fn serialize_u8(self, v: u8) -> Result<JsValue, SerError> {
        Ok(JsValue::from_f64(v.into()))
    }
    fn serialize_u16(self, v: u16) -> Result<JsValue, SerError> {
        Ok(JsValue::from_f64(v.into()))
    }
    fn serialize_u32(self, v: u32) -> Result<JsValue, SerError> {
        Ok(JsValue::from_f64(v.into()))
    }
    fn serialize_u64(self, v: u64) -> Result<JsValue, SerError> {
        Ok(JsValue::from_f64(v as f64))
    }
    fn serialize_u128(self, v: u128) -> Result<JsValue, SerError> {
        Ok(JsValue::from_f64(v as f64))
    }
    fn serialize_f32(self, v: f32) -> Result<JsValue, SerError> {
        Ok(JsValue::from_f64(v.into()))
    }
    fn serialize_f64(self, v: f64) -> Result<JsValue, SerError> {
        Ok(JsValue::from_f64(v))
    }
    fn serialize_char(self, v: char) -> Result<JsValue, SerError> {
        Ok(JsValue::from_str(v.encode_utf8(&mut [0; 4])))
    }
    fn serialize_str(self, v: &str) -> Result<JsValue, SerError> {
        Ok(JsValue::from_str(v))
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<JsValue, SerError> {
        Ok(v.iter()
            .map(|b| JsValue::from_f64((*b).into()))
            .collect::<Array>()
            .into())
    }
    fn serialize_none(self) -> Result<JsValue, SerError> {
        Ok(JsValue::NULL)
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<JsValue, SerError> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<JsValue, SerError> {
        Ok(JsValue::NULL)
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Result<JsValue, SerError> {
        Ok(JsValue::NULL)
    }
    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<JsValue, SerError> {
        Ok(JsValue::from_str(variant))
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        value: &T,
    ) -> Result<JsValue, SerError> {
        if name == PRESERVE {
            if let Some(preserved) = PRESERVED.with(|slot| slot.take()) {
                return Ok(preserved);
            }
        }
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<JsValue, SerError> {
        let object = Object::new();
        define(
            &object,
            &JsValue::from_str(variant),
            &value.serialize(self)?,
        );
        Ok(object.into())
    }
    fn serialize_seq(self, len: Option<usize>) -> Result<SeqSerializer, SerError> {
        let _ = len;
        Ok(SeqSerializer(Array::new()))
    }
    fn serialize_tuple(self, len: usize) -> Result<SeqSerializer, SerError> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_struct(
        self,
        _name: &'static str,
        len: usize,
    ) -> Result<SeqSerializer, SerError> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_variant(
        self,
        name: &'static str,
        _index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeTupleVariant, SerError> {
        Err(SerError(format!(
            "{name}: tuple variants have no JSON form here"
        )))
    }
    fn serialize_map(self, _len: Option<usize>) -> Result<MapSerializer, SerError> {
        Ok(MapSerializer {
            object: Object::new(),
            key: None,
        })
    }
    fn serialize_struct(self, _name: &'static str, _len: usize) -> Result<MapSerializer, SerError> {
        self.serialize_map(None)
    }
    fn serialize_struct_variant(
        self,
        name: &'static str,
        _index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeStructVariant, SerError> {
        Err(SerError(format!(
            "{name}: struct variants have no JSON form here"
        )))
    }
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
    #[wasm_bindgen(unchecked_param_type = "Message | SycophantMessage")] message: JsValue,
) -> Result<JsValue, JsValue> {
    run(display::extract_display_items(&Js(message)))
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
// Tool-result expansion (langchain v0.14.1 MessageExpansion and Steps.expand_tool_results/2)
// ---------------------------------------------------------------------------------------------

#[wasm_bindgen(typescript_custom_section)]
const EXPAND_TYPES: &'static str = r#"
/** The options of `expand`. A `result_content` that is present, even `null` (keep the fallback),
 * is used as given; absent or `undefined`, it is the default sentence. */
export interface ExpandOptions {
  result_content?: string | ContentPart | ContentPart[] | null;
}

/** The tool result `expand` returns: all eleven ToolResult keys, `content` a part list and the
 * expansion set. `tool_call_id`, `name` and `display_text` are null for the caller to fill in. */
export type ExpandingToolResult = Required<ToolResult> & {
  content: ContentPart[];
  message_expansion: Required<MessageExpansion>;
};

/** A tool result `expandToolResults` applies: an expansion, and not interrupted. */
export type ExpandableToolResult = ToolResult & {
  message_expansion: MessageExpansion;
  is_interrupt?: false;
};

/** An LLMChain as far as `expandToolResults` reads it. A missing `last_message` is the last
 * element of `messages`, a missing `exchanged_messages` is `[]`, a missing `needs_response` is
 * `true`. Any other keys are passed along as given. */
export interface Chain {
  messages: Message[];
  exchanged_messages?: Message[] | null;
  last_message?: Message | null;
  needs_response?: boolean;
}

/** `Steps.expand_tool_results/2` on a bare array of messages: the new array. */
export function expandToolResults(messages: Message[]): Message[];
/** `Steps.expand_tool_results/2` on a chain: all four chain keys, plus the chain's other keys. */
export function expandToolResults<C extends Chain>(chain: C): Omit<C, keyof Chain> & Required<Chain>;
export function expandToolResults(input: Chain | Message[]): Required<Chain> | Message[];
"#;

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
    let options = Some(options).filter(|o| !o.is_undefined()).map(Js);
    run(crate::expand::expand(
        &Js(fallback_content),
        &Js(messages),
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
    run(crate::expand::is_expandable(&Js(tool_result)))
}

/// `Steps.expand_tool_results/2` without pipeline tags, on a chain or a bare array of messages.
/// Its overloads are declared in `EXPAND_TYPES`, which one generated signature cannot express.
#[wasm_bindgen(js_name = expandToolResults, skip_typescript)]
pub fn expand_tool_results(input: JsValue) -> Result<JsValue, JsValue> {
    run(crate::expand::expand_tool_results(&Js(input)))
}

// ---------------------------------------------------------------------------------------------
// Sycophant messages (seed 003; behavior.md §4)

#[wasm_bindgen(typescript_custom_section)]
const SYCOPHANT_TYPES: &'static str = r#"
/** A Sycophant message role. `tool_result` is a role; there is no `tool` role. */
export type SycophantRole = "user" | "assistant" | "system" | "tool_result";

/** `Sycophant.Message` as canonical JSON: nil, `[]` and `{}` fields are left out. */
export interface SycophantMessage {
  __type__: "Message";
  role: SycophantRole;
  content?: string | SycophantContentPart[];
  tool_call_id?: string;
  tool_calls?: SycophantToolCall[];
  /** Any JSON; `toolResultMessage` sets `{ tool_name }`. */
  metadata?: JsonValue;
  wire_protocol?: "anthropic_messages" | "openai_completions" | "openai_responses" | "bedrock_converse" | "google_gemini";
}

/** A Sycophant content part, told apart by `__type__` (or by its `type` literal). */
export type SycophantContentPart =
  | SycophantText
  | SycophantImage
  | SycophantDocument
  | SycophantThinking
  | SycophantRedactedThinking;

export interface SycophantText {
  __type__: "Text";
  type: "text";
  text: string;
  citations?: SycophantCitation[];
}

export interface SycophantImage {
  __type__: "Image";
  type: "image";
  url?: string;
  /** Base64. */
  data?: string;
  media_type?: string;
}

export interface SycophantDocument {
  __type__: "Document";
  type: "document";
  data?: string;
  url?: string;
  file_id?: string;
  media_type?: string;
  name?: string;
  /** Always present: `false` unless citations were requested. */
  citations: boolean;
}

export interface SycophantThinking {
  __type__: "Thinking";
  type: "thinking";
  id?: string;
  text?: string;
  summary?: string;
  signature?: string;
}

export interface SycophantRedactedThinking {
  __type__: "RedactedThinking";
  type: "redacted_thinking";
  data: string;
}

export interface SycophantToolCall {
  __type__: "ToolCall";
  id: string;
  name: string;
  /** Any JSON; left out when `{}` (the default). */
  arguments?: JsonValue;
  metadata?: JsonValue;
}

export interface SycophantCitation {
  __type__: "Citation";
  type?: "page_location" | "char_location" | "content_block_location" | "web_search_result_location" | "search_result_location";
  cited_text?: string;
  document_index?: number;
  document_title?: string;
  file_id?: string;
  unit?: "page" | "char" | "block";
  start_index?: number;
  end_index?: number;
  url?: string;
  title?: string;
  source?: string;
}

/** Any of the eight types `decodeSycophant` knows. */
export type SycophantValue = SycophantMessage | SycophantContentPart | SycophantToolCall | SycophantCitation;

/** Names a struct given to a constructor: its `__type__`, its `type` literal, or both. */
export type SycophantTag<T extends string, L extends string> = { __type__: T; type?: L } | { __type__?: T; type: L };

/** A content part given to a constructor: the canonical shape, with `__type__` or `type` enough
 * to name it and `null` allowed for absent fields. */
export type SycophantPartInput =
  | (SycophantTag<"Text", "text"> & { text: string; citations?: SycophantCitationInput[] | null })
  | (SycophantTag<"Image", "image"> & { url?: string | null; data?: string | null; media_type?: string | null })
  | (SycophantTag<"Document", "document"> & {
      data?: string | null; url?: string | null; file_id?: string | null; media_type?: string | null;
      name?: string | null; citations?: boolean | null })
  | (SycophantTag<"Thinking", "thinking"> & {
      id?: string | null; text?: string | null; summary?: string | null; signature?: string | null })
  | (SycophantTag<"RedactedThinking", "redacted_thinking"> & { data: string });

export type SycophantCitationInput = { [K in keyof SycophantCitation]?: SycophantCitation[K] | null };

/** A tool call given to `toolResultMessage`; `__type__` may be left out. */
export interface SycophantToolCallInput {
  __type__?: "ToolCall";
  id: string;
  name: string;
  arguments?: JsonValue;
  metadata?: JsonValue;
}

/** What the constructors accept as content (`null`: no content). */
export type SycophantContentInput = string | SycophantPartInput[] | null;
"#;

/// `Sycophant.Message.user/1`: `{__type__: "Message", role: "user", content}` as canonical JSON.
#[wasm_bindgen(
    js_name = userMessage,
    unchecked_return_type = "SycophantMessage & { role: \"user\" }"
)]
pub fn user_message(
    #[wasm_bindgen(unchecked_param_type = "SycophantContentInput")] content: JsValue,
) -> Result<JsValue, JsValue> {
    run(sycophant::user(&Js(content)))
}

/// `Sycophant.Message.assistant/1`.
#[wasm_bindgen(
    js_name = assistantMessage,
    unchecked_return_type = "SycophantMessage & { role: \"assistant\" }"
)]
pub fn assistant_message(
    #[wasm_bindgen(unchecked_param_type = "SycophantContentInput")] content: JsValue,
) -> Result<JsValue, JsValue> {
    run(sycophant::assistant(&Js(content)))
}

/// `Sycophant.Message.system/1`.
#[wasm_bindgen(
    js_name = systemMessage,
    unchecked_return_type = "SycophantMessage & { role: \"system\" }"
)]
pub fn system_message(
    #[wasm_bindgen(unchecked_param_type = "SycophantContentInput")] content: JsValue,
) -> Result<JsValue, JsValue> {
    run(sycophant::system(&Js(content)))
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
    run(sycophant::tool_result(&Js(tool_call), &Js(result)))
}

/// `Sycophant.Serializable.Decoder.from_map/1`, returning the canonical JSON again.
#[wasm_bindgen(js_name = decodeSycophant, unchecked_return_type = "SycophantMessage")]
pub fn decode_sycophant(
    #[wasm_bindgen(unchecked_param_type = "object")] json: JsValue,
) -> Result<JsValue, JsValue> {
    run(sycophant::decode(&Js(json)))
}

// Display-message records and their search text (behavior.md §5): newDisplayMessage,
// changeDisplayMessage, validateDisplayMessage, toText.

#[wasm_bindgen(typescript_custom_section)]
const RECORDS_TYPES: &'static str = r#"
/** What the record functions return: Ecto's `valid?`, its errors (field to messages, most recent
 * first) and the record with the valid changes applied (`apply_changes`). */
export interface Changeset {
  valid: boolean;
  errors: { [field: string]: string[] };
  record: DisplayMessage;
}
"#;

/// `create_changeset(conversation_id, attrs)`: casts and validates `attrs` into a new record.
#[wasm_bindgen(js_name = newDisplayMessage, unchecked_return_type = "Changeset")]
pub fn new_display_message(
    #[wasm_bindgen(js_name = conversationId, unchecked_param_type = "string | null")]
    conversation_id: JsValue,
    #[wasm_bindgen(unchecked_param_type = "object")] attrs: JsValue,
) -> Result<JsValue, JsValue> {
    let conversation_id = Some(conversation_id).filter(|c| !c.is_undefined()).map(Js);
    run(crate::record::new_display_message(
        conversation_id.as_ref(),
        &Js(attrs),
    ))
}

/// `changeset(record, attrs)`: casts and validates `attrs` over an existing record.
#[wasm_bindgen(js_name = changeDisplayMessage, unchecked_return_type = "Changeset")]
pub fn change_display_message(
    #[wasm_bindgen(unchecked_param_type = "DisplayMessage | DisplayRecord")] record: JsValue,
    #[wasm_bindgen(unchecked_param_type = "object")] attrs: JsValue,
) -> Result<JsValue, JsValue> {
    run(crate::record::change_display_message(
        &Js(record),
        &Js(attrs),
    ))
}

/// Validates a complete record, keeping its `id` and `inserted_at`.
#[wasm_bindgen(js_name = validateDisplayMessage, unchecked_return_type = "Changeset")]
pub fn validate_display_message(
    #[wasm_bindgen(unchecked_param_type = "DisplayMessage | DisplayRecord")] record: JsValue,
) -> Result<JsValue, JsValue> {
    run(crate::record::validate_display_message(&Js(record)))
}

/// `to_text/1`: a record's search text. Never throws.
#[wasm_bindgen(js_name = toText, unchecked_return_type = "string | null")]
pub fn to_text(
    #[wasm_bindgen(unchecked_param_type = "DisplayMessage | DisplayRecord")] record: JsValue,
) -> Result<JsValue, JsValue> {
    run(Ok(crate::text::to_text(&Js(record))))
}

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
