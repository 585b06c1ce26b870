//! The one hash table of the module: strings (tool call ids, object keys) to dense indices.
//!
//! An [`Index`] numbers its keys 0, 1, 2, ... in the order they are added; a caller keeps each
//! key's value in a list of its own, at the key's number. So there is one table type in the
//! module whatever the values are: a generic map (hashbrown, the standard library's) was compiled
//! once per key and value type, four times in the core, 4.8 KB of the module before gzip.
//!
//! Keys are hashed with FNV-1a: ids and keys are short, and SipHash's protection against chosen
//! keys cost more than the whole lookup here. They come from the caller's own conversation, and in
//! the module SipHash had no secret key to protect them with anyway (wasm32-unknown-unknown has no
//! randomness).

use crate::prelude::*;
use alloc::borrow::Cow;

/// Strings to their numbers, in the order they were added. Keys are borrowed where they can be
/// (from a parsed document) and owned where they must be.
#[derive(Clone, Debug, Default)]
pub struct Index<'a> {
    keys: Vec<Cow<'a, str>>,
    /// Open addressing with linear probing: each slot holds a key's number plus one, or 0 when
    /// empty. Its length is 0 or a power of two at least twice the number of keys.
    slots: Vec<u32>,
}

fn hash(key: &str) -> u32 {
    let mut hash: u32 = 0x811c_9dc5;
    for byte in key.bytes() {
        hash = (hash ^ u32::from(byte)).wrapping_mul(0x0100_0193);
    }
    hash
}

impl<'a> Index<'a> {
    pub fn new() -> Self {
        Index::default()
    }

    /// The number of keys.
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// Where `key` is in the table: its slot, and its number if it is there.
    fn probe(&self, key: &str) -> (usize, Option<usize>) {
        let mask = self.slots.len().wrapping_sub(1);
        let mut at = hash(key) as usize & mask;
        loop {
            match self.slots.get(at).copied() {
                None | Some(0) => return (at, None),
                Some(n) => {
                    let number = n as usize - 1;
                    if self.keys.get(number).is_some_and(|k| k == key) {
                        return (at, Some(number));
                    }
                }
            }
            at = (at + 1) & mask;
        }
    }

    /// The number of `key`, if it was added.
    pub fn find(&self, key: &str) -> Option<usize> {
        if self.keys.is_empty() {
            return None;
        }
        self.probe(key).1
    }

    /// The number of `key`, added (as the next number) if it is new.
    pub fn add(&mut self, key: Cow<'a, str>) -> usize {
        if (self.keys.len() + 1) * 2 > self.slots.len() {
            self.grow();
        }
        let (at, found) = self.probe(&key);
        if let Some(number) = found {
            return number;
        }
        let number = self.keys.len();
        self.keys.push(key);
        if let Some(slot) = self.slots.get_mut(at) {
            *slot = number as u32 + 1;
        }
        number
    }

    /// Twice the slots (at least 16), every key placed again.
    fn grow(&mut self) {
        let len = (self.slots.len() * 2).max(16);
        self.slots = vec![0; len];
        let mask = len - 1;
        for (number, key) in self.keys.iter().enumerate() {
            let mut at = hash(key) as usize & mask;
            while self.slots.get(at).is_some_and(|&n| n != 0) {
                at = (at + 1) & mask;
            }
            if let Some(slot) = self.slots.get_mut(at) {
                *slot = number as u32 + 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_keys_in_the_order_added_and_finds_them_again() {
        let mut index = Index::new();
        assert_eq!(index.find("a"), None);
        // Enough keys to grow the table several times, with borrowed and owned keys mixed.
        let keys: Vec<String> = (0..1000).map(|i| format!("call_{i}")).collect();
        for (i, key) in keys.iter().enumerate() {
            let key: Cow<'_, str> = if i % 2 == 0 {
                Cow::Borrowed(key)
            } else {
                Cow::Owned(key.clone())
            };
            assert_eq!(index.add(key), i);
        }
        assert_eq!(index.len(), 1000);
        for (i, key) in keys.iter().enumerate() {
            assert_eq!(index.find(key), Some(i));
            // Adding a key again gives its number and adds nothing.
            assert_eq!(index.add(Cow::Owned(key.clone())), i);
        }
        assert_eq!(index.len(), 1000);
        assert_eq!(index.find("call_1000"), None);
        assert_eq!(index.find(""), None);
        assert_eq!(index.add(Cow::Borrowed("")), 1000);
        assert_eq!(index.find(""), Some(1000));
    }

    #[test]
    fn colliding_keys_are_told_apart() {
        // Seven keys of the same first slot in the first table (16 slots), so that each probe
        // passes keys that are not its own; the 1000 keys of the test above then grow it.
        let keys: Vec<String> = (0..)
            .map(|i| format!("k{i}"))
            .filter(|k| hash(k) & 15 == 3)
            .take(7)
            .collect();
        let mut index = Index::new();
        for (i, key) in keys.iter().enumerate() {
            assert_eq!(index.add(Cow::Borrowed(key)), i);
        }
        assert_eq!(index.slots.len(), 16);
        for (i, key) in keys.iter().enumerate() {
            assert_eq!(index.find(key), Some(i));
        }
        assert_eq!(index.find("k"), None);
        for i in 0..1000 {
            index.add(Cow::Owned(format!("n{i}")));
        }
        for (i, key) in keys.iter().enumerate() {
            assert_eq!(index.find(key), Some(i));
        }
    }
}
