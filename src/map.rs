//! The one hash table of the module: strings (tool call ids, object keys) to dense indices.
//!
//! An [`Index`] numbers its keys 0, 1, 2, ... in the order they are added; a caller keeps each
//! key's value in a list of its own, at the key's number. So there is one table type in the
//! module whatever the values are: a generic map (hashbrown, the standard library's) was compiled
//! once per key and value type, four times in the core: 8 KB of the module before gzip, 3.8 KB
//! gzipped.
//!
//! Keys are ids and object keys from a conversation, which anyone may have written. Ids chosen to
//! share one slot would make each lookup walk all the ids before it, a time quadratic in their
//! number. So the hash is keyed: 64-bit multiplies with their high half folded in (as foldhash and
//! aHash hash) over the text's bytes, from a key the module draws from the engine's
//! `Math.random()` when it starts (src/wasm); which ids collide depends on that key, which the
//! author of a conversation cannot know. Natively the key is fixed, so that tests repeat. Nothing
//! the module returns depends on the key: an index keeps its keys in the order added.

use crate::prelude::*;
use alloc::borrow::Cow;
use core::sync::atomic::{AtomicU64, Ordering};

/// The hash key of the indexes made from now on (each keeps the one it was made with).
static KEY: AtomicU64 = AtomicU64::new(0x243f_6a88_85a3_08d3);

/// Sets the hash key of the indexes made from now on.
pub fn set_key(key: u64) {
    KEY.store(key, Ordering::Relaxed);
}

/// Strings to their numbers, in the order they were added. Keys are borrowed where they can be
/// (from a parsed document) and owned where they must be.
#[derive(Clone, Debug)]
pub struct Index<'a> {
    /// The hash key (see the module's text).
    key: u64,
    keys: Vec<Cow<'a, str>>,
    /// Open addressing with linear probing: each slot holds a key's number plus one, or 0 when
    /// empty. Its length is 0 or a power of two at least twice the number of keys.
    slots: Vec<u32>,
}

/// The high and low halves of a full 64-bit product, folded together.
fn fold(a: u64, b: u64) -> u64 {
    let product = u128::from(a) * u128::from(b);
    (product as u64) ^ ((product >> 64) as u64)
}

/// The hash of `text` under `key`: each eight bytes folded into the state with a multiply.
fn hash(key: u64, text: &str) -> u32 {
    const MUL: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut state = key ^ text.len() as u64;
    for chunk in text.as_bytes().chunks(8) {
        let word = chunk
            .iter()
            .fold(0, |word, &byte| (word << 8) | u64::from(byte));
        state = fold(state ^ word, MUL);
    }
    (state ^ (state >> 32)) as u32
}

impl Default for Index<'_> {
    fn default() -> Self {
        Index::new()
    }
}

impl<'a> Index<'a> {
    pub fn new() -> Self {
        Index {
            key: KEY.load(Ordering::Relaxed),
            keys: Vec::new(),
            slots: Vec::new(),
        }
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
        let mut at = hash(self.key, key) as usize & mask;
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

    /// The value of `key` in `values`, a caller's list kept at the keys' numbers: the key added if
    /// it is new, and the list made as long as the keys with `V::default()`.
    pub fn value_mut<'v, V: Default>(
        &mut self,
        key: Cow<'a, str>,
        values: &'v mut Vec<V>,
    ) -> Option<&'v mut V> {
        let at = self.add(key);
        values.resize_with(self.len(), V::default);
        values.get_mut(at)
    }

    /// Keeps the keys for whose number `keep` is true, numbered again in their order (a caller
    /// keeping values at the numbers keeps the same ones, with `Vec::retain`).
    pub fn retain(&mut self, mut keep: impl FnMut(usize) -> bool) {
        let mut number = 0;
        self.keys.retain(|_| {
            number += 1;
            keep(number - 1)
        });
        self.place(self.slots.len());
    }

    /// Twice the slots (at least 16), every key placed again.
    fn grow(&mut self) {
        self.place((self.slots.len() * 2).max(16));
    }

    /// `len` slots, every key placed in them.
    fn place(&mut self, len: usize) {
        self.slots = vec![0; len];
        let mask = len.wrapping_sub(1);
        for (number, key) in self.keys.iter().enumerate() {
            let mut at = hash(self.key, key) as usize & mask;
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
            .filter(|k| hash(KEY.load(Ordering::Relaxed), k) & 15 == 3)
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

    #[test]
    fn which_keys_collide_depends_on_the_hash_key() {
        // 64 ids that share one slot of 1,024 under one key (what an author who knew the key
        // could write) are spread out under another.
        let ids: Vec<String> = (0..)
            .map(|i| format!("call_{i}"))
            .filter(|id| hash(0x0123_4567_89ab_cdef, id) & 1023 == 0)
            .take(64)
            .collect();
        let mut slots: Vec<u32> = ids
            .iter()
            .map(|id| hash(0xfedc_ba98_7654_3210, id) & 1023)
            .collect();
        slots.sort_unstable();
        slots.dedup();
        assert!(slots.len() > 48, "{} slots", slots.len());
    }

    #[test]
    fn retain_keeps_and_renumbers_in_order() {
        let mut index = Index::new();
        for i in 0..100 {
            index.add(Cow::Owned(format!("id{i}")));
        }
        index.retain(|number| number % 3 == 0);
        assert_eq!(index.len(), 34);
        for i in 0..100 {
            let want = (i % 3 == 0).then_some(i / 3);
            assert_eq!(index.find(&format!("id{i}")), want, "id{i}");
        }
        // New keys take the next numbers, and a dropped key comes back as a new one.
        assert_eq!(index.add(Cow::Borrowed("id1")), 34);
        assert_eq!(index.add(Cow::Borrowed("id3")), 1);
        index.retain(|_| false);
        assert!(index.is_empty());
        assert_eq!(index.find("id0"), None);
        assert_eq!(index.add(Cow::Borrowed("id0")), 0);
    }
}
