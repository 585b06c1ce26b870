//! A stream's output path: its patches as JavaScript objects ([`PatchWriter`]), made key by key.
//! A record is written through serde when it is added or replaced; when only a tool call's
//! arguments changed, the record handed out before is copied along the changed path alone, and
//! everything else is shared with it, so a UI that keeps the records can tell what changed by
//! identity.

use crate::json::Parsed;
use crate::prelude::*;
use crate::stream::Patch;
use crate::wasm::in_place::is_array;
use crate::wasm::strings::js_str;
use crate::wasm::write::{define, serde_to_js, Fresh};
use js_sys::{Array, Object, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// Writes one accumulator's patches.
pub(super) struct PatchWriter {
    /// The JavaScript record last handed out for each tool-call record, by index, so an arguments
    /// change copies only the path it changes.
    calls: Vec<Option<JsValue>>,
}

/// `object[key] = value` for a key this module names (never `__proto__`).
fn put(object: &Fresh, key: &str, value: &JsValue) {
    js_str(key, |key| object.put(key, value));
}

/// `object[key] = word`, for a word this module names.
fn put_word(object: &Fresh, key: &str, word: &str) {
    let word = js_str(word, JsValue::clone);
    put(object, key, &word);
}

impl PatchWriter {
    pub(super) fn new() -> PatchWriter {
        PatchWriter { calls: Vec::new() }
    }

    /// `patch` as JavaScript; `records` are the accumulator's records after it.
    pub(super) fn write(&mut self, patch: &Patch, records: &[Parsed]) -> Result<JsValue, JsValue> {
        let out = Fresh::new();
        let (index, record) = match patch {
            Patch::Add(record) => {
                put_word(&out, "op", "add");
                (self.calls.len(), serde_to_js(record)?)
            }
            Patch::Replace { index, record } => {
                put_word(&out, "op", "replace");
                put(&out, "index", &JsValue::from_f64(*index as f64));
                (*index, serde_to_js(record)?)
            }
            Patch::Append { index, field, text } => {
                put_word(&out, "op", "append");
                put(&out, "index", &JsValue::from_f64(*index as f64));
                put_word(&out, "field", field);
                put(&out, "text", &JsValue::from_str(text));
                return Ok(out.into());
            }
            Patch::Arguments { index, changes } => {
                put_word(&out, "op", "replace");
                put(&out, "index", &JsValue::from_f64(*index as f64));
                let previous = self.calls.get(*index).cloned().flatten();
                // The arguments as they now are in Rust: they say which objects on a changed path
                // have no `__proto__` key, so can be copied with `Object.assign`.
                let now = records
                    .get(*index)
                    .and_then(|r| r.get("content"))
                    .and_then(|c| c.get("arguments"));
                let record = match previous {
                    Some(previous) => {
                        // The record and its content are this module's own objects, whose keys
                        // are known (never `__proto__`), so `Object.assign` copies them safely;
                        // everything but the new arguments is shared.
                        let previous: Fresh = previous.unchecked_into();
                        let content: Fresh =
                            js_str("content", |key| previous.take(key)).unchecked_into();
                        let arguments = js_str("arguments", |key| content.take(key));
                        let arguments = apply_changes(&arguments, changes, now)?;
                        let new_content: Fresh =
                            Object::assign(&Object::new(), content.unchecked_ref())
                                .unchecked_into();
                        put(&new_content, "arguments", &arguments);
                        let record: Fresh =
                            Object::assign(&Object::new(), previous.unchecked_ref())
                                .unchecked_into();
                        put(&record, "content", &new_content);
                        JsValue::from(record)
                    }
                    None => match records.get(*index) {
                        Some(record) => serde_to_js(record)?,
                        None => JsValue::NULL,
                    },
                };
                (*index, record)
            }
        };
        put(&out, "record", &record);
        let call = match patch {
            Patch::Add(r) | Patch::Replace { record: r, .. } => {
                r.get("content_type").and_then(Parsed::as_string) == Some("tool_call")
            }
            _ => true,
        };
        if self.calls.len() <= index {
            self.calls.resize(index + 1, None);
        }
        if let Some(slot) = self.calls.get_mut(index) {
            *slot = call.then_some(record);
        }
        Ok(out.into())
    }
}

/// A copy of `target` (an array when `array`, else an object); its values are shared. An object
/// that (as Rust holds it, `now`) has no `__proto__` key is copied with `Object.assign`; any
/// other through `fromEntries`, which defines each key as an own property, `__proto__` included.
fn shallow_copy(target: &JsValue, array: bool, now: Option<&Parsed>) -> JsValue {
    if array {
        Array::from(target).slice(0, u32::MAX).into()
    } else if plain(now) {
        Object::assign(&Object::new(), target.unchecked_ref()).into()
    } else {
        Object::from_entries(&Object::entries(&Object::from(target.clone())))
            .map(JsValue::from)
            .unwrap_or_else(|_| Object::new().into())
    }
}

/// Whether `now` is an object without a `__proto__` key, so that setting any of its keys by
/// assignment defines an own property.
fn plain(now: Option<&Parsed>) -> bool {
    matches!(now, Some(Parsed::Object(entries))
        if !entries.iter().any(|(k, _)| k == "__proto__"))
}

/// `container[key] = value` as an own property, for a container this module has just made.
fn set_in(
    container: &JsValue,
    step: &crate::json::partial::Step,
    key: &JsValue,
    value: &JsValue,
    now: Option<&Parsed>,
) {
    if matches!(step, crate::json::partial::Step::Index(_)) {
        let _ = Reflect::set(container, key, value);
    } else if plain(now) {
        container.unchecked_ref::<Fresh>().put(key, value);
    } else {
        define(container.unchecked_ref(), key, value);
    }
}

/// The arguments a UI holds (`root`) with one patch's partial-JSON changes applied, as
/// [`crate::json::partial::apply`] applies them in Rust: every object or array on a changed path is
/// copied once per patch (later changes under it change the copy), and everything else is
/// shared. `now` is the arguments as Rust holds them after the changes.
fn apply_changes(
    root: &JsValue,
    changes: &[crate::json::partial::Change],
    now: Option<&Parsed>,
) -> Result<JsValue, JsValue> {
    use crate::json::partial::{Change, Step};
    let mut root = root.clone();
    let mut root_fresh = false;
    // The containers copied or made during this patch, by path.
    let mut fresh: Vec<(&[Step], JsValue)> = Vec::new();
    for change in changes {
        let path = change.path();
        let Some((last, parents)) = path.split_last() else {
            root = match change {
                Change::Set { value, .. } => serde_to_js(value)?,
                Change::Append { text, .. } => match root.dyn_ref::<js_sys::JsString>() {
                    Some(old) => old.concat(&JsValue::from_str(text)).into(),
                    None => continue,
                },
            };
            root_fresh = true;
            fresh.clear();
            continue;
        };
        if !root_fresh {
            if !root.is_object() {
                continue;
            }
            root = shallow_copy(&root, is_array(&root), now);
            root_fresh = true;
        }
        // Down to the container of the changed value, copying what this patch has not yet.
        let mut node = root.clone();
        let mut node_now = now;
        let mut reached = true;
        for (depth, step) in parents.iter().enumerate() {
            let key = step_key(step);
            let child_now =
                node_now.and_then(|n| crate::stream::get_path(n, core::slice::from_ref(step)));
            let prefix = &path[..=depth];
            if let Some((_, copy)) = fresh.iter().find(|(p, _)| *p == prefix) {
                node = copy.clone();
            } else {
                let child = Reflect::get(&node, &key).unwrap_or(JsValue::UNDEFINED);
                if !child.is_object() {
                    reached = false;
                    break;
                }
                let copy = shallow_copy(&child, is_array(&child), child_now);
                set_in(&node, step, &key, &copy, node_now);
                fresh.push((prefix, copy.clone()));
                node = copy;
            }
            node_now = child_now;
        }
        if !reached {
            continue;
        }
        let key = step_key(last);
        match change {
            Change::Set { value, .. } => {
                let value = serde_to_js(value)?;
                set_in(&node, last, &key, &value, node_now);
                // What was made under this path before is gone; a new container is this
                // patch's own.
                fresh.retain(|(p, _)| !p.starts_with(path));
                if value.is_object() {
                    fresh.push((path, value));
                }
            }
            Change::Append { text, .. } => {
                let old = Reflect::get(&node, &key).unwrap_or(JsValue::UNDEFINED);
                if let Some(old) = old.dyn_ref::<js_sys::JsString>() {
                    set_in(
                        &node,
                        last,
                        &key,
                        &old.concat(&JsValue::from_str(text)),
                        node_now,
                    );
                }
            }
        }
    }
    Ok(root)
}

/// A path step as the JavaScript key it stands for.
fn step_key(step: &crate::json::partial::Step) -> JsValue {
    match step {
        crate::json::partial::Step::Key(k) => js_str(k, JsValue::clone),
        crate::json::partial::Step::Index(i) => JsValue::from_f64(*i as f64),
    }
}
