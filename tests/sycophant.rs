//! Native fixture tests of the Sycophant feature: every case in `tests/fixtures/sycophant_*.json`
//! is run here, and the same files run again through the JavaScript boundary
//! (tests/boundary_sycophant.rs, tests/js/sycophant.test.mjs). Adding a case is a data-only change.
#![cfg(not(target_arch = "wasm32"))]

use chat_display::{extract_display_items, sycophant, Error};
use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{json, Value};
use std::fmt;

mod common;
use common::*;

const CONSTRUCTORS: &str = include_str!("fixtures/sycophant_constructors.json");
const DECODE: &str = include_str!("fixtures/sycophant_decode.json");
const DISPLAY: &str = include_str!("fixtures/sycophant_display.json");
const DISPLAY_MESSAGES: &str = include_str!("fixtures/sycophant_display_messages.json");

/// Runs a constructor case's call.
fn construct(case: &Value) -> Result<sycophant::Message<&Value>, Error> {
    let args = case["args"].as_array().expect("args");
    match case["call"].as_str().expect("call") {
        "userMessage" => sycophant::user(&&args[0]),
        "assistantMessage" => sycophant::assistant(&&args[0]),
        "systemMessage" => sycophant::system(&&args[0]),
        "toolResultMessage" => sycophant::tool_result(&&args[0], &&args[1]),
        other => panic!("unknown call {other}"),
    }
}

#[test]
fn constructor_fixtures() {
    let all = cases(CONSTRUCTORS);
    assert!(all.len() > 40);
    for case in &all {
        check(case, &case["args"], "message", construct(case));
    }
}

#[test]
fn decode_fixtures() {
    let all = cases(DECODE);
    assert!(all.len() > 40);
    for case in &all {
        check(
            case,
            &case["json"],
            "decoded",
            sycophant::decode(&&case["json"]),
        );
    }
}

#[test]
fn display_item_fixtures() {
    check_display_items(DISPLAY);
}

#[test]
fn display_message_fixtures() {
    check_display_messages(DISPLAY_MESSAGES);
}

/// Every canonical JSON the fixtures expect, from the constructors and the decoder.
fn canonical_outputs() -> Vec<Value> {
    let mut all: Vec<Value> = cases(CONSTRUCTORS)
        .into_iter()
        .filter_map(|c| c.get("message").cloned())
        .collect();
    all.extend(
        cases(DECODE)
            .into_iter()
            .filter_map(|c| c.get("decoded").cloned()),
    );
    all
}

#[test]
fn decode_of_canonical_json_is_a_fixed_point() {
    let outputs = canonical_outputs();
    assert!(outputs.len() > 40);
    for canonical in &outputs {
        let once = serde_json::to_value(sycophant::decode(&canonical).expect("decodes")).unwrap();
        assert_eq!(&once, canonical, "decode(canonical) is canonical");
        let twice = serde_json::to_value(sycophant::decode(&&once).expect("decodes")).unwrap();
        assert_eq!(once, twice, "decode then encode is stable");
    }
}

#[test]
fn encode_decode_encode_is_a_fixed_point_for_every_constructor_case() {
    for case in cases(CONSTRUCTORS)
        .iter()
        .filter(|c| c.get("error").is_none())
    {
        let built = serde_json::to_string(&construct(case).unwrap()).unwrap();
        let parsed: Value = serde_json::from_str(&built).unwrap();
        let again = serde_json::to_string(&sycophant::decode(&&parsed).unwrap()).unwrap();
        assert_eq!(built, again, "{}", case["name"]);
    }
}

/// A JSON value read with its keys in document order (serde_json's `Value` sorts them).
enum Ordered {
    Object(Vec<(String, Ordered)>),
    Array(Vec<Ordered>),
    Str(String),
    Other,
}

impl<'de> Deserialize<'de> for Ordered {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Ordered;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("JSON")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Ordered, A::Error> {
                let mut entries = Vec::new();
                while let Some((k, v)) = map.next_entry::<String, Ordered>()? {
                    entries.push((k, v));
                }
                Ok(Ordered::Object(entries))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Ordered, A::Error> {
                let mut items = Vec::new();
                while let Some(v) = seq.next_element::<Ordered>()? {
                    items.push(v);
                }
                Ok(Ordered::Array(items))
            }
            fn visit_str<E>(self, s: &str) -> Result<Ordered, E> {
                Ok(Ordered::Str(s.to_string()))
            }
            fn visit_bool<E>(self, _: bool) -> Result<Ordered, E> {
                Ok(Ordered::Other)
            }
            fn visit_i64<E>(self, _: i64) -> Result<Ordered, E> {
                Ok(Ordered::Other)
            }
            fn visit_u64<E>(self, _: u64) -> Result<Ordered, E> {
                Ok(Ordered::Other)
            }
            fn visit_f64<E>(self, _: f64) -> Result<Ordered, E> {
                Ok(Ordered::Other)
            }
            fn visit_unit<E>(self) -> Result<Ordered, E> {
                Ok(Ordered::Other)
            }
        }
        d.deserialize_any(V)
    }
}

/// The declared field order of each struct (docs/INPUT-FORMATS.md "The structs, fields in declared
/// order"), `__type__` first.
fn declared(type_name: &str) -> &'static [&'static str] {
    match type_name {
        "Message" => &[
            "__type__",
            "role",
            "content",
            "tool_call_id",
            "tool_calls",
            "metadata",
            "wire_protocol",
        ],
        "Text" => &["__type__", "type", "text", "citations"],
        "Image" => &["__type__", "type", "url", "data", "media_type"],
        "Document" => &[
            "__type__",
            "type",
            "data",
            "url",
            "file_id",
            "media_type",
            "name",
            "citations",
        ],
        "Thinking" => &["__type__", "type", "id", "text", "summary", "signature"],
        "RedactedThinking" => &["__type__", "type", "data"],
        "ToolCall" => &["__type__", "id", "name", "arguments", "metadata"],
        "Citation" => &[
            "__type__",
            "type",
            "cited_text",
            "document_index",
            "document_title",
            "file_id",
            "unit",
            "start_index",
            "end_index",
            "url",
            "title",
            "source",
        ],
        other => panic!("no struct {other}"),
    }
}

/// Asserts that every struct inside `value` (an object whose first key is `__type__`) lists its
/// other keys in declared order, and that no other object has a `__type__`. `arguments` and
/// `metadata` hold arbitrary JSON and are not entered.
fn assert_declared_order(value: &Ordered, text: &str) {
    match value {
        Ordered::Object(entries) => {
            let keys: Vec<&str> = entries.iter().map(|(k, _)| k.as_str()).collect();
            if let Some((_, type_name)) = entries.iter().find(|(k, _)| k == "__type__") {
                let Ordered::Str(type_name) = type_name else {
                    panic!("__type__ is a string in {text}")
                };
                let order = declared(type_name);
                let positions: Vec<Option<usize>> = keys
                    .iter()
                    .map(|k| order.iter().position(|d| d == k))
                    .collect();
                assert!(
                    positions.first() == Some(&Some(0))
                        && positions.iter().all(Option::is_some)
                        && positions.windows(2).all(|w| w[0] < w[1]),
                    "keys {keys:?} are not in the declared order {order:?} in {text}"
                );
            }
            for (key, v) in entries {
                if key != "arguments" && key != "metadata" {
                    assert_declared_order(v, text);
                }
            }
        }
        Ordered::Array(items) => items.iter().for_each(|v| assert_declared_order(v, text)),
        Ordered::Str(_) | Ordered::Other => {}
    }
}

#[test]
fn every_struct_serializes_its_fields_in_declared_order() {
    for case in cases(CONSTRUCTORS)
        .iter()
        .filter(|c| c.get("error").is_none())
    {
        let text = serde_json::to_string(&construct(case).unwrap()).unwrap();
        assert_declared_order(&serde_json::from_str(&text).unwrap(), &text);
    }
    for case in cases(DECODE).iter().filter(|c| c.get("error").is_none()) {
        let text = serde_json::to_string(&sycophant::decode(&&case["json"]).unwrap()).unwrap();
        assert_declared_order(&serde_json::from_str(&text).unwrap(), &text);
    }
}

#[test]
fn the_fixture_expectations_are_themselves_in_declared_order() {
    // The boundary and Node runners compare JSON text with these expectations, so their key order
    // must be the canonical one.
    for file in [CONSTRUCTORS, DECODE] {
        let Ordered::Array(all) = serde_json::from_str::<Ordered>(file).unwrap() else {
            panic!("fixture file is an array")
        };
        for case in &all {
            let Ordered::Object(fields) = case else {
                panic!("a case is an object")
            };
            for (key, value) in fields {
                if key == "message" || key == "decoded" {
                    assert_declared_order(value, "a fixture expectation");
                }
            }
        }
    }
}

#[test]
fn the_doc_examples_serialize_exactly() {
    let content = json!("Hello!");
    let hello = sycophant::user(&&content).unwrap();
    assert_eq!(
        serde_json::to_string(&hello).unwrap(),
        r#"{"__type__":"Message","role":"user","content":"Hello!"}"#
    );
    let call = json!({"id": "call_123", "name": "get_weather", "arguments": {}});
    let output = json!("72F and sunny");
    let result = sycophant::tool_result(&&call, &&output).unwrap();
    assert_eq!(
        serde_json::to_string(&result).unwrap(),
        r#"{"__type__":"Message","role":"tool_result","content":"72F and sunny","tool_call_id":"call_123","metadata":{"tool_name":"get_weather"}}"#
    );
}

/// A value nested `depth` arrays deep, built without recursion.
fn deep(depth: usize) -> Value {
    let mut value = json!("bottom");
    for _ in 0..depth {
        value = Value::Array(vec![value]);
    }
    value
}

/// Drops a value of any depth without recursion.
fn dismantle(value: Value) {
    let mut stack = vec![value];
    while let Some(mut v) = stack.pop() {
        match &mut v {
            Value::Array(items) => stack.append(items),
            Value::Object(map) => {
                let keys: Vec<String> = map.keys().cloned().collect();
                stack.extend(keys.iter().filter_map(|k| map.remove(k)));
            }
            _ => {}
        }
    }
}

#[test]
fn arguments_and_metadata_pass_through_at_any_depth() {
    // Only moved, never recursed into: 100,000-deep values come back as the same values.
    let mut call = serde_json::Map::new();
    call.insert("id".into(), json!("1"));
    call.insert("name".into(), json!("n"));
    call.insert("arguments".into(), deep(100_000));
    let mut message = serde_json::Map::new();
    message.insert("__type__".into(), json!("Message"));
    message.insert("role".into(), json!("assistant"));
    message.insert("metadata".into(), deep(100_000));
    message.insert("tool_calls".into(), Value::Array(vec![Value::Object(call)]));
    let message = Value::Object(message);
    {
        let decoded = sycophant::decode(&&message).unwrap();
        assert_eq!(decoded.type_name, sycophant::TypeName::Message);
        let Some(sycophant::Slot::List(calls)) = decoded.get("tool_calls") else {
            panic!("a list of tool calls")
        };
        let Some(sycophant::Slot::Value(arguments)) = calls[0].get("arguments") else {
            panic!("arguments")
        };
        assert!(std::ptr::eq(
            *arguments,
            &message["tool_calls"][0]["arguments"]
        ));
        let items = extract_display_items(&&message).unwrap();
        assert_eq!(items.len(), 1);
    }
    dismantle(message);
}
