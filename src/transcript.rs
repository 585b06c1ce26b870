//! A conversation held as parsed JSON text ([`Doc`]), handing out one window of display-message
//! records, one record's search text, or the records a search finds, without ever building the
//! whole conversation as values.
//!
//! Loading reads the same shapes as the viewer: an array of LangChain or Sycophant messages,
//! `{messages: [...]}`, an array of DisplayMessage records (elements with a `content_type` key), or
//! a mix. An element that cannot be read becomes an `error` record in its place
//! (`content: {text, path}`, status `failed`); the others load. Records are kept as where they come
//! from (message, item index, status), about 16 bytes each, and rebuilt from the text on demand.

use crate::display::{record_items, DisplayItem, DisplayRecord, ErrorRecord, ItemContent, Status};
use crate::error::text;
use crate::error::{Error, ErrorCode, Path, Result};
use crate::json::doc::{Doc, Engine, Node, SyntaxError};
use crate::json::{Json, Kind};
use crate::map::Index;
use crate::message::parse_message;
use crate::prelude::*;
use crate::record::{refused, validate_display_message, Record};
use crate::text::{self, Text};
use alloc::borrow::Cow;
use core::marker::PhantomData;
use core::mem;
use serde::ser::Serializer;
use serde::Serialize;

/// Where a record comes from.
#[derive(Clone, Debug)]
enum Entry {
    /// Item `sequence` of the message at value `message` of document `doc`.
    Item {
        doc: u32,
        message: u32,
        sequence: u32,
        status: Status,
    },
    /// A valid DisplayMessage record given in the input, at value `node` of document `doc`.
    Given { doc: u32, node: u32 },
    /// An element that could not be read: its reason and path (boxed, so that the common
    /// entries stay 16 bytes).
    Error(Box<(String, String)>),
}

/// One record, as [`Transcript::records`] hands it out.
#[derive(Debug)]
pub enum Out<'a, F: Engine> {
    /// A record made from a message's display item, as `toDisplayMessages` makes it.
    Item(DisplayRecord<F::Value<'a>>),
    /// A record given in the input, validated (defaults applied).
    Given(Box<Record<F::Value<'a>>>),
    /// `{content_type: "error", content: {text, path}, status: "failed", ...}`: an
    /// [`ErrorRecord`].
    Error { text: &'a str, path: &'a str },
}

/// Each record serializes as the JSON record it is.
impl<F: Engine> Serialize for Out<'_, F> {
    fn serialize<S: Serializer>(&self, s: S) -> core::result::Result<S::Ok, S::Error> {
        match self {
            Out::Item(record) => record.serialize(s),
            Out::Given(record) => record.serialize(s),
            Out::Error { text, path } => ErrorRecord::new(text, path).serialize(s),
        }
    }
}

/// A conversation inside the module. `F` says how numbers are parsed and printed.
pub struct Transcript<F> {
    docs: Vec<Doc>,
    entries: Vec<Entry>,
    /// The ids of tool calls whose records were pending when added.
    pending_ids: Index<'static>,
    /// The records still pending on each of those ids, at the id's number: a later result
    /// settles (and empties) them.
    pending: Vec<Vec<u32>>,
    /// How many lists of `pending` are not empty. Once at most a quarter are, the ids of the empty
    /// ones are forgotten, so that a long run of appends holds only the ids still waiting.
    waiting: usize,
    floats: PhantomData<F>,
}

/// The path of element `i` of the loaded array.
fn element_path(root: &Path<'_>, i: usize) -> String {
    root.index(i).render()
}

fn syntax_error(e: &SyntaxError) -> Error {
    Error::new(
        ErrorCode::InvalidInput,
        &Path::ROOT,
        text!(
            "Expected JSON text at $: ",
            e.message,
            " at byte ",
            e.offset,
            "."
        ),
    )
}

impl<F: Engine> Transcript<F> {
    /// Parses `text` and reads every element. Only text that is not JSON, or whose top level is not
    /// an array or an object with a `messages` array, is an error.
    pub fn from_json(text: String) -> Result<Self> {
        let doc = Doc::parse(text).map_err(|e| syntax_error(&e))?;
        let mut transcript = Transcript {
            docs: Vec::new(),
            entries: Vec::new(),
            pending_ids: Index::new(),
            pending: Vec::new(),
            waiting: 0,
            floats: PhantomData,
        };
        transcript.load(&doc)?;
        transcript.docs.push(doc);
        transcript.docs.shrink_to_fit();
        transcript.entries.shrink_to_fit();
        Ok(transcript)
    }

    fn load(&mut self, doc: &Doc) -> Result<()> {
        let root: Node<'_, F> = doc.root();
        let (array, base) = match root.kind() {
            Kind::Array => (root, Path::ROOT),
            Kind::Object => match root.get("messages").filter(|m| m.kind() == Kind::Array) {
                Some(messages) => (messages, Path::Root("$.messages")),
                None => return Err(Self::shape_error(root.kind())),
            },
            other => return Err(Self::shape_error(other)),
        };
        // One pass, keeping only what statuses need: each tool result's status by call id (with
        // its message's place), and each tool call record's id. toDisplayMessages' rule then
        // applies: the earliest result in a later message decides, else the call is pending.
        // Ids are read from the document where they are (no copies), and the elements are walked
        // in place, so that what loading holds besides the document stays small: the peak memory
        // of a Transcript is its document, its records and this.
        let mut result_ids = Index::new();
        let mut results: Vec<Vec<(u32, Status)>> = Vec::new();
        let mut calls: Vec<(u32, u32, F::Value<'_>)> = Vec::new();
        let mut message_index = 0u32;
        // Two records a message, about what conversations hold, so that the list is seldom
        // moved while it grows.
        self.entries.reserve(array.items().count() * 2);
        for (i, element) in array.items().enumerate() {
            let element = &element;
            if element.kind() == Kind::Object && element.get("content_type").is_some() {
                self.entries.push(Self::given(element, &base, i));
                continue;
            }
            // Read as the viewer reads it: alone, paths from `$`, then placed at the element.
            let message = match parse_message(&F::wrap(*element), &Path::ROOT) {
                Ok(message) => message,
                Err(e) => {
                    let path = text!(base.index(i), e.path.strip_prefix('$').unwrap_or(&e.path));
                    self.entries.push(Entry::Error(Box::new((e.message, path))));
                    continue;
                }
            };
            for result in &message.tool_results {
                if let Some(id) = result.tool_call_id.as_ref().and_then(Self::id_text) {
                    if let Some(list) = result_ids.value_mut(id, &mut results) {
                        list.push((message_index, Status::of_result(result)));
                    }
                }
            }
            // The message's records, in record_items' order (texts, tool calls, tool results),
            // counted without making their contents (a tool result's text parts are joined only
            // when its record is asked for).
            let element_id = element.id();
            let mut sequence = 0u32;
            let mut push = |entries: &mut Vec<Entry>, status| {
                entries.push(Entry::Item {
                    doc: 0,
                    message: element_id,
                    sequence,
                    status,
                });
                sequence += 1;
            };
            for item in record_items(&message) {
                match item.content {
                    // A status the call's reader gave it stands; else its results settle it.
                    ItemContent::ToolCall {
                        status: Some(status),
                        ..
                    } => push(&mut self.entries, status),
                    ItemContent::ToolCall { call_id, .. } => {
                        if let Some(id) = call_id.filter(|id| id.kind() == Kind::String) {
                            calls.push((self.entries.len() as u32, message_index, id));
                        }
                        push(&mut self.entries, Status::Pending);
                    }
                    _ => push(&mut self.entries, Status::Completed),
                }
            }
            message_index += 1;
        }
        for (index, at, id) in calls {
            let Some(id) = Self::id_text(&id) else {
                continue;
            };
            let found = result_ids
                .find(&id)
                .and_then(|number| results.get(number))
                // A list is in message order: the first result after the call's message is found
                // by a binary search, so that many calls sharing one id (ids repeat, and anyone
                // may write a conversation) do not each scan the results before them.
                .and_then(|list| list.get(list.partition_point(|(later, _)| *later <= at)));
            match found {
                Some((_, status)) => {
                    if let Some(Entry::Item { status: s, .. }) =
                        self.entries.get_mut(index as usize)
                    {
                        *s = *status;
                    }
                }
                None => self.wait(id, index),
            }
        }
        Ok(())
    }

    /// Record `index`, a tool call's, waits for a result with the call's id.
    fn wait(&mut self, id: Cow<'_, str>, index: u32) {
        let id = Cow::Owned(id.into_owned());
        if let Some(list) = self.pending_ids.value_mut(id, &mut self.pending) {
            self.waiting += usize::from(list.is_empty());
            list.push(index);
        }
    }

    /// The ids of settled calls forgotten, once at most a quarter of those kept still wait.
    fn forget_settled(&mut self) {
        if self.pending.len() < 64 || self.pending.len() < 4 * self.waiting {
            return;
        }
        let pending = &self.pending;
        self.pending_ids
            .retain(|number| pending.get(number).is_some_and(|list| !list.is_empty()));
        self.pending.retain(|list| !list.is_empty());
    }

    /// A tool call id's text: borrowed from the document where it is written plainly there.
    fn id_text<'a>(id: &F::Value<'a>) -> Option<Cow<'a, str>> {
        match F::node(id) {
            Some(node) if node.kind() == Kind::String && !node.is_escaped() => {
                Some(Cow::Borrowed(node.string_text()))
            }
            _ => id.as_str().map(|text| Cow::Owned(text.into_owned())),
        }
    }

    fn shape_error(kind: Kind) -> Error {
        Error::expected(
            &Path::ROOT,
            "an array of messages or records, or an object with a messages array",
            kind,
        )
    }

    /// A DisplayMessage record given in the input: kept when valid, else an error record.
    fn given(element: &Node<'_, F>, base: &Path<'_>, i: usize) -> Entry {
        let path = element_path(base, i);
        match validate_display_message(&F::wrap(*element)) {
            Ok(changeset) if changeset.valid => Entry::Given {
                doc: 0,
                node: element.id(),
            },
            Ok(changeset) => {
                // "Invalid record: field message, message; field message." (pushed piece by
                // piece: `join` brought in a generic joiner of its own.)
                let mut text = String::from("Invalid record: ");
                for (i, (field, messages)) in changeset.errors.iter().enumerate() {
                    text.push_str(if i > 0 { "; " } else { "" });
                    text.push_str(field.name());
                    text.push(' ');
                    for (k, message) in messages.iter().enumerate() {
                        text.push_str(if k > 0 { ", " } else { "" });
                        text.push_str(message);
                    }
                    if let Some(got) = refused(&F::wrap(*element), field.name()) {
                        text.push_str(&got);
                    }
                }
                text.push('.');
                Entry::Error(Box::new((text, path)))
            }
            Err(e) => Entry::Error(Box::new((e.message, path))),
        }
    }

    fn push_item(
        &mut self,
        doc: u32,
        message: u32,
        sequence: usize,
        status: Status,
        call_id: Option<F::Value<'_>>,
    ) {
        let index = self.entries.len() as u32;
        if status == Status::Pending {
            if let Some(id) = call_id.as_ref().and_then(|id| id.as_str()) {
                self.wait(id, index);
            }
        }
        self.entries.push(Entry::Item {
            doc,
            message,
            sequence: sequence as u32,
            status,
        });
    }

    /// The number of records.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Bytes held by the parsed documents (text and tree) and the record list.
    pub fn size(&self) -> usize {
        self.docs.iter().map(Doc::size).sum::<usize>()
            + self.entries.capacity() * core::mem::size_of::<Entry>()
    }

    /// Adds one message (its JSON text, `text`) at the end: its records, and the statuses of
    /// earlier pending tool calls its results settle. A message that cannot be read is an error
    /// (paths from `$.message`) and changes nothing.
    pub fn append(&mut self, text: String) -> Result<()> {
        let root = Path::Root("$.message");
        let doc = Doc::parse(text).map_err(|e| syntax_error(&e))?;
        let doc_index = self.docs.len() as u32;
        {
            let node: Node<'_, F> = doc.root();
            let message = parse_message(&F::wrap(node), &root)?;
            // Earlier calls first: the earliest later result decides each.
            for result in &message.tool_results {
                let Some(id) = result.tool_call_id.as_ref().and_then(|id| id.as_str()) else {
                    continue;
                };
                let Some(waiting) = self
                    .pending_ids
                    .find(&id)
                    .and_then(|at| self.pending.get_mut(at))
                else {
                    continue;
                };
                let waiting = core::mem::take(waiting);
                self.waiting = self
                    .waiting
                    .saturating_sub(usize::from(!waiting.is_empty()));
                let status = Status::of_result(result);
                for index in waiting {
                    if let Some(Entry::Item { status: s, .. }) =
                        self.entries.get_mut(index as usize)
                    {
                        *s = status;
                    }
                }
            }
            self.forget_settled();
            for (sequence, item) in record_items(&message).into_iter().enumerate() {
                let (status, call_id) = match &item.content {
                    ItemContent::ToolCall {
                        status: Some(status),
                        ..
                    } => (*status, None),
                    ItemContent::ToolCall { call_id, .. } => (Status::Pending, call_id.clone()),
                    _ => (Status::Completed, None),
                };
                self.push_item(doc_index, node.id(), sequence, status, call_id);
            }
        }
        self.docs.push(doc);
        Ok(())
    }

    /// The records `start..end` (clamped to the records there are).
    pub fn records(&self, start: usize, end: usize) -> Vec<Out<'_, F>> {
        let end = end.min(self.entries.len());
        let mut out = Vec::with_capacity(end.saturating_sub(start));
        let mut cache = ItemCache::default();
        for entry in self.entries.get(start..end).unwrap_or_default() {
            out.push(self.out(entry, &mut cache));
        }
        out
    }

    fn out<'a>(&'a self, entry: &'a Entry, cache: &mut ItemCache<'a, F>) -> Out<'a, F> {
        match entry {
            Entry::Item {
                doc,
                message,
                sequence,
                status,
            } => match cache.item(&self.docs, *doc, *message, *sequence) {
                Some(item) => Out::Item(DisplayRecord {
                    conversation_id: None,
                    item,
                    sequence: *sequence as usize,
                    status: *status,
                }),
                None => Out::Error {
                    text: "This message could not be read again.",
                    path: "$",
                },
            },
            Entry::Given { doc, node } => {
                let node = self.docs.get(*doc as usize).map(|d| d.node(*node));
                match node.map(|n| validate_display_message(&F::wrap(n))) {
                    Some(Ok(changeset)) => Out::Given(Box::new(changeset.record)),
                    _ => Out::Error {
                        text: "This record could not be read again.",
                        path: "$",
                    },
                }
            }
            Entry::Error(error) => Out::Error {
                text: &error.0,
                path: &error.1,
            },
        }
    }

    /// `toText` of record `index`: the text value itself for a text or thinking record made from
    /// a message (so a caller can hand back the very string), else the text built; `None` past
    /// the end (or where `toText` is not a string).
    pub fn text(&self, index: usize) -> Option<Text<F::Value<'_>>> {
        let entry = self.entries.get(index)?;
        let mut built = String::new();
        Some(
            match self.text_of(entry, &mut ItemCache::default(), &mut built)? {
                Found::Given(value) => Text::Given(value),
                Found::Built => Text::Built(built),
            },
        )
    }

    /// [`Transcript::text`] as a Rust string.
    pub fn to_text(&self, index: usize) -> Option<String> {
        self.text(index)?.as_string()
    }

    /// [`Transcript::text`] of `entry`, a text built in `built` (which it replaces).
    fn text_of<'a>(
        &'a self,
        entry: &'a Entry,
        cache: &mut ItemCache<'a, F>,
        built: &mut String,
    ) -> Option<Found<F::Value<'a>>> {
        built.clear();
        match entry {
            // A valid record's content type and content are as given, and they are all that
            // toText reads.
            Entry::Given { doc, node } => {
                let node: Node<'_, F> = self.docs.get(*doc as usize)?.node(*node);
                match text::to_text(&F::wrap(node)) {
                    Text::Given(value) if value.kind() != Kind::String => None,
                    Text::Given(value) => Some(Found::Given(value)),
                    Text::Built(text) => {
                        *built = text;
                        Some(Found::Built)
                    }
                }
            }
            Entry::Error(error) => {
                built.push_str(&error.0);
                Some(Found::Built)
            }
            Entry::Item { .. } => match self.out(entry, cache) {
                Out::Item(record) => Some(
                    match text::item_text(record.item.content, mem::take(built)) {
                        Text::Given(text) => Found::Given(text),
                        Text::Built(text) => {
                            *built = text;
                            Found::Built
                        }
                    },
                ),
                _ => None,
            },
        }
    }

    /// The indices of the records whose `toText` contains `query`, ignoring case (both lowercased
    /// as `String.prototype.toLowerCase` does), at most `limit` of them.
    pub fn search(&self, query: &str, limit: Option<usize>) -> Vec<u32> {
        let query = F::lowercase(query);
        let query = Query::new(&query);
        let limit = limit.unwrap_or(usize::MAX);
        let mut found = Vec::new();
        let mut cache = ItemCache::default();
        let mut lower = String::new();
        let mut built = String::new();
        for (i, entry) in self.entries.iter().enumerate() {
            if found.len() >= limit {
                break;
            }
            let hit = match self.text_of(entry, &mut cache, &mut built) {
                // A plain string is searched where it lies in the text, without a copy.
                Some(Found::Given(text)) => {
                    let text = text.as_str().unwrap_or_default();
                    contains_ignoring_case::<F>(&text, &query, &mut lower)
                }
                Some(Found::Built) => contains_ignoring_case::<F>(&built, &query, &mut lower),
                None => false,
            };
            if hit {
                found.push(i as u32);
            }
        }
        found
    }
}

/// A record's `toText`: a string value of the input, or the text in the caller's buffer.
enum Found<V> {
    Given(V),
    Built,
}

/// True when `text` lowercased contains `query` (already lowercased).
///
/// An ASCII query is looked for byte by byte, ASCII letters folded, without lowercasing the text:
/// UTF-8 bytes of other characters never equal ASCII ones, so what is found is found in the
/// lowercased text too. Only two characters lowercase to something holding ASCII letters
/// (U+0130 `İ` gives `i̇`, U+212A Kelvin sign gives `k`); a text with either that did not match
/// goes the long way.
fn contains_ignoring_case<F: Engine>(text: &str, query: &Query<'_>, lower: &mut String) -> bool {
    if query.bytes.is_ascii() {
        let t = text.as_bytes();
        if query.found_in(t, true) {
            return true;
        }
        if t.is_ascii() || !has_ascii_lowercasing(t) {
            return false;
        }
    }
    lower.clear();
    lower.push_str(&F::lowercase(text));
    query.found_in(lower.as_bytes(), false)
}

/// A lowercased query, ready to be looked for in many texts.
///
/// Knuth-Morris-Pratt, byte by byte: a UTF-8 query found in UTF-8 text starts and ends at
/// character boundaries, and a text of n bytes takes at most 2n comparisons, whatever the text
/// and query (each byte lengthens the match by at most one and each fallback shortens it, so
/// there are no more fallbacks than bytes; a search that starts again after every partial match
/// compares up to the query's length per byte: 2.5 s for a 1.5 MB text and a 1,000-character
/// query). Not core's two-way `str::contains`, which is 6.8 KB of the module (3.6 KB gzipped).
struct Query<'a> {
    bytes: &'a [u8],
    /// `border[i]`: the length of the longest proper prefix of `bytes[..=i]` that also ends it.
    border: Vec<usize>,
}

impl<'a> Query<'a> {
    fn new(query: &'a str) -> Self {
        let bytes = query.as_bytes();
        let mut border = Vec::with_capacity(bytes.len());
        border.push(0);
        let mut k = 0;
        for &b in bytes.iter().skip(1) {
            k = Self::step(bytes, &border, k, b);
            border.push(k);
        }
        Query { bytes, border }
    }

    /// The length matched after byte `b`, `k` bytes having matched before it.
    #[inline(always)]
    fn step(bytes: &[u8], border: &[usize], mut k: usize, b: u8) -> usize {
        loop {
            if bytes.get(k) == Some(&b) {
                return k + 1;
            }
            match k.checked_sub(1).and_then(|i| border.get(i)) {
                Some(&shorter) => k = shorter,
                None => return 0,
            }
        }
    }

    /// True when `t`, with its ASCII letters folded when `fold` (the query is lowercase), contains
    /// the query.
    fn found_in(&self, t: &[u8], fold: bool) -> bool {
        let Some(&first) = self.bytes.first() else {
            return true;
        };
        let mut text = t
            .iter()
            .map(|&b| if fold { b.to_ascii_lowercase() } else { b });
        let mut k = 0;
        loop {
            k = if k == 0 {
                // Nothing matched: a plain scan past the next first byte, the common case.
                match text.position(|b| b == first) {
                    Some(_) => 1,
                    None => return false,
                }
            } else {
                match text.next() {
                    Some(b) => Self::step(self.bytes, &self.border, k, b),
                    None => return false,
                }
            };
            if k == self.bytes.len() {
                return true;
            }
        }
    }
}

/// True when the UTF-8 bytes `t` hold U+0130 (C4 B0) or U+212A (E2 84 AA).
fn has_ascii_lowercasing(t: &[u8]) -> bool {
    t.iter().enumerate().any(|(i, &b)| {
        (b == 0xC4 && t.get(i + 1) == Some(&0xB0))
            || (b == 0xE2 && t.get(i + 1..i + 3) == Some(&[0x84, 0xAA][..]))
    })
}

/// The display items of the last message read, so the records of one message parse it once.
struct ItemCache<'a, F: Engine> {
    key: Option<(u32, u32)>,
    items: Vec<DisplayItem<F::Value<'a>>>,
}

impl<F: Engine> Default for ItemCache<'_, F> {
    fn default() -> Self {
        ItemCache {
            key: None,
            items: Vec::new(),
        }
    }
}

impl<'a, F: Engine> ItemCache<'a, F> {
    fn item(
        &mut self,
        docs: &'a [Doc],
        doc: u32,
        message: u32,
        sequence: u32,
    ) -> Option<DisplayItem<F::Value<'a>>> {
        if self.key != Some((doc, message)) {
            let node: Node<'a, F> = docs.get(doc as usize)?.node(message);
            let parsed = parse_message(&F::wrap(node), &Path::ROOT).ok()?;
            self.items = record_items(&parsed);
            self.key = Some((doc, message));
        }
        self.items.get(sequence as usize).cloned()
    }
}

#[cfg(test)]
mod tests {
    use crate::json::doc::RustEngine;
    use crate::prelude::*;

    #[test]
    fn search_folds_case_as_to_lower_case_does() {
        let mut buffer = String::new();
        let mut hit = |text: &str, query: &str| {
            let query = query.to_lowercase();
            super::contains_ignoring_case::<RustEngine>(
                text,
                &super::Query::new(&query),
                &mut buffer,
            )
        };
        assert!(hit("Phoenix LiveView", "liveVIEW"));
        assert!(hit("Café ÜBER", "café über"));
        assert!(hit("anything", ""));
        assert!(!hit("Phoenix", "phoenixx"));
        // Characters whose lowercase holds ASCII letters.
        assert!(hit("20 \u{212A}", "20 k"));
        assert!(hit("\u{130}stanbul", "stanbul"));
        assert!(!hit("\u{130}stanbul", "istanbul"));
        assert!(hit("ΣΑΣ", "σας"));
        // A partial match just before the match, matches at either end, one byte short.
        assert!(hit("aaAB", "aab"));
        assert!(hit("Bc and more", "bc"));
        assert!(hit("more, then bC", "bc"));
        assert!(!hit("more, then b", "bc"));
        assert!(!hit("", "a"));
        // The two characters found only the long way, beside text that does not match.
        assert!(hit("é 20 \u{212A}", "20 k"));
        assert!(!hit("é 20 \u{212A}", "20 kk"));
        assert!(!hit("é \u{130}", "j"));
    }

    /// Every text and query of up to 7 and 4 bytes over `a`, `b` and `é`'s two bytes, folded and
    /// not, against `str::contains`: the partial matches that overlap are where a string search
    /// goes wrong.
    #[test]
    fn a_query_is_found_exactly_where_str_contains_finds_it() {
        let words = |len: usize| {
            let mut out = vec![String::new()];
            for _ in 0..len {
                let longer: Vec<String> = out
                    .iter()
                    .flat_map(|w| ["a", "b", "é"].map(|c| format!("{w}{c}")))
                    .collect();
                out.extend(longer);
            }
            out.sort();
            out.dedup();
            out
        };
        let texts = words(5);
        for query in words(3) {
            let q = super::Query::new(&query);
            for text in &texts {
                let want = text.contains(query.as_str());
                assert_eq!(
                    q.found_in(text.as_bytes(), false),
                    want,
                    "{text:?} {query:?}"
                );
                let upper = text.to_ascii_uppercase();
                assert_eq!(
                    q.found_in(upper.as_bytes(), true),
                    want,
                    "{upper:?} {query:?}"
                );
            }
        }
    }

    /// A long run of appends: ids whose calls are settled are forgotten, and every status is what
    /// `toDisplayMessages` gives the same messages (some calls answered at once, some much later,
    /// some never, and one id used twice).
    #[test]
    fn appends_forget_settled_ids_and_keep_statuses() {
        use serde_json::json;
        let mut t = super::Transcript::<RustEngine>::from_json("[]".into()).unwrap();
        let mut messages = Vec::new();
        let mut push = |t: &mut super::Transcript<RustEngine>, message: serde_json::Value| {
            t.append(message.to_string()).unwrap();
            messages.push(message);
        };
        let call = |id: &str| {
            json!({"role": "assistant", "content": "", "tool_calls": [
                {"call_id": id, "name": "f", "arguments": {}}
            ]})
        };
        let result = |id: &str, failed: bool| {
            json!({"role": "tool", "tool_results": [
                {"tool_call_id": id, "name": "f", "content": "x", "is_error": failed}
            ]})
        };
        for i in 0..1000 {
            push(&mut t, call(&format!("c{i}")));
            if i % 10 != 0 {
                push(&mut t, result(&format!("c{i}"), i % 3 == 0));
            }
        }
        push(&mut t, call("c1"));
        // 100 calls wait (one id of them twice), out of 1,001: the table holds few more.
        assert_eq!(t.waiting, 101);
        assert!(t.pending_ids.len() <= 4 * 101, "{}", t.pending_ids.len());
        for i in (0..1000).step_by(20) {
            push(&mut t, result(&format!("c{i}"), false));
        }
        push(&mut t, result("c1", true));
        assert_eq!(t.waiting, 50);
        assert!(
            t.pending_ids.len() <= 4 * 50 + 64,
            "{}",
            t.pending_ids.len()
        );
        let messages = serde_json::Value::Array(messages);
        let want = serde_json::to_value(crate::to_display_messages(&&messages, None).unwrap());
        let got = serde_json::to_value(t.records(0, t.len()));
        assert_eq!(got.unwrap(), want.unwrap());
    }
}
