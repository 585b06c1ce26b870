//! The values the accumulator and the formats' stream readers build bodies with: objects, paths
//! of keys and indexes into them, and the typed fields of an event.

use crate::json::partial::Step;
use crate::prelude::*;
use crate::providers::Parsed;

/// An object from its entries.
pub(crate) fn object(entries: Vec<(&str, Parsed)>) -> Parsed {
    Parsed::Object(
        entries
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect(),
    )
}

/// A message of one block, `{role, <list>: [block]}`: the body of one block for formats whose
/// response is one message.
pub(crate) fn message_body(role: &str, list: &str, block: Parsed) -> Parsed {
    object(vec![
        ("role", Parsed::String(role.into())),
        (list, Parsed::Array(vec![block])),
    ])
}

/// A path of object keys.
pub(crate) fn keys(keys: &[&str]) -> Vec<Step> {
    keys.iter().map(|k| Step::Key((*k).to_string())).collect()
}

/// The path of `keys` under `at`.
pub(crate) fn under(at: &[Step], keys: &[&str]) -> Vec<Step> {
    let mut path = at.to_vec();
    path.extend(keys.iter().map(|k| Step::Key((*k).to_string())));
    path
}

pub(crate) fn get_path<'a>(mut at: &'a Parsed, path: &[Step]) -> Option<&'a Parsed> {
    for step in path {
        at = match (at, step) {
            (Parsed::Object(_), Step::Key(k)) => at.get(k)?,
            (Parsed::Array(items), Step::Index(i)) => items.get(*i)?,
            _ => return None,
        };
    }
    Some(at)
}

pub(crate) fn get_path_mut<'a>(mut at: &'a mut Parsed, path: &[Step]) -> Option<&'a mut Parsed> {
    for step in path {
        at = match (at, step) {
            (at @ Parsed::Object(_), Step::Key(k)) => at.get_mut(k)?,
            (Parsed::Array(items), Step::Index(i)) => items.get_mut(*i)?,
            _ => return None,
        };
    }
    Some(at)
}

/// Sets the value at `path`, creating the last key of an object or pushing onto an array at its
/// length; false when the parent is missing.
pub(crate) fn set_path(target: &mut Parsed, path: &[Step], value: Parsed) -> bool {
    let Some((last, parent)) = path.split_last() else {
        *target = value;
        return true;
    };
    match (get_path_mut(target, parent), last) {
        (Some(p @ Parsed::Object(_)), Step::Key(k)) => {
            p.set(k, value);
            true
        }
        (Some(Parsed::Array(items)), Step::Index(i)) if *i <= items.len() => {
            if *i == items.len() {
                items.push(value);
            } else if let Some(slot) = items.get_mut(*i) {
                *slot = value;
            }
            true
        }
        _ => false,
    }
}

/// The string under `key` of an event.
pub(crate) fn str_at<'a>(value: &'a Parsed, key: &str) -> Option<&'a str> {
    value.get(key).and_then(Parsed::as_string)
}

/// The integer under `key` of an event.
pub(crate) fn int_at(value: &Parsed, key: &str) -> Option<i64> {
    match value.get(key)? {
        Parsed::Number(n) => n.as_i64(),
        _ => None,
    }
}
