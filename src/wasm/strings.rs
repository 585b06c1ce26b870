//! The one cache of JavaScript strings: the keys and constant words this module reads and writes
//! (`role`, `content`, a patch's `op` and `append`, ...) and the keys of a streaming tool call's
//! arguments, each made once and then reused. Making a JavaScript string from Rust decodes UTF-8
//! in JavaScript, on every use; comparing with or setting a kept one is a single call.
//!
//! Used by every path that asks a JavaScript value for a key ([`super::in_place`]) or makes an
//! object by hand (Transcript's error records, a stream's patches). The tape's glue keeps its own
//! table of the words it numbers (`tape.js`), on the JavaScript side.

use super::setup::Local;
use crate::prelude::*;
use core::cell::RefCell;
use wasm_bindgen::JsValue;

/// One kept JavaScript string and the text it was made from.
struct Kept {
    text: Box<str>,
    value: JsValue,
}

/// 256 slots, indexed by the top 8 bits of a 32-bit hash of the text.
const SLOTS: usize = 256;
/// The longest text kept: keys and words are short; longer text is made each time.
const MAX_LEN: usize = 64;

/// The kept strings, `SLOTS` of them, made on first use.
static KEPT: Local<RefCell<Vec<Option<Kept>>>> = Local(RefCell::new(Vec::new()));

/// Calls `f` with the JavaScript string for `s`, made once for short strings and then reused.
/// Only this is compiled once per caller; the table's work is `kept_slot`'s, compiled once.
pub(super) fn js_str<R>(s: &str, f: impl FnOnce(&JsValue) -> R) -> R {
    let slot = kept_slot(s);
    KEPT.with(|kept| {
        // While `f` runs, the table is borrowed: a `js_str` inside `f` still finds the strings
        // already kept, and makes any other (`kept_slot` gives `None`).
        let kept = kept.try_borrow().ok();
        let made;
        let value = match slot
            .zip(kept.as_ref())
            .and_then(|(i, k)| k.get(i)?.as_ref())
        {
            Some(entry) => &entry.value,
            None => {
                made = JsValue::from_str(s);
                &made
            }
        };
        f(value)
    })
}

/// A 32-bit hash of the text (FNV-1a), whose top 8 bits pick a slot.
fn hash(s: &str) -> u32 {
    s.bytes().fold(0x811c_9dc5, |h, b| {
        (h ^ u32::from(b)).wrapping_mul(0x0100_0193)
    })
}

/// The slot of the kept JavaScript string for `s`, made now if it is not there yet; `None` for a
/// long string, or for a new one while the table is in use.
#[inline(never)]
fn kept_slot(s: &str) -> Option<usize> {
    if s.len() > MAX_LEN {
        return None;
    }
    let home = (hash(s) >> 24) as usize;
    KEPT.with(|kept| {
        // Up to four slots from the home one: the first that holds `s`, else the first free one,
        // else the home one is taken over.
        if let Ok(kept) = kept.try_borrow() {
            for probe in 0..4 {
                let i = (home + probe) % SLOTS;
                if let Some(Some(k)) = kept.get(i) {
                    if *k.text == *s {
                        return Some(i);
                    }
                }
            }
        }
        let mut kept = kept.try_borrow_mut().ok()?;
        if kept.is_empty() {
            kept.resize_with(SLOTS, || None);
        }
        let free = (0..4)
            .map(|probe| (home + probe) % SLOTS)
            .find(|&i| matches!(kept.get(i), Some(None)));
        let i = free.unwrap_or(home);
        *kept.get_mut(i)? = Some(Kept {
            text: s.into(),
            value: JsValue::from_str(s),
        });
        Some(i)
    })
}
