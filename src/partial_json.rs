//! TEMPORARY STUB (replaced by the real incremental parser from the `partial` branch).
use crate::providers::Parsed;

#[derive(Clone, Debug, PartialEq)]
pub enum Step {
    Key(String),
    Index(usize),
}

#[derive(Clone, Debug, PartialEq)]
pub enum Change {
    Set { path: Vec<Step>, value: Parsed },
    Append { path: Vec<Step>, text: String },
}

#[derive(Default)]
pub struct PartialJson {
    text: String,
    failed: bool,
    complete: bool,
}

pub const MAX_DEPTH: usize = 128;

impl PartialJson {
    pub fn new() -> Self {
        Self::default()
    }
    pub fn push(&mut self, fragment: &str, _out: &mut Vec<Change>) {
        self.text.push_str(fragment);
    }
    pub fn finish(&mut self, out: &mut Vec<Change>) -> bool {
        match serde_json::from_str::<Parsed>(&self.text) {
            Ok(v) => {
                out.push(Change::Set {
                    path: Vec::new(),
                    value: v,
                });
                self.complete = true;
                true
            }
            Err(_) => {
                self.failed = true;
                false
            }
        }
    }
    pub fn failed(&self) -> bool {
        self.failed
    }
    pub fn complete(&self) -> bool {
        self.complete
    }
}

fn at_path<'a>(mut at: &'a mut Parsed, path: &[Step]) -> Option<&'a mut Parsed> {
    for step in path {
        at = match (at, step) {
            (Parsed::Object(entries), Step::Key(k)) => entries
                .iter_mut()
                .find(|(key, _)| key == k)
                .map(|(_, v)| v)?,
            (Parsed::Array(items), Step::Index(i)) => items.get_mut(*i)?,
            _ => return None,
        };
    }
    Some(at)
}

pub fn apply(target: &mut Parsed, change: &Change) {
    match change {
        Change::Append { path, text } => {
            if let Some(Parsed::String(s)) = at_path(target, path) {
                s.push_str(text)
            }
        }
        Change::Set { path, value } => match path.split_last() {
            None => *target = value.clone(),
            Some((last, parent)) => match (at_path(target, parent), last) {
                (Some(p @ Parsed::Object(_)), Step::Key(k)) => p.set(k, value.clone()),
                (Some(Parsed::Array(items)), Step::Index(i)) => {
                    if *i == items.len() {
                        items.push(value.clone())
                    } else if let Some(slot) = items.get_mut(*i) {
                        *slot = value.clone()
                    }
                }
                _ => {}
            },
        },
    }
}
