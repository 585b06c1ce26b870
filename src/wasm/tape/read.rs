//! The tape as input: [`Tape`], a conversation as the glue (`tape.js`) read it, and [`OnTape`], a
//! value on it, read through the core's `Json` view without a call out of wasm, except for the
//! values the glue kept rather than wrote (a long string, a number, a value it did not walk),
//! which are fetched by index, and what it did not write at all, which is read in place.

use super::seeds::{seed, seed_of, seed_slots, SEEDS};
use super::{cd_done, cd_encode, cd_handle, cd_string, cd_text, cd_words};
use super::{PARTIAL, TAG_ARRAY, TAG_FOREIGN, TAG_NUMBER, TAG_OBJECT, TAG_SHORT, TAG_SPECIAL};
use super::{TAG_STRING, UNDEFINED};
use crate::json::{Json, Kind, Number};
use crate::prelude::*;
use crate::wasm::in_place::InPlace;
use crate::wasm::input::Input;
use crate::wasm::setup::Local;
use alloc::borrow::Cow;
use core::cell::Cell;
use wasm_bindgen::JsValue;

/// The words a tape is written into, kept from one call to the next.
static SCRATCH: Local<Cell<Vec<u32>>> = Local(Cell::new(Vec::new()));
/// The least the buffer holds: a message or a short conversation fits in one call.
const SCRATCH_WORDS: usize = 4096;

/// A conversation as the glue read it: the slots, and the text of the short strings it found
/// (after the seeds, which it knows from the start).
#[derive(Debug)]
pub struct Tape {
    /// The slots are `words[..end]` (the rest is the buffer's, left from earlier tapes).
    words: Vec<u32>,
    end: usize,
    text: String,
    /// Each short string's byte range in `text`.
    spans: Vec<(u32, u32)>,
}

impl Tape {
    /// Has the glue read `value`; `None` when it gave up (and the input is read in place).
    /// `compare`: the core compares tool call ids (for the statuses), so the glue numbers them as
    /// short strings; otherwise they are values, only moved.
    pub(in crate::wasm) fn read(value: &JsValue, compare: bool) -> Option<Tape> {
        seed();
        // The words go into the buffer the last tape left (taken, so a call made while this one
        // runs has a buffer of its own), in one call when they fit.
        let mut words = SCRATCH.with(|s| s.take());
        if words.len() < SCRATCH_WORDS {
            words.resize(SCRATCH_WORDS, 0);
        }
        // The glue writes into the buffer through its address (a pointer's address is a number in
        // wasm32): no view of the memory is made per call.
        let len = match cd_encode(value, words.as_mut_ptr() as usize, words.len(), compare) {
            -1 => {
                Tape::keep(words);
                return None;
            }
            len if len < 0 => {
                let len = len.unsigned_abs() as usize;
                words.resize(len.max(words.len()), 0);
                cd_words(words.as_mut_ptr() as usize, len);
                len
            }
            len => len as usize,
        };
        if len < 2 {
            Tape::keep(words);
            cd_done();
            return None;
        }
        // Only the call's own short strings are sent (none, often, for one message).
        let count = (words.first().copied().unwrap_or(0) as usize).min(len - 1);
        let text = if count > 0 { cd_text() } else { String::new() };
        let mut spans = Vec::with_capacity(count);
        let bytes = text.as_bytes();
        let mut at = 0;
        for &units in words.get(len - count..len).unwrap_or_default() {
            let start = at;
            let mut left = units as usize;
            // UTF-16 units to UTF-8 bytes: four bytes are two units, one to three bytes one.
            while left > 0 {
                let Some(&lead) = bytes.get(at) else { break };
                let (size, counted) = match lead {
                    0..=0x7f => (1, 1),
                    0x80..=0xdf => (2, 1),
                    0xe0..=0xef => (3, 1),
                    _ => (4, 2),
                };
                at += size;
                left = left.saturating_sub(counted);
            }
            spans.push((start as u32, at as u32));
        }
        Some(Tape {
            words,
            end: len - count,
            text,
            spans,
        })
    }

    /// Lets the glue drop what it kept for a tape, once the records are made.
    pub(in crate::wasm) fn done(tape: Option<Tape>) {
        if let Some(tape) = tape {
            cd_done();
            Tape::keep(tape.words);
        }
    }

    /// Leaves `words` for the next tape, unless it is huge (the glue's own tape shrinks too).
    fn keep(words: Vec<u32>) {
        if words.len() <= 1 << 20 {
            SCRATCH.with(|s| s.set(words));
        }
    }

    /// The slot at `at` (0, a null, past the end). Inlined: every read of the tape goes through
    /// it, about a million times a call for 10,000 messages, and as a function of its own (which
    /// the size build makes it) it took a tenth of `toDisplayMessages` in Node (issue 45).
    #[inline(always)]
    pub(super) fn word(&self, at: u32) -> u32 {
        let at = at as usize;
        if at < self.end {
            self.words.get(at).copied().unwrap_or(0)
        } else {
            0
        }
    }

    /// The read value: its slot follows the short strings' count.
    pub(in crate::wasm) fn root(&self) -> Input<'_> {
        Input::Tape(OnTape { tape: self, at: 1 })
    }

    /// The text of short string `id`: a seed, or one of this call's.
    fn short(&self, id: u32) -> &str {
        let id = id as usize;
        if let Some(seed) = SEEDS.get(id) {
            return seed;
        }
        self.spans
            .get(id - SEEDS.len())
            .and_then(|&(start, end)| self.text.get(start as usize..end as usize))
            .unwrap_or("")
    }

    /// The slot after the value at `at`.
    #[inline(always)]
    pub(super) fn next(&self, at: u32) -> u32 {
        match self.word(at) & 7 {
            TAG_ARRAY | TAG_OBJECT => self.word(at + 1).max(at + 3),
            _ => at + 1,
        }
    }

    /// Whether key slot `key` holds `name`.
    fn key_is(&self, key: u32, name: &str) -> bool {
        match key & 7 {
            TAG_SHORT => self.short(key >> 3) == name,
            TAG_STRING => cd_handle(key >> 3).as_string().is_some_and(|k| k == name),
            _ => false,
        }
    }
}

/// The key and value slots of an object on the tape ([`OnTape::pairs`]): an iterator of its own,
/// its `next` inlined (as a closure over a range it was a call per key in the size build).
struct Pairs<'a> {
    tape: &'a Tape,
    left: u32,
    at: u32,
}

impl Iterator for Pairs<'_> {
    type Item = (u32, u32);

    #[inline(always)]
    fn next(&mut self) -> Option<(u32, u32)> {
        if self.left == 0 {
            return None;
        }
        self.left -= 1;
        let at = self.at;
        self.at = self.tape.next(at + 1);
        Some((self.tape.word(at), at + 1))
    }
}

/// A value on a [`Tape`].
#[derive(Clone, Copy, Debug)]
pub struct OnTape<'a> {
    pub(super) tape: &'a Tape,
    pub(super) at: u32,
}

impl<'a> OnTape<'a> {
    #[inline(always)]
    pub(in crate::wasm) fn word(&self) -> u32 {
        self.tape.word(self.at)
    }

    #[inline(always)]
    pub(super) fn slot(&self, at: u32) -> Input<'a> {
        Input::Tape(OnTape {
            tape: self.tape,
            at,
        })
    }

    /// A value the glue did not walk, read in place.
    pub(in crate::wasm) fn foreign(&self) -> Option<InPlace> {
        let w = self.word();
        (w & 7 == TAG_FOREIGN).then(|| InPlace::with_kind(cd_handle(w >> 6), self.kind()))
    }

    // Inlined, as `word` below: asked of nearly every value the core reads.
    #[inline(always)]
    pub(in crate::wasm) fn kind(&self) -> Kind {
        let w = self.word();
        match w & 7 {
            TAG_SPECIAL if w >> 3 >= 2 => Kind::Bool,
            TAG_SPECIAL => Kind::Null,
            TAG_SHORT | TAG_STRING => Kind::String,
            TAG_NUMBER => Kind::Number,
            TAG_ARRAY => Kind::Array,
            TAG_OBJECT => Kind::Object,
            _ => match (w >> 3) & 7 {
                4 => Kind::Array,
                5 => Kind::Object,
                _ => Kind::Other,
            },
        }
    }

    /// The key and value slots of an object.
    #[inline(always)]
    fn pairs(&self) -> Pairs<'a> {
        let w = self.word();
        Pairs {
            tape: self.tape,
            left: if w & 7 == TAG_OBJECT { w >> 4 } else { 0 },
            at: self.at + 3,
        }
    }

    /// An object on the tape, to read in place what the glue did not write: a key not on the tape
    /// (which `InPlace` would find where `for...in` does not: a non-enumerable or inherited key), and
    /// a partial object's entries.
    fn in_place(&self) -> Option<InPlace> {
        (self.word() & 7 == TAG_OBJECT)
            .then(|| InPlace::with_kind(cd_handle(self.tape.word(self.at + 2)), Kind::Object))
    }

    pub(in crate::wasm) fn get(&self, key: &str) -> Option<Input<'a>> {
        if let Some(v) = self.foreign() {
            return v.get(key).map(Input::InPlace);
        }
        // A seeded key is always that short string: found by its slot, without reading text.
        let found = match seed_of(key) {
            Some(seed) => self.pairs().find(|&(k, _)| k == seed << 3 | TAG_SHORT),
            None => self.pairs().find(|&(k, _)| self.tape.key_is(k, key)),
        };
        match found {
            Some((_, at)) => (self.tape.word(at) != UNDEFINED).then(|| self.slot(at)),
            None => self.in_place()?.get(key).map(Input::InPlace),
        }
    }

    /// [`Json::fields_into`] in one pass over the object's keys, each compared as the index of
    /// the seed it is (found once per list of keys: a `'static` list is always the same list).
    pub(in crate::wasm) fn fields_into(
        &self,
        keys: &'static [&'static str],
        out: &mut [Option<Input<'a>>],
    ) {
        // Bit i: key i is read by `get` (not a seed, not on the tape, or not an object on the
        // tape). Loops of indices, without closures or iterator adapters: the size build made
        // each of those a call of its own, per key of every object read (issue 45).
        let mut by_name = u64::MAX;
        let slots = if self.word() & 7 == TAG_OBJECT {
            seed_slots(keys)
        } else {
            &[]
        };
        if !slots.is_empty() && slots.len() == keys.len() {
            let mut written = 0u64;
            let mut n = 0;
            // A counter, not `enumerate` (an adapter: above).
            #[allow(clippy::explicit_counter_loop)]
            for (key, at) in self.pairs() {
                // The glue writes a message's objects in the order of the core's lists.
                let mut i = n;
                n += 1;
                if !matches!(slots.get(i), Some(&s) if s == key) {
                    i = 0;
                    while matches!(slots.get(i), Some(&s) if s != key) {
                        i += 1;
                    }
                }
                if let Some(slot) = out.get_mut(i) {
                    written |= 1 << (i % 64);
                    if self.tape.word(at) != UNDEFINED {
                        *slot = Some(self.slot(at));
                    }
                }
            }
            by_name = 0;
            let mut i = 0;
            while let Some(&s) = slots.get(i) {
                let bit = 1 << (i % 64);
                if s == 0 || written & bit == 0 {
                    by_name |= bit;
                }
                i += 1;
            }
        }
        let mut i = 0;
        while let (Some(slot), Some(key)) = (out.get_mut(i), keys.get(i)) {
            if by_name & 1 << (i % 64) != 0 {
                *slot = self.get(key);
            }
            i += 1;
        }
    }

    pub(in crate::wasm) fn get_non_null(&self, key: &str) -> Option<Input<'a>> {
        if let Some(v) = self.foreign() {
            return v.get_non_null(key).map(Input::InPlace);
        }
        self.get(key).filter(|v| v.kind() != Kind::Null)
    }

    pub(in crate::wasm) fn elements(&self) -> Option<Vec<Input<'a>>> {
        if let Some(v) = self.foreign() {
            return Some(v.elements()?.into_iter().map(Input::InPlace).collect());
        }
        let w = self.word();
        if w & 7 != TAG_ARRAY {
            return None;
        }
        let mut out = Vec::with_capacity(((w >> 3) as usize).min(self.tape.end));
        self.each_element(|_, v| {
            out.push(v);
            true
        });
        Some(out)
    }

    /// [`Json::each_element`] of an array on the tape (not one read in place).
    pub(in crate::wasm) fn each_element(
        &self,
        mut f: impl FnMut(usize, Input<'a>) -> bool,
    ) -> bool {
        let w = self.word();
        if w & 7 != TAG_ARRAY {
            return false;
        }
        let mut at = self.at + 3;
        for i in 0..(w >> 3) as usize {
            if !f(i, self.slot(at)) {
                break;
            }
            at = self.tape.next(at);
        }
        true
    }

    pub(in crate::wasm) fn as_str(&self) -> Option<Cow<'a, str>> {
        let w = self.word();
        match w & 7 {
            TAG_SHORT => Some(Cow::Borrowed(self.tape.short(w >> 3))),
            TAG_STRING => cd_handle(w >> 3).as_string().map(Cow::Owned),
            _ => None,
        }
    }

    pub(in crate::wasm) fn match_str(&self, candidates: &'static [&'static str]) -> Option<usize> {
        // A seed is compared by its number: a candidate equal to it is that seed, and one that is
        // no seed has no slot (0, never a short string's). The roles and part types are seeds, so
        // a message and each of its parts is read without comparing text (issue 45).
        let w = self.word();
        if w & 7 == TAG_SHORT && ((w >> 3) as usize) < SEEDS.len() {
            let slots = seed_slots(candidates);
            if slots.len() == candidates.len() {
                return slots.iter().position(|&slot| slot == w);
            }
        }
        let s = self.as_str()?;
        candidates.iter().position(|c| *c == s.as_ref())
    }

    pub(in crate::wasm) fn as_bool(&self) -> Option<bool> {
        let w = self.word();
        (w & 7 == TAG_SPECIAL && w >> 3 >= 2).then_some(w >> 3 == 3)
    }

    pub(in crate::wasm) fn as_number(&self) -> Option<Number> {
        let w = self.word();
        (w & 7 == TAG_NUMBER)
            .then(|| cd_handle(w >> 3).as_f64().map(Number::from_f64))
            .flatten()
    }

    pub(in crate::wasm) fn entries(&self) -> Option<Vec<(String, Input<'a>)>> {
        if let Some(v) = self.foreign() {
            let entries = v.entries()?.into_iter();
            return Some(entries.map(|(k, v)| (k, Input::InPlace(v))).collect());
        }
        if self.word() & 15 == PARTIAL | TAG_OBJECT {
            let entries = self.in_place()?.entries()?.into_iter();
            return Some(entries.map(|(k, v)| (k, Input::InPlace(v))).collect());
        }
        if self.word() & 7 != TAG_OBJECT {
            return None;
        }
        let key = |k: u32| match k & 7 {
            TAG_SHORT => Some(self.tape.short(k >> 3).to_string()),
            _ => cd_handle(k >> 3).as_string(),
        };
        Some(
            self.pairs()
                .filter_map(|(k, at)| Some((key(k)?, self.slot(at))))
                .collect(),
        )
    }

    pub(in crate::wasm) fn is_empty_str(&self) -> bool {
        let w = self.word();
        w & 7 == TAG_SHORT && self.tape.short(w >> 3).is_empty()
    }

    /// The value's index among the glue's values, where it has one.
    pub(in crate::wasm) fn index(&self) -> Option<u32> {
        let w = self.word();
        match w & 7 {
            TAG_STRING | TAG_NUMBER => Some(w >> 3),
            TAG_ARRAY | TAG_OBJECT => Some(self.tape.word(self.at + 2)),
            TAG_FOREIGN => Some(w >> 6),
            _ => None,
        }
    }

    pub(in crate::wasm) fn to_js(self) -> JsValue {
        let w = self.word();
        match (w & 7, w >> 3) {
            (TAG_SHORT, id) => cd_string(id),
            (TAG_SPECIAL, 1) => JsValue::UNDEFINED,
            (TAG_SPECIAL, special) if special >= 2 => JsValue::from_bool(special == 3),
            (TAG_SPECIAL, _) => JsValue::NULL,
            _ => self.index().map_or(JsValue::NULL, cd_handle),
        }
    }
}
