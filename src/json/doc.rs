//! JSON text parsed once into a compact tree that stays next to the text, read through the
//! [`Json`] view: what a [`crate::transcript::Transcript`] holds instead of a tree of values.
//!
//! Each value is one 12-byte [`Slot`] in document order: where its text starts, its length and
//! kind, and where the next value after it (and everything inside it) begins. Strings are not
//! decoded until asked for; an object's keys are string slots, each followed by its value. The
//! parser is iterative, so nesting depth costs heap, never stack; it accepts exactly the grammar of
//! RFC 8259 (what `JSON.parse` accepts), surrounded by JSON whitespace. It can stop after a number
//! of the top-level container's values and go on later ([`Doc::start`], [`Doc::resume`]), with the
//! same slots as one pass: a Transcript parses a large array as it reads it.

use crate::json::{Json, Kind, Number};
use crate::prelude::*;
use alloc::borrow::Cow;
use core::marker::PhantomData;
use core::mem;
use serde::ser::{SerializeMap, SerializeSeq};
use serde::{Serialize, Serializer};

/// What a document leaves to its engine: how numbers become `f64`s, floats become digits and text
/// is lowercased. Natively Rust's own parsing, formatting and Unicode tables; in wasm the
/// JavaScript engine's, so that none of them is compiled into the module.
pub trait Engine: Sized + 'static {
    /// The handle the core reads a document's values through: the document's [`Node`] itself
    /// natively; in wasm one type shared with JavaScript values, so the core is compiled once.
    type Value<'a>: Json + core::fmt::Debug + Serialize;
    fn parse(text: &str) -> Option<f64>;
    fn shortest_digits(x: f64) -> (String, i64);
    /// `text` lowercased with Unicode's default case mapping (`String.prototype.toLowerCase`).
    fn lowercase(text: &str) -> String;
    fn wrap(node: Node<'_, Self>) -> Self::Value<'_>;
    /// The document value a handle holds, if it holds one.
    fn node<'a>(value: &Self::Value<'a>) -> Option<Node<'a, Self>>;
}

/// Rust's float parsing and formatting.
#[derive(Clone, Copy, Debug)]
pub struct RustEngine;

impl Engine for RustEngine {
    type Value<'a> = Node<'a, RustEngine>;
    fn wrap(node: Node<'_, Self>) -> Self::Value<'_> {
        node
    }
    fn node<'a>(value: &Self::Value<'a>) -> Option<Node<'a, Self>> {
        Some(*value)
    }
    fn parse(text: &str) -> Option<f64> {
        text.parse().ok()
    }
    fn shortest_digits(x: f64) -> (String, i64) {
        crate::json::shortest_digits(x)
    }
    fn lowercase(text: &str) -> String {
        text.to_lowercase()
    }
}

const NULL: u32 = 0;
const FALSE: u32 = 1;
const TRUE: u32 = 2;
const NUMBER: u32 = 3;
const STRING: u32 = 4;
/// A string with at least one backslash escape in it.
const ESCAPED: u32 = 5;
const ARRAY: u32 = 6;
const OBJECT: u32 = 7;
const TAG_BITS: u32 = 3;
/// Longest text one value may span: 512 MiB (the length shares a `u32` with the tag).
const MAX_LEN: usize = (1 << (32 - TAG_BITS)) - 1;

/// One value of the document.
#[derive(Clone, Copy, Debug)]
struct Slot {
    start: u32,
    /// The length of the value's text, shifted left by `TAG_BITS`, or'ed with its tag.
    len_tag: u32,
    /// The index of the first slot after this value and everything inside it.
    next: u32,
}

impl Slot {
    #[inline(always)]
    fn tag(self) -> u32 {
        self.len_tag & ((1 << TAG_BITS) - 1)
    }
    #[inline(always)]
    fn range(self) -> (usize, usize) {
        let start = self.start as usize;
        (start, start + (self.len_tag >> TAG_BITS) as usize)
    }
}

/// The slots of a document, in chunks of 16,384 (192 KiB), so that growing never copies them all
/// and memory stays near what they need: a single vector doubling as it fills would briefly hold
/// old and new copies, half of them unused.
#[derive(Debug, Default)]
struct Slots {
    chunks: Vec<Vec<Slot>>,
    len: usize,
}

/// Slots come in chunks of 4,096 (48 KB): small enough that the unused end of the last one is
/// little next to its text, large enough that a document has few.
const CHUNK_BITS: usize = 12;
const CHUNK: usize = 1 << CHUNK_BITS;

impl Slots {
    /// Adds a slot, with `rest` bytes of text still to read.
    fn push(&mut self, slot: Slot, rest: usize) {
        // Every chunk is made at its full size, so none is ever moved: growing one at the end of
        // the module's memory moves it (the memory must grow first), and the peak then held both
        // copies, 0.4 times a 0.5 MB text. The first is made as large as its text is likely to
        // need, at most a value per 8 bytes (conversations hold one per 17), so that a small
        // document (one appended message) stays small; what is left goes by `shrink_to_fit`.
        if self.len % CHUNK == 0 {
            let capacity = if self.chunks.is_empty() {
                (rest / 8 + 1).min(CHUNK)
            } else {
                CHUNK
            };
            self.chunks.push(Vec::with_capacity(capacity));
        }
        if let Some(chunk) = self.chunks.last_mut() {
            chunk.push(slot);
            self.len += 1;
        }
    }

    fn len(&self) -> usize {
        self.len
    }

    #[inline(always)]
    fn get(&self, i: usize) -> Option<&Slot> {
        self.chunks.get(i >> CHUNK_BITS)?.get(i & (CHUNK - 1))
    }

    fn get_mut(&mut self, i: usize) -> Option<&mut Slot> {
        self.chunks
            .get_mut(i >> CHUNK_BITS)?
            .get_mut(i & (CHUNK - 1))
    }

    fn shrink_to_fit(&mut self) {
        if let Some(last) = self.chunks.last_mut() {
            last.shrink_to_fit();
        }
        self.chunks.shrink_to_fit();
    }

    fn bytes(&self) -> usize {
        self.chunks.iter().map(Vec::capacity).sum::<usize>() * core::mem::size_of::<Slot>()
    }
}

/// A parsed JSON text.
#[derive(Debug)]
pub struct Doc {
    text: Box<str>,
    slots: Slots,
}

/// Why a text is not JSON: what was found, and the byte offset.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SyntaxError {
    pub message: &'static str,
    pub offset: usize,
}

/// Where a parse that stops and goes on stands ([`Doc::start`], [`Doc::resume`]): the text read
/// so far, the containers open there, and how many values directly inside the top-level array or
/// object are complete.
#[derive(Debug, Default)]
pub struct Resume {
    at: usize,
    /// Open containers: (slot index, is object, values so far).
    open: Vec<(usize, bool, usize)>,
    finished: bool,
    /// Values of the top-level container complete (each followed by its comma, or the last by
    /// the closing bracket).
    complete: usize,
    /// The index of the first slot after them.
    complete_end: usize,
}

impl Resume {
    /// True once the whole text is parsed (and was JSON).
    pub fn finished(&self) -> bool {
        self.finished
    }

    /// The byte offset the parse stands at.
    pub fn offset(&self) -> usize {
        self.at
    }

    /// How many values directly inside the top-level array (or object: its values) are parsed.
    pub fn complete(&self) -> usize {
        self.complete
    }

    /// The index of the slot after the complete values of the top level and everything inside
    /// them: where [`Node::items_between`] stops.
    pub fn complete_end(&self) -> u32 {
        self.complete_end as u32
    }
}

struct Parser<'a> {
    bytes: &'a [u8],
    at: usize,
    slots: Slots,
}

/// The number of bytes before the first quote, backslash or control character of `rest`.
///
/// Eight bytes at a time while none of them is one: most of a conversation's text is inside
/// strings, and the module is built for size, so the compiler does not vectorize a byte loop.
fn plain_len(rest: &[u8]) -> usize {
    const ONES: u64 = u64::from_le_bytes([1; 8]);
    const HIGH: u64 = ONES << 7;
    // The high bit of a byte of `zero(x)` is set when that byte of `x` is zero or a lower byte
    // was, and likewise for `below_space(w)` and bytes under 0x20; the byte loop finds which.
    let zero = |x: u64| x.wrapping_sub(ONES) & !x & HIGH;
    let below_space = |w: u64| w.wrapping_sub(ONES * 0x20) & !w & HIGH;
    let mut start = 0;
    for chunk in rest.chunks_exact(8) {
        let w = chunk.try_into().map_or(0, u64::from_le_bytes);
        if zero(w ^ (ONES * u64::from(b'"'))) | zero(w ^ (ONES * u64::from(b'\\'))) | below_space(w)
            != 0
        {
            break;
        }
        start += 8;
    }
    let tail = rest.get(start..).unwrap_or_default();
    start
        + tail
            .iter()
            .position(|&b| b == b'"' || b == b'\\' || b < 0x20)
            .unwrap_or(tail.len())
}

impl Parser<'_> {
    fn error<T>(&self, message: &'static str) -> Result<T, SyntaxError> {
        Err(SyntaxError {
            message,
            offset: self.at,
        })
    }

    #[inline(always)]
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }

    #[inline(always)]
    fn skip_space(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.at += 1;
        }
    }

    fn push(&mut self, start: usize, tag: u32) -> Result<usize, SyntaxError> {
        if self.slots.len() >= u32::MAX as usize || start > u32::MAX as usize {
            return self.error("text too large");
        }
        self.slots.push(
            Slot {
                start: start as u32,
                len_tag: tag,
                next: 0,
            },
            self.bytes.len().saturating_sub(start),
        );
        Ok(self.slots.len() - 1)
    }

    /// Sets the length and next index of slot `i`, now that its value ends at `self.at`.
    fn close(&mut self, i: usize) -> Result<(), SyntaxError> {
        let next = self.slots.len() as u32;
        let at = self.at;
        let Some(slot) = self.slots.get_mut(i) else {
            return Ok(());
        };
        let len = at - slot.start as usize;
        if len > MAX_LEN {
            return self.error("value too large");
        }
        slot.len_tag |= (len as u32) << TAG_BITS;
        slot.next = next;
        Ok(())
    }

    fn literal(&mut self, word: &[u8], tag: u32) -> Result<(), SyntaxError> {
        if self.bytes.get(self.at..self.at + word.len()) != Some(word) {
            return self.error("unexpected character");
        }
        let i = self.push(self.at, tag)?;
        self.at += word.len();
        self.close(i)
    }

    fn digits(&mut self) -> usize {
        let from = self.at;
        while matches!(self.peek(), Some(b'0'..=b'9')) {
            self.at += 1;
        }
        self.at - from
    }

    fn number(&mut self) -> Result<(), SyntaxError> {
        let i = self.push(self.at, NUMBER)?;
        if self.peek() == Some(b'-') {
            self.at += 1;
        }
        match self.peek() {
            Some(b'0') => self.at += 1,
            Some(b'1'..=b'9') => {
                self.digits();
            }
            _ => return self.error("expected a digit"),
        }
        if self.peek() == Some(b'.') {
            self.at += 1;
            if self.digits() == 0 {
                return self.error("expected a digit after the decimal point");
            }
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.at += 1;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.at += 1;
            }
            if self.digits() == 0 {
                return self.error("expected a digit in the exponent");
            }
        }
        self.close(i)
    }

    fn string(&mut self) -> Result<(), SyntaxError> {
        let i = self.push(self.at, STRING)?;
        self.at += 1;
        let mut escaped = false;
        loop {
            // Plain characters in a tight loop; only quotes, backslashes and controls stop it.
            self.at += plain_len(self.bytes.get(self.at..).unwrap_or_default());
            match self.peek() {
                None => return self.error("unterminated string"),
                Some(b'"') => {
                    self.at += 1;
                    break;
                }
                Some(b'\\') => {
                    escaped = true;
                    self.at += 1;
                    match self.peek() {
                        Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => {
                            self.at += 1
                        }
                        Some(b'u') => {
                            self.at += 1;
                            let hex = self.bytes.get(self.at..self.at + 4);
                            if !hex.is_some_and(|h| h.iter().all(u8::is_ascii_hexdigit)) {
                                return self.error("bad \\u escape");
                            }
                            self.at += 4;
                        }
                        _ => return self.error("bad escape"),
                    }
                }
                Some(_) => return self.error("control character in string"),
            }
        }
        if escaped {
            if let Some(slot) = self.slots.get_mut(i) {
                slot.len_tag = ESCAPED;
            }
        }
        self.close(i)
    }

    /// Parses on from where `state` stands until `children` more values directly inside the
    /// top-level array or object are complete and followed by a comma (the parser then stands
    /// where the next one starts), or to the end of the text: one value, with nothing but
    /// whitespace around it. Stopping and going on changes nothing: the slots are those of one
    /// pass ([`Doc::parse`] is this run to the end).
    fn resume(&mut self, state: &mut Resume, children: usize) -> Result<(), SyntaxError> {
        if state.finished || children == 0 {
            return Ok(());
        }
        // Open containers: (slot index, is object, values so far).
        let open = &mut state.open;
        let mut ended = 0;
        loop {
            // A value is expected here.
            match self.peek() {
                Some(b'{' | b'[') => {
                    let object = self.peek() == Some(b'{');
                    let i = self.push(self.at, if object { OBJECT } else { ARRAY })?;
                    self.at += 1;
                    self.skip_space();
                    let close = if object { b'}' } else { b']' };
                    if self.peek() == Some(close) {
                        self.at += 1;
                        self.close(i)?;
                    } else {
                        open.push((i, object, 0));
                        if object {
                            if self.peek() != Some(b'"') {
                                return self.error("expected a key");
                            }
                            self.key()?;
                        }
                        continue;
                    }
                }
                Some(b'"') => self.string()?,
                Some(b'-' | b'0'..=b'9') => self.number()?,
                Some(b't') => self.literal(b"true", TRUE)?,
                Some(b'f') => self.literal(b"false", FALSE)?,
                Some(b'n') => self.literal(b"null", NULL)?,
                None => return self.error("unexpected end of text"),
                Some(_) => return self.error("unexpected character"),
            }
            // A value just ended: close containers until one goes on.
            loop {
                self.skip_space();
                let Some(&(i, object, _)) = open.last() else {
                    if self.at != self.bytes.len() {
                        return self.error("unexpected text after the value");
                    }
                    state.finished = true;
                    state.complete_end = self.slots.len();
                    return Ok(());
                };
                let close = if object { b'}' } else { b']' };
                match self.peek() {
                    Some(b',') => {
                        // A child of the top level is complete: its slots end here.
                        let child = open.len() == 1;
                        if child {
                            state.complete += 1;
                            state.complete_end = self.slots.len();
                        }
                        self.at += 1;
                        self.skip_space();
                        if object {
                            if self.peek() != Some(b'"') {
                                return self.error("expected a key");
                            }
                            self.key()?;
                        }
                        if child {
                            ended += 1;
                            if ended >= children {
                                return Ok(());
                            }
                        }
                        break;
                    }
                    Some(c) if c == close => {
                        if open.len() == 1 {
                            state.complete += 1;
                        }
                        self.at += 1;
                        self.close(i)?;
                        open.pop();
                        if open.is_empty() {
                            state.complete_end = self.slots.len();
                        }
                    }
                    _ => return self.error("expected a comma or a closing bracket"),
                }
            }
        }
    }

    /// A key, the colon after it, and the space before its value.
    fn key(&mut self) -> Result<(), SyntaxError> {
        self.string()?;
        self.skip_space();
        if self.peek() != Some(b':') {
            return self.error("expected a colon");
        }
        self.at += 1;
        self.skip_space();
        Ok(())
    }
}

impl Doc {
    /// Parses `text`, which must be one JSON value (with optional whitespace around it).
    pub fn parse(text: impl Into<Box<str>>) -> Result<Doc, SyntaxError> {
        let (mut doc, mut state) = Doc::start(text);
        doc.resume(&mut state, usize::MAX)?;
        Ok(doc)
    }

    /// A document of `text` with nothing parsed yet, and where its parse stands:
    /// [`Doc::resume`] parses it, as far as asked each time.
    pub fn start(text: impl Into<Box<str>>) -> (Doc, Resume) {
        let text: Box<str> = text.into();
        let at = text.len() - text.trim_start_matches([' ', '\t', '\n', '\r']).len();
        let state = Resume {
            at,
            ..Resume::default()
        };
        let doc = Doc {
            text,
            slots: Slots::default(),
        };
        (doc, state)
    }

    /// True when the text's top level is an array (its first character past whitespace is `[`).
    pub fn starts_array(&self) -> bool {
        self.text
            .trim_start_matches([' ', '\t', '\n', '\r'])
            .starts_with('[')
    }

    /// Parses on from where `state` stands until `children` more values directly inside the
    /// top-level array (or object) are complete, each followed by its comma, or to the end of the
    /// text. The values complete are read through [`Node::items_between`] up to
    /// [`Resume::complete_end`]; slots past it belong to values not complete yet. Once an error
    /// is returned the document holds what came before it, and `state` must not be resumed.
    /// Stopping and going on changes nothing: the slots are exactly those of [`Doc::parse`].
    pub fn resume(&mut self, state: &mut Resume, children: usize) -> Result<(), SyntaxError> {
        let mut parser = Parser {
            bytes: self.text.as_bytes(),
            at: state.at,
            slots: mem::take(&mut self.slots),
        };
        let result = parser.resume(state, children);
        state.at = parser.at;
        self.slots = parser.slots;
        if result.is_ok() && state.finished {
            self.slots.shrink_to_fit();
        }
        result
    }

    /// The top-level value.
    pub fn root<F>(&self) -> Node<'_, F> {
        Node {
            doc: self,
            id: 0,
            floats: PhantomData,
        }
    }

    /// The value with index `id` (from [`Node::id`]).
    pub fn node<F>(&self, id: u32) -> Node<'_, F> {
        Node {
            doc: self,
            id,
            floats: PhantomData,
        }
    }

    /// Bytes held: the text and the slots.
    pub fn size(&self) -> usize {
        self.text.len() + self.slots.bytes()
    }
}

/// One value of a [`Doc`], seen through the [`Json`] view.
pub struct Node<'a, F> {
    doc: &'a Doc,
    id: u32,
    floats: PhantomData<F>,
}

impl<F> Clone for Node<'_, F> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<F> Copy for Node<'_, F> {}

impl<F> core::fmt::Debug for Node<'_, F> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.raw())
    }
}

impl<'a, F: 'a> Node<'a, F> {
    #[inline(always)]
    fn slot(&self) -> Option<Slot> {
        self.doc.slots.get(self.id as usize).copied()
    }

    #[inline(always)]
    fn tag(&self) -> u32 {
        self.slot().map_or(NULL, Slot::tag)
    }

    /// The value's index in its document.
    pub fn id(&self) -> u32 {
        self.id
    }

    /// The value's JSON text, exactly as given.
    #[inline(always)]
    pub fn raw(&self) -> &'a str {
        let doc: &'a Doc = self.doc;
        self.slot()
            .and_then(|s| {
                let (start, end) = s.range();
                doc.text.get(start..end)
            })
            .unwrap_or("null")
    }

    /// True for a string with backslash escapes, whose text differs from its JSON source.
    pub fn is_escaped(&self) -> bool {
        self.tag() == ESCAPED
    }

    /// The inside of a string's quotes, undecoded.
    #[inline(always)]
    fn string_body(&self) -> &'a str {
        let raw = self.raw();
        raw.get(1..raw.len().saturating_sub(1)).unwrap_or("")
    }

    #[inline(always)]
    fn at(&self, id: u32) -> Node<'a, F> {
        Node {
            doc: self.doc,
            id,
            floats: PhantomData,
        }
    }

    /// The indices of the values directly inside an array or object, in order.
    fn children(&self) -> impl Iterator<Item = u32> + 'a {
        self.children_from(self.id + 1)
    }

    /// [`Node::children`] from the one with index `first` on (one of them).
    fn children_from(&self, first: u32) -> impl Iterator<Item = u32> + 'a {
        let end = self.slot().map_or(0, |s| s.next);
        self.children_between(first, end)
    }

    /// [`Node::children_from`] that stops at index `end` (or at the container's end).
    fn children_between(&self, first: u32, end: u32) -> impl Iterator<Item = u32> + 'a {
        let slots = &self.doc.slots;
        let (mut next, end) = match self.slot() {
            // A container still being parsed has no `next` yet (0: none is the root's).
            Some(s) if matches!(s.tag(), ARRAY | OBJECT) => (
                first.max(self.id + 1),
                if s.next == 0 { end } else { end.min(s.next) },
            ),
            _ => (0, 0),
        };
        core::iter::from_fn(move || {
            if next >= end {
                return None;
            }
            let id = next;
            // (A value's next is past it; anything else ends the walk.)
            next = slots
                .get(id as usize)
                .map_or(end, |s| s.next.max(id.saturating_add(1)));
            Some(id)
        })
    }

    /// An array's elements in order (nothing for anything else), without collecting them.
    pub fn items(&self) -> impl Iterator<Item = Node<'a, F>> + 'a {
        self.items_from(self.id + 1)
    }

    /// An array's elements from the one with index `first` on (an index [`Node::items`] gave).
    pub fn items_from(&self, first: u32) -> impl Iterator<Item = Node<'a, F>> + 'a {
        let this = *self;
        let array = self.tag() == ARRAY;
        self.children_from(first)
            .filter(move |_| array)
            .map(move |id| this.at(id))
    }

    /// [`Node::items_from`] of an array still being parsed: the elements before index `end`
    /// ([`Resume::complete_end`]), its own end not being known yet.
    pub fn items_between(&self, first: u32, end: u32) -> impl Iterator<Item = Node<'a, F>> + 'a {
        let this = *self;
        let array = self.tag() == ARRAY;
        self.children_between(first, end)
            .filter(move |_| array)
            .map(move |id| this.at(id))
    }

    /// An object's (key, value) pairs in text order, duplicates included.
    fn pairs(&self) -> impl Iterator<Item = (Node<'a, F>, Node<'a, F>)> + 'a {
        let this = *self;
        let object = self.tag() == OBJECT;
        let mut children = self.children().filter(move |_| object);
        core::iter::from_fn(move || {
            let key = children.next()?;
            let value = children.next()?;
            Some((this.at(key), this.at(value)))
        })
    }

    /// Sets `out[i]` to the id of the value of the object's key `keys[i]`, or 0 where it has none
    /// (no value is at 0, the root): of duplicate keys the last, as in `JSON.parse`. One pass
    /// over the keys, each rejected by its length or first byte before its text is compared;
    /// [`Json::get`] is this for one key, and [`Json::fields_into`] for several.
    #[inline(never)]
    pub fn find_keys(&self, keys: &[&str], out: &mut [u32]) {
        out.fill(0);
        let Some(slot) = self.slot().filter(|s| s.tag() == OBJECT) else {
            return;
        };
        let slots = &self.doc.slots;
        let text = self.doc.text.as_bytes();
        let mut i = self.id + 1;
        while i < slot.next {
            let Some(k) = slots.get(i as usize) else {
                return;
            };
            let index = match k.tag() {
                STRING => {
                    let (start, end) = k.range();
                    // Length and first byte tell most keys apart without a call to `memcmp`.
                    text.get(start + 1..end.saturating_sub(1)).and_then(|body| {
                        keys.iter().position(|key| {
                            let key = key.as_bytes();
                            key.len() == body.len() && key.first() == body.first() && key == body
                        })
                    })
                }
                ESCAPED => {
                    let body = decode(self.at(i).string_body());
                    keys.iter().position(|key| *key == body)
                }
                _ => None,
            };
            if let Some(found) = index.and_then(|index| out.get_mut(index)) {
                *found = i + 1;
            }
            let Some(value) = slots.get(i as usize + 1) else {
                return;
            };
            i = value.next;
        }
    }

    /// The value at `id` of [`Node::find_keys`].
    pub fn found(&self, id: u32) -> Option<Node<'a, F>> {
        (id != 0).then(|| self.at(id))
    }

    /// [`Json::fields_into`] by [`Node::find_keys`], each value made a `T` by `wrap`.
    #[inline(always)]
    pub fn fields_with<T>(&self, keys: &[&str], out: &mut [Option<T>], wrap: impl Fn(Self) -> T) {
        let mut ids = [0; 8];
        match ids.get_mut(..keys.len()) {
            Some(ids) => self.find_keys(keys, ids),
            // Longer lists than any reader asks for: one lookup a key.
            None => {
                for (slot, key) in out.iter_mut().zip(keys) {
                    let mut id = [0];
                    self.find_keys(&[key], &mut id);
                    *slot = self.found(id[0]).map(&wrap);
                }
                return;
            }
        }
        for (slot, &id) in out.iter_mut().zip(&ids) {
            *slot = self.found(id).map(&wrap);
        }
    }

    /// A plain (unescaped) string's text, borrowed from the document; `""` for anything else.
    pub fn string_text(&self) -> &'a str {
        if self.tag() == STRING {
            self.string_body()
        } else {
            ""
        }
    }

    /// True when this string's text is exactly `s`.
    fn str_is(&self, s: &str) -> bool {
        match self.tag() {
            STRING => self.string_body() == s,
            ESCAPED => decode(self.string_body()) == s,
            _ => false,
        }
    }
}

/// The text of a JSON string body with its escapes resolved; a lone surrogate escape becomes
/// U+FFFD (Rust strings cannot hold one; the JavaScript view gives such strings to `JSON.parse`).
pub fn decode(body: &str) -> String {
    let mut out = String::with_capacity(body.len());
    let mut chars = body.chars();
    let mut pending_high: Option<u32> = None;
    let flush = |out: &mut String, high: &mut Option<u32>| {
        if high.take().is_some() {
            out.push('\u{FFFD}');
        }
    };
    while let Some(c) = chars.next() {
        if c != '\\' {
            flush(&mut out, &mut pending_high);
            out.push(c);
            continue;
        }
        let e = chars.next().unwrap_or('\\');
        let simple = match e {
            'b' => Some('\u{8}'),
            'f' => Some('\u{c}'),
            'n' => Some('\n'),
            'r' => Some('\r'),
            't' => Some('\t'),
            'u' => None,
            other => Some(other),
        };
        if let Some(c) = simple {
            flush(&mut out, &mut pending_high);
            out.push(c);
            continue;
        }
        // Four hex digits (the parser checked them), else U+FFFD.
        let unit = chars
            .by_ref()
            .take(4)
            .try_fold(0, |unit, c| Some(unit * 16 + c.to_digit(16)?))
            .unwrap_or(0xFFFD);
        match unit {
            0xD800..=0xDBFF => {
                flush(&mut out, &mut pending_high);
                pending_high = Some(unit);
            }
            0xDC00..=0xDFFF => match pending_high.take() {
                Some(high) => {
                    let c = 0x10000 + ((high - 0xD800) << 10) + (unit - 0xDC00);
                    out.push(char::from_u32(c).unwrap_or('\u{FFFD}'));
                }
                None => out.push('\u{FFFD}'),
            },
            _ => {
                flush(&mut out, &mut pending_high);
                out.push(char::from_u32(unit).unwrap_or('\u{FFFD}'));
            }
        }
    }
    flush(&mut out, &mut pending_high);
    out
}

impl<'a, F: Engine> Json for Node<'a, F> {
    fn kind(&self) -> Kind {
        match self.tag() {
            NULL => Kind::Null,
            FALSE | TRUE => Kind::Bool,
            NUMBER => Kind::Number,
            STRING | ESCAPED => Kind::String,
            ARRAY => Kind::Array,
            _ => Kind::Object,
        }
    }

    fn fields_into(&self, keys: &'static [&'static str], out: &mut [Option<Self>]) {
        self.fields_with(keys, out, |node| node);
    }

    fn get(&self, key: &str) -> Option<Self> {
        let mut id = [0];
        self.find_keys(&[key], &mut id);
        self.found(id[0])
    }

    fn elements(&self) -> Option<Vec<Self>> {
        let slot = self.slot()?;
        if slot.tag() != ARRAY {
            return None;
        }
        let mut out = Vec::with_capacity(self.items().count());
        out.extend(self.items());
        Some(out)
    }

    fn as_str(&self) -> Option<Cow<'_, str>> {
        match self.tag() {
            STRING => Some(Cow::Borrowed(self.string_body())),
            ESCAPED => Some(Cow::Owned(decode(self.string_body()))),
            _ => None,
        }
    }

    fn match_str(&self, candidates: &'static [&'static str]) -> Option<usize> {
        candidates.iter().position(|c| self.str_is(c))
    }

    fn as_bool(&self) -> Option<bool> {
        match self.tag() {
            TRUE => Some(true),
            FALSE => Some(false),
            _ => None,
        }
    }

    fn as_number(&self) -> Option<Number> {
        if self.tag() != NUMBER {
            return None;
        }
        let raw = self.raw();
        // As JavaScript reads it: a double, whole and within ±2^53 an integer.
        let integral = !raw.contains(['.', 'e', 'E']);
        match crate::json::parse_integer(raw) {
            Some(i) if integral && i.unsigned_abs() <= 1 << 53 => Some(Number::Int(i)),
            _ => F::parse(raw).map(Number::from_f64),
        }
    }

    fn entries(&self) -> Option<Vec<(String, Self)>> {
        if self.tag() != OBJECT {
            return None;
        }
        // As `JSON.parse` builds the object: a duplicate key keeps its first place and takes the
        // last value.
        // Duplicates are looked for among the first keys by comparing, and past them in a map
        // made then: most objects are small, and a map per object cost more than the rest.
        const FEW: usize = 16;
        let mut out: Vec<(String, Self)> = Vec::new();
        // The map numbers its keys in the order added, which is their place in `out`.
        let mut seen = crate::map::Index::new();
        for (key, value) in self.pairs() {
            let name = key.as_str().map(Cow::into_owned).unwrap_or_default();
            if out.len() == FEW && seen.is_empty() {
                for (k, _) in &out {
                    seen.add(Cow::Owned(k.clone()));
                }
            }
            let at = if out.len() < FEW {
                out.iter().position(|(k, _)| *k == name)
            } else {
                seen.find(&name)
            };
            match at.and_then(|at| out.get_mut(at)) {
                Some(entry) => entry.1 = value,
                None => {
                    if out.len() >= FEW {
                        seen.add(Cow::Owned(name.clone()));
                    }
                    out.push((name, value));
                }
            }
        }
        Some(out)
    }

    fn is_empty_str(&self) -> bool {
        self.tag() == STRING && self.string_body().is_empty()
    }

    fn empty_object() -> Self {
        let empty = || Doc {
            text: "{}".into(),
            slots: Slots {
                chunks: vec![vec![Slot {
                    start: 0,
                    len_tag: (2 << TAG_BITS) | OBJECT,
                    next: 1,
                }]],
                len: 1,
            },
        };
        #[cfg(any(feature = "std", not(target_arch = "wasm32")))]
        let doc = {
            static EMPTY: std::sync::OnceLock<Doc> = std::sync::OnceLock::new();
            EMPTY.get_or_init(empty)
        };
        // Never called in the module, whose documents are read through `wasm::Value` (its empty
        // object is a JavaScript one); without std there is no `OnceLock` to keep one in.
        #[cfg(not(any(feature = "std", not(target_arch = "wasm32"))))]
        let doc: &'static Doc = Box::leak(Box::new(empty()));
        Node {
            doc,
            id: 0,
            floats: PhantomData,
        }
    }

    fn shortest_digits(x: f64) -> (String, i64) {
        F::shortest_digits(x)
    }
}

/// A value serializes as the JSON it is (natively, to compare outputs with `serde_json`; in wasm a
/// document value reaches JavaScript through `JSON.parse` of its text instead). Nesting deeper
/// than [`super::MAX_DEPTH`] is an error rather than a deep recursion.
impl<F: Engine> Serialize for Node<'_, F> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        Depth(*self, 1).serialize(s)
    }
}

/// A value and how deep it sits.
struct Depth<'a, F>(Node<'a, F>, usize);

impl<F: Engine> Serialize for Depth<'_, F> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let Depth(node, depth) = self;
        if *depth > super::MAX_DEPTH {
            return Err(serde::ser::Error::custom("nested too deep"));
        }
        match node.kind() {
            Kind::Null | Kind::Other => s.serialize_unit(),
            Kind::Bool => s.serialize_bool(node.as_bool() == Some(true)),
            Kind::Number => match node.as_number() {
                Some(Number::Int(i)) => s.serialize_i64(i64::try_from(i).unwrap_or(0)),
                Some(Number::Float(f)) => s.serialize_f64(f),
                None => s.serialize_unit(),
            },
            Kind::String => s.serialize_str(&node.as_str().unwrap_or_default()),
            Kind::Array => {
                let elements = node.elements().unwrap_or_default();
                let mut seq = s.serialize_seq(Some(elements.len()))?;
                for e in &elements {
                    seq.serialize_element(&Depth(*e, depth + 1))?;
                }
                seq.end()
            }
            Kind::Object => {
                let entries = node.entries().unwrap_or_default();
                let mut map = s.serialize_map(Some(entries.len()))?;
                for (k, v) in &entries {
                    map.serialize_entry(k, &Depth(*v, depth + 1))?;
                }
                map.end()
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    type N<'a> = Node<'a, RustEngine>;

    #[test]
    fn plain_len_stops_where_the_byte_loop_stops() {
        let naive = |t: &[u8]| {
            t.iter()
                .position(|&b| b == b'"' || b == b'\\' || b < 0x20)
                .unwrap_or(t.len())
        };
        // Every stopping byte (and a byte either side of each) at every offset of two words, after
        // bytes that are near them in value or have the high bit set.
        for stop in [
            b'"', b'\\', 0x00, 0x1F, b'!', b'#', b'[', b']', b' ', 0x80, 0xFF,
        ] {
            for at in 0..20 {
                for fill in [b'a', 0xE2, 0x21, 0x5B, 0x20] {
                    let mut t = [fill; 19];
                    if let Some(b) = t.get_mut(at) {
                        *b = stop;
                    }
                    for len in 0..=t.len() {
                        let t = &t[..len];
                        assert_eq!(plain_len(t), naive(t), "{t:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn parses_what_json_parse_parses() {
        for text in [
            "null",
            " true ",
            "[1, -0.25e1, \"a\\u00e9\\n\", {\"k\": [], \"\": {}}]",
            "{\"a\":{\"b\":[[[]]]}}",
            "\"\\ud83d\\ude00\"",
        ] {
            let doc = Doc::parse(text).unwrap();
            let value: serde_json::Value = serde_json::from_str(text).unwrap();
            assert_eq!(
                serde_json::to_value(doc.root::<RustEngine>()).unwrap(),
                value,
                "{text}"
            );
        }
        for text in [
            "",
            "[",
            "[1,]",
            "{\"a\" 1}",
            "01",
            "1.",
            "-",
            "\"\\x\"",
            "\"a\nb\"",
            "[] x",
            "tru",
            "{,}",
            "{\"a\":1,}",
            "'a'",
            "NaN",
        ] {
            assert!(Doc::parse(text).is_err(), "{text:?}");
        }
    }

    #[test]
    fn reads_through_the_json_view() {
        let doc = Doc::parse(r#"{"a": 1, "b": "x\"y", "a": [true, null, 2.5], "c": ""}"#).unwrap();
        let root: N = doc.root();
        assert_eq!(root.kind(), Kind::Object);
        let a = root.get("a").unwrap();
        assert_eq!(a.raw(), "[true, null, 2.5]");
        let items = a.elements().unwrap();
        assert_eq!(items.len(), 3);
        assert_eq!(items[0].as_bool(), Some(true));
        assert_eq!(items[1].kind(), Kind::Null);
        assert_eq!(items[2].as_number(), Some(Number::Float(2.5)));
        assert_eq!(root.get("b").unwrap().as_str().unwrap(), "x\"y");
        assert!(root.get("c").unwrap().is_empty_str());
        assert!(root.get("zz").is_none());
        let keys: Vec<String> = root
            .entries()
            .unwrap()
            .into_iter()
            .map(|(k, _)| k)
            .collect();
        assert_eq!(keys, ["a", "b", "c"]);
    }

    #[test]
    fn fields_and_get_find_the_last_of_duplicate_keys_escaped_or_not() {
        let text = r#"{"role": 1, "ro": 2, "content": 3, "r\u006fle": 4, "roles": 5, "tool_calls": [6],
            "content": {"c": 7}, "": 8, "r\u006f": 9}"#;
        let doc = Doc::parse(text).unwrap();
        let root: N = doc.root();
        let want: serde_json::Value = serde_json::from_str(text).unwrap();
        const KEYS: [&str; 7] = ["role", "content", "tool_calls", "missing", "", "rol", "ro"];
        let keys = &KEYS;
        let fields = root.fields(keys);
        for (key, field) in keys.iter().zip(&fields) {
            let want = want.get(key).map(|v| serde_json::to_string(v).unwrap());
            let raw = |v: &N| v.raw().replace(' ', "");
            assert_eq!(field.as_ref().map(raw), want, "fields: {key}");
            assert_eq!(root.get(key).as_ref().map(raw), want, "get: {key}");
        }
        assert_eq!(fields.iter().filter(|f| f.is_some()).count(), 5);
        // Past eight keys, one lookup a key: the same values.
        const MORE: [&str; 10] = [
            "a",
            "role",
            "b",
            "c",
            "content",
            "d",
            "e",
            "f",
            "g",
            "tool_calls",
        ];
        let more = root.fields(&MORE);
        let raw = |v: &Option<N>| v.map(|v| v.raw().to_string());
        assert_eq!(raw(&more[1]), raw(&fields[0]));
        assert_eq!(raw(&more[4]), raw(&fields[1]));
        assert_eq!(raw(&more[9]), raw(&fields[2]));
        assert_eq!(more.iter().filter(|f| f.is_some()).count(), 3);
        // Anything but an object has no fields.
        for text in [r#"["role", 1]"#, r#""role""#, "null"] {
            let doc = Doc::parse(text).unwrap();
            let root: N = doc.root();
            assert!(root.fields(keys).iter().all(Option::is_none), "{text}");
            assert!(root.get("role").is_none(), "{text}");
        }
    }

    #[test]
    fn duplicate_keys_of_large_objects_read_as_json_parse_reads_them() {
        // Duplicates among the first keys, past them (where a map is used), and across the two.
        let mut pairs: Vec<(String, u32)> = (0..40).map(|i| (format!("k{i}"), i)).collect();
        for (key, value) in [
            ("k3", 100),
            ("k30", 101),
            ("k3", 102),
            ("k\\u0031", 103),
            ("new", 104),
            ("k39", 105),
        ] {
            pairs.push((key.into(), value));
        }
        let text = format!(
            "{{{}}}",
            pairs
                .iter()
                .map(|(k, v)| format!("\"{k}\": {v}"))
                .collect::<Vec<_>>()
                .join(", ")
        );
        let doc = Doc::parse(text.as_str()).unwrap();
        let root: N = doc.root();
        let got: Vec<(String, Option<Number>)> = root
            .entries()
            .unwrap()
            .into_iter()
            .map(|(k, v)| (k, v.as_number()))
            .collect();
        // serde_json with `preserve_order` keeps a duplicate's first place and its last value.
        let want: serde_json::Map<String, serde_json::Value> = serde_json::from_str(&text).unwrap();
        let want: Vec<(String, Option<Number>)> = want
            .into_iter()
            .map(|(k, v)| (k, v.as_u64().map(|n| Number::Int((n as i64).into()))))
            .collect();
        assert_eq!(got, want);
        assert_eq!(got.len(), 41);
    }

    /// Every slot of a document as (start, length and tag, next).
    fn slots_of(doc: &Doc) -> Vec<(u32, u32, u32)> {
        (0..doc.slots.len())
            .map(|i| {
                let s = doc.slots.get(i).unwrap();
                (s.start, s.len_tag, s.next)
            })
            .collect()
    }

    /// Parsing a text in steps of every size (values of the top level a step) gives exactly the
    /// slots of one pass, or its error; at each stop the values complete are the first of the
    /// whole parse's, with the same slots, and nothing past them is parsed.
    #[test]
    fn a_parse_in_steps_of_every_size_is_the_whole_parse() {
        let texts = [
            "[]",
            " [ ] ",
            "[1]",
            "[1, -0.5e+3, 0, 2E-7]",
            "[[], {}, [[]], {\"a\": {}}, [1, [2, [3]]]]",
            "[\"a\\\"b\", \"\\u00e9\\n\", \"\", \"plain\", {\"k\\u0041\": \"v\"}]",
            "[true, false, null, {\"t\": true, \"f\": [false, null]}]\n",
            "\t[{\"role\": \"user\", \"content\": \"hi\"},\r\n {\"role\": \"assistant\", \"content\": [{\"type\": \"text\", \"text\": \"x\"}]}]",
            "{\"a\": [1, 2], \"b\": {\"c\": null}, \"a\": 3}",
            "{}",
            "\"alone\"",
            "12",
            // Not JSON: errors at the start, after some values, inside one, and after the end.
            "",
            "[",
            "[1,",
            "[1, 2,]",
            "[1, 2 3]",
            "[1, {\"a\": tru}, 3]",
            "[1, \"unterminated",
            "[1, [2, 3], 4] x",
            "[1, 2]]",
            "{\"a\": 1,}",
        ];
        for text in texts {
            let whole = Doc::parse(text);
            // The values of the top level: an array's elements, an object's values.
            let children = whole.as_ref().ok().map(|doc| {
                let root: N = doc.root();
                match root.kind() {
                    Kind::Array => root.children().count(),
                    Kind::Object => root.children().count() / 2,
                    _ => 0,
                }
            });
            for step in 1..=text.len() + 1 {
                let (mut doc, mut state) = Doc::start(text);
                let mut stops = 0;
                let result = loop {
                    let before = state.complete();
                    if let Err(e) = doc.resume(&mut state, step) {
                        break Err(e);
                    }
                    if state.finished() {
                        break Ok(());
                    }
                    stops += 1;
                    assert!(stops <= text.len(), "{text:?}: no end");
                    // Stopped after exactly `step` more values, each followed by its comma.
                    assert_eq!(state.complete(), before + step, "{text:?} step {step}");
                    let Ok(whole) = &whole else { continue };
                    let root: N = whole.root();
                    let want: Vec<u32> = root.children().take(state.complete()).collect();
                    let got: Vec<u32> = doc
                        .root::<RustEngine>()
                        .children_between(1, state.complete_end())
                        .collect();
                    let array = root.kind() == Kind::Array;
                    if array {
                        assert_eq!(got, want, "{text:?} step {step}");
                    }
                    let end = state.complete_end() as usize;
                    assert_eq!(
                        slots_of(&doc)[1..end],
                        slots_of(whole)[1..end],
                        "{text:?} step {step}"
                    );
                    // Nothing past them but, in an object, the next key.
                    let past = if array { 0 } else { 1 };
                    assert_eq!(
                        doc.slots.len(),
                        end + past,
                        "{text:?}: parsed past the stop"
                    );
                };
                match (&whole, result) {
                    (Ok(whole), Ok(())) => {
                        assert_eq!(slots_of(&doc), slots_of(whole), "{text:?} step {step}");
                        assert_eq!(Some(state.complete()), children, "{text:?}");
                        assert_eq!(state.complete_end() as usize, doc.slots.len());
                    }
                    (Err(want), Err(got)) => assert_eq!(&got, want, "{text:?} step {step}"),
                    (want, got) => panic!("{text:?} step {step}: {want:?} against {got:?}"),
                }
            }
        }
    }

    #[test]
    fn deep_nesting_costs_no_stack() {
        let text = "[".repeat(200_000) + &"]".repeat(200_000);
        let doc = Doc::parse(text).unwrap();
        assert_eq!(doc.root::<RustEngine>().kind(), Kind::Array);
        assert!(serde_json::to_value(doc.root::<RustEngine>()).is_err());
    }

    #[test]
    fn lone_surrogates_decode_to_replacement_characters() {
        assert_eq!(decode("a\\ud800b"), "a\u{FFFD}b");
        assert_eq!(decode("\\udc00"), "\u{FFFD}");
        assert_eq!(decode("\\ud83d\\ude00"), "😀");
    }
}
