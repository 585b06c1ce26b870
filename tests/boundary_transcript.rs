//! Transcript in a real headless browser: the cases of tests/fixtures/transcript.json through the
//! exported class, compared as `JSON.stringify` text, and the strings it hands back.
#![cfg(target_arch = "wasm32")]

use chat_display::wasm::Transcript;
use js_sys::{Array, Reflect, JSON};
use wasm_bindgen::prelude::*;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn js(text: &str) -> JsValue {
    JSON::parse(text).expect("test JSON")
}

fn text(value: &JsValue) -> String {
    JSON::stringify(value)
        .expect("stringify")
        .as_string()
        .unwrap_or_default()
}

fn get(value: &JsValue, key: &str) -> JsValue {
    Reflect::get(value, &key.into()).expect("get")
}

#[wasm_bindgen_test]
fn transcript_fixtures_through_the_boundary() {
    let cases: Vec<JsValue> = Array::from(&js(include_str!("fixtures/transcript.json")))
        .iter()
        .collect();
    assert!(cases.len() >= 10);
    for case in &cases {
        let name = get(case, "name").as_string().unwrap_or_default();
        let loaded = Transcript::from_json(get(case, "text"));
        let error = get(case, "error");
        if !error.is_undefined() {
            let e = loaded.err().expect("an error");
            assert_eq!(get(&e, "code"), get(&error, "code"), "{name}");
            assert_eq!(get(&e, "path"), get(&error, "path"), "{name}");
            continue;
        }
        let mut t = loaded.unwrap_or_else(|_| panic!("{name} loads"));
        let records = t.records(0.0, f64::from(t.length())).expect("records");
        assert_eq!(text(&records), text(&get(case, "records")), "{name}");
        let texts = Array::new();
        for i in 0..t.length() {
            texts.push(&t.to_text(f64::from(i)));
        }
        assert_eq!(text(&texts), text(&get(case, "texts")), "{name}");
        for search in Array::from(&get(case, "searches")).iter() {
            let query = get(&search, "query").as_string().unwrap_or_default();
            let limit = get(&search, "limit");
            let options = if limit.is_undefined() {
                JsValue::UNDEFINED
            } else {
                js(&format!("{{\"limit\": {}}}", text(&limit)))
            };
            let found = t.search(&query, options).expect("search");
            assert_eq!(
                text(&found),
                text(&get(&search, "indices")),
                "{name}: {query}"
            );
        }
        let append = get(case, "append");
        if !append.is_undefined() {
            for message in Array::from(&append).iter() {
                t.append(message).expect("append");
            }
            let after = t.records(0.0, f64::from(t.length())).expect("records");
            assert_eq!(text(&after), text(&get(case, "after")), "{name}: after");
        }
    }
}

#[wasm_bindgen_test]
fn strings_come_back_whole_even_with_lone_surrogates() {
    let t = Transcript::from_json(JsValue::from_str(
        r#"[{"role": "user", "content": "a\ud800b"}, {"role": "assistant", "tool_calls": [{"call_id": "x", "name": "f", "arguments": {"s": "\udc00"}}]}]"#,
    ))
    .expect("loads");
    let records = t.records(0.0, 2.0).expect("records");
    let first = Reflect::get_u32(&records, 0).expect("record");
    let text_value = get(&get(&first, "content"), "text");
    assert_eq!(
        text_value.as_string().map(|s| s.len()),
        Some(5),
        "a, U+FFFD as 3 bytes, b"
    );
    let lone = js_sys::JsString::from(text_value.clone());
    assert_eq!(
        lone.char_code_at(1),
        f64::from(0xD800u32),
        "the lone surrogate itself"
    );
    let direct = t.to_text(0.0);
    assert_eq!(
        js_sys::JsString::from(direct).char_code_at(1),
        f64::from(0xD800u32)
    );
    let second = Reflect::get_u32(&records, 1).expect("record");
    let s = get(&get(&get(&second, "content"), "arguments"), "s");
    assert_eq!(
        js_sys::JsString::from(s).char_code_at(0),
        f64::from(0xDC00u32)
    );
}

#[wasm_bindgen_test]
fn a_string_with_characters_of_every_length_loads_whole() {
    // The string is encoded into a buffer of one byte per UTF-16 unit, then the rest on its own:
    // every split of the text near a long character, surrogate pairs included.
    for mix in [
        "é",
        "中文字",
        "😀",
        "é😀中",
        "a\u{10FFFF}b",
        "\u{7FF}\u{800}\u{FFFF}",
    ] {
        for ascii in 0..24 {
            let content = format!("{}{mix}{}", "x".repeat(ascii), mix.repeat(ascii % 5));
            let json = format!(
                r#"[{{"role": "user", "content": "{content}"}}, {{"role": "assistant", "content": "{mix}"}}]"#
            );
            let t = Transcript::from_json(JsValue::from_str(&json)).expect("loads");
            let want = chat_display::wasm::to_display_messages(js(&json), JsValue::UNDEFINED)
                .expect("records");
            assert_eq!(
                text(&t.records(0.0, 10.0).expect("records")),
                text(&want),
                "{json}"
            );
            assert_eq!(
                t.to_text(0.0).as_string().as_deref(),
                Some(content.as_str())
            );
        }
    }
    // A lone surrogate in the string itself (not an escape) is read as U+FFFD, as TextEncoder
    // writes it, wherever it falls.
    for ascii in 0..12 {
        let json = js_sys::JsString::from(format!(
            r#"[{{"role": "user", "content": "{}"#,
            "é".repeat(ascii)
        ))
        .concat(&js_sys::JsString::from_char_code1(0xD800))
        .concat(&JsValue::from_str(r#"z"}]"#));
        let t = Transcript::from_json(json.into()).expect("loads");
        assert_eq!(
            t.to_text(0.0).as_string(),
            Some(format!("{}\u{FFFD}z", "é".repeat(ascii)))
        );
    }
}

/// Bytes that are a view of the module's own memory, large enough that copying them in grows
/// that memory (which detaches every view of it): a ChatDisplayError for what they hold, and the
/// next load works. The engine threw a TypeError from inside the copy before.
#[wasm_bindgen_test]
fn bytes_viewing_the_modules_own_memory_are_copied_out_first() {
    use wasm_bindgen::JsCast;
    let memory: js_sys::WebAssembly::Memory = wasm_bindgen::memory().unchecked_into();
    let buffer: js_sys::ArrayBuffer = memory.buffer().unchecked_into();
    let before = buffer.byte_length();
    let view = js_sys::Uint8Array::new(&buffer);
    let error = match Transcript::from_json(view.into()) {
        Ok(_) => panic!("the module's memory is not JSON text"),
        Err(error) => error,
    };
    assert!(
        chat_display::wasm::is_chat_display_error(error.clone()),
        "{error:?}"
    );
    let grown: js_sys::ArrayBuffer = memory.buffer().unchecked_into();
    assert!(grown.byte_length() > before, "the copy grew the memory");
    let next = Transcript::from_json(JsValue::from_str(r#"[{"role": "user", "content": "hi"}]"#))
        .expect("loads");
    assert_eq!(next.length(), 1);
}
