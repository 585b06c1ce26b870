//! Native fixture tests of the core: every case in `tests/fixtures/*.json` is run here, and the
//! same files are run again through the JavaScript boundary (tests/boundary.rs, tests/js/).
//! Adding a case is a data-only change.
#![cfg(not(target_arch = "wasm32"))]

use chat_display::to_display_messages;

mod common;
use common::*;

#[test]
fn extract_display_items_fixtures() {
    let count = check_display_items(include_str!("fixtures/extract_display_items.json"));
    assert!(count > 40);
}

#[test]
fn to_display_messages_fixtures() {
    check_display_messages(include_str!("fixtures/to_display_messages.json"));
}

#[test]
fn every_record_of_a_conversation_has_the_template_keys_in_order() {
    let all = cases(include_str!("fixtures/to_display_messages.json"));
    let records = to_display_messages(&&all[0]["messages"], None).unwrap();
    let text = serde_json::to_string(&records[0]).unwrap();
    assert!(
        text.starts_with(
            r#"{"conversation_id":null,"message_type":"user","content_type":"text","content":"#
        ),
        "{text}"
    );
    assert!(
        text.ends_with(r#""sequence":0,"status":"completed","tool_call_id":null,"metadata":{}}"#),
        "{text}"
    );
}
