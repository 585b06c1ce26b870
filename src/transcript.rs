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
use crate::json::doc::{Doc, Engine, Node, Resume, SyntaxError};
use crate::json::{Json, Kind};
use crate::map::Index;
use crate::message::{parse_message, Message};
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

/// What [`Transcript::counts`] counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Records that start a message: `sequence` 0.
    pub messages: usize,
    /// Error records in place of elements that could not be read.
    pub errors: usize,
}

/// A given record's part of [`Counts`]: (its sequence is 0, it is an error record in the shape
/// of one put in place of an element).
fn given_counts<J: Json>(record: &Record<J>) -> (bool, bool) {
    use crate::json::Number;
    use crate::record::Value;
    let zero = match &record.sequence {
        Value::Int(n) => *n == 0,
        Value::Given(j) => match j.as_number() {
            Some(Number::Int(n)) => n == 0,
            Some(Number::Float(x)) => x == 0.0,
            None => false,
        },
        _ => false,
    };
    let error_type = match &record.content_type {
        Value::Given(j) => j.as_str().is_some_and(|s| s == "error"),
        Value::Str(s) => *s == "error",
        _ => false,
    };
    let error = error_type
        && matches!(record.message_type, Value::Nil)
        && match &record.content {
            Value::Given(content) => content
                .get("path")
                .is_some_and(|path| path.as_str().is_some()),
            _ => false,
        };
    (zero, error)
}

/// A conversation inside the module. `F` says how numbers are parsed and printed.
pub struct Transcript<F> {
    docs: Vec<Doc>,
    entries: Vec<Entry>,
    calls: Calls,
    /// Where reading the loaded array stands while elements of it are still to be read
    /// ([`Transcript::open`], [`Transcript::read`]).
    reading: Option<Reading>,
    /// A syntax error met by a method that reads the rest first ([`Transcript::read_rest`]),
    /// which the next [`Transcript::read`] returns.
    unreported: Option<Error>,
    /// The records' search text, made once (by [`Transcript::prepare_search`] a slice at a time, or
    /// by the first search), so that a query scans lowercased bytes instead of making each
    /// record's text and lowercasing it again.
    search_text: SearchText,
    floats: PhantomData<F>,
}

/// The tool calls whose records are pending, by id: a later result settles them.
#[derive(Default)]
struct Calls {
    /// The ids of tool calls whose records were pending when added.
    ids: Index<'static>,
    /// The records still pending on each of those ids, at the id's number: a later result
    /// settles (and empties) them.
    pending: Vec<Vec<u32>>,
    /// How many lists of `pending` are not empty. Once at most a quarter are, the ids of the empty
    /// ones are forgotten, so that a long conversation holds only the ids still waiting.
    waiting: usize,
}

impl Calls {
    /// Record `index`, a tool call's, waits for a result with the call's id.
    fn wait(&mut self, id: &str, index: u32) {
        if let Some(list) = self.ids.value_mut(Cow::Owned(id.into()), &mut self.pending) {
            self.waiting += usize::from(list.is_empty());
            list.push(index);
        }
    }

    /// The records waiting on `id`, no longer waiting.
    fn settle(&mut self, id: &str) -> Vec<u32> {
        let Some(list) = self.ids.find(id).and_then(|at| self.pending.get_mut(at)) else {
            return Vec::new();
        };
        let list = mem::take(list);
        self.waiting = self.waiting.saturating_sub(usize::from(!list.is_empty()));
        list
    }

    /// The ids of settled calls forgotten, once at most a quarter of those kept still wait.
    fn forget_settled(&mut self) {
        if self.pending.len() < 64 || self.pending.len() < 4 * self.waiting {
            return;
        }
        let pending = &self.pending;
        self.ids
            .retain(|number| pending.get(number).is_some_and(|list| !list.is_empty()));
        self.pending.retain(|list| !list.is_empty());
    }
}

/// How far the loaded array (of the first document) is read.
struct Reading {
    /// The array's value in the document.
    array: u32,
    /// The value of the next element to read (0 before the first: none is at 0, the root).
    next: u32,
    /// That element's index in the array.
    index: usize,
    /// True when the array is the top-level object's `messages` (paths start `$.messages`).
    under_messages: bool,
    /// Where parsing the text stands while the top-level array is parsed as it is read (`None`
    /// once the text is parsed whole).
    parse: Option<Resume>,
}

/// What a call of [`Transcript::read`] did.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Read {
    /// True once every element is read (or reading stopped at `error`).
    pub done: bool,
    /// The records there before the call whose status it changed (tool calls its results
    /// settled), in no particular order.
    pub settled: Vec<u32>,
    /// The text is not JSON past the elements read: the error [`Transcript::from_json`] gives it
    /// ("Expected JSON text at $: ..."). The records of the elements before it stay, and reading
    /// is done. A read that reads elements before it meets the error returns them (and what they
    /// settled) without it, and the next read returns it: a read that returns an error reads
    /// nothing.
    pub error: Option<Error>,
}

/// The lowercased `toText` of records `0..ends.len()`, one after another, and the last search.
///
/// A record's text never changes once made (an append adds records and settles statuses, which
/// no text holds), so the index only grows, at the end, as records are appended.
#[derive(Default)]
struct SearchText {
    text: String,
    /// `ends[i]`: where record `i`'s text ends in `text` (it starts where record `i - 1`'s ends).
    ends: Vec<usize>,
    /// The records among them whose `toText` is not a string: they match no query, not even "".
    none: Vec<u32>,
    /// The last search not cut short by a limit: a query that contains its query can only be
    /// found in its hits (and in the records appended since), so typing a query letter by letter
    /// scans fewer records at each letter.
    last: Option<Last>,
}

struct Last {
    query: String,
    hits: Vec<u32>,
    /// How many records there were then.
    records: usize,
}

impl SearchText {
    /// True when record `i`'s text contains `query` (lowercased, not empty).
    fn holds(&self, i: usize, query: &Query<'_>) -> bool {
        let start = match i.checked_sub(1) {
            Some(before) => self.ends.get(before).copied().unwrap_or(usize::MAX),
            None => 0,
        };
        let end = self.ends.get(i).copied().unwrap_or(0);
        self.text
            .as_bytes()
            .get(start..end)
            .is_some_and(|t| query.found_in(t))
    }

    fn bytes(&self) -> usize {
        self.text.capacity()
            + self.ends.capacity() * mem::size_of::<usize>()
            + self.none.capacity() * 4
            + self
                .last
                .as_ref()
                .map_or(0, |l| l.query.capacity() + l.hits.capacity() * 4)
    }
}

/// Texts waiting to be lowercased together, joined by NUL: one call of [`Engine::lowercase`] (a
/// call out to the JavaScript engine in wasm) for many records.
///
/// Lowercasing maps each character on its own but for the final sigma (`Σ` at a word's end is
/// `ς`), whose context is the cased and case-ignorable characters around it; U+0000 is neither,
/// so the texts joined lowercase as each does alone. NUL lowercases to itself and nothing else
/// lowercases to it: the pieces come back one a text (a text holding a NUL is lowercased alone).
#[derive(Default)]
struct Batch {
    text: String,
    /// How many texts `text` holds.
    texts: usize,
}

/// Lowercased texts are made in batches of about this many bytes.
const BATCH: usize = 1 << 16;

/// Appends `text` lowercased to `out` and returns true when the module knows the lowercase of
/// each of its characters without Unicode's tables (which would add kilobytes to the module):
/// ASCII, Latin-1 (`À`-`Þ` but `×` lowercase 32 code points on), and blocks without case, whose
/// characters lowercase to themselves: general punctuation, currency, arrows, mathematical
/// operators, technical and geometric symbols, dingbats, CJK punctuation, kana and ideographs,
/// Hangul syllables and pictographic emoji. Else false (with `out` partly written): the engine
/// lowercases it. `tests::the_lowercase_known_is_unicodes` checks every code point against
/// Rust's tables.
fn lower_known(text: &str, out: &mut String) -> bool {
    if text.is_ascii() {
        let at = out.len();
        out.push_str(text);
        if let Some(added) = out.get_mut(at..) {
            added.make_ascii_lowercase();
        }
        return true;
    }
    for c in text.chars() {
        let code = c as u32;
        let lower = match code {
            0x41..=0x5A | 0xC0..=0xD6 | 0xD8..=0xDE => char::from_u32(code + 0x20),
            0..=0xFF
            | 0x2000..=0x206F
            | 0x20A0..=0x20CF
            | 0x2190..=0x23FF
            | 0x2500..=0x27BF
            | 0x3000..=0x9FFF
            | 0xAC00..=0xD7A3
            | 0x1F300..=0x1FAFF => Some(c),
            _ => None,
        };
        match lower {
            Some(lower) => out.push(lower),
            None => return false,
        }
    }
    true
}

impl Batch {
    /// Adds `text`'s lowercase to `index`: at once when the module knows the lowercase of each of
    /// its characters ([`lower_known`]), else through the batch.
    fn push<F: Engine>(&mut self, index: &mut SearchText, text: &str) {
        let mark = index.text.len();
        if lower_known(text, &mut index.text) {
            if self.texts == 0 {
                index.ends.push(index.text.len());
                return;
            }
            // The texts waiting go first.
            index.text.truncate(mark);
            self.flush::<F>(index);
            lower_known(text, &mut index.text);
            index.ends.push(index.text.len());
            return;
        }
        index.text.truncate(mark);
        if text.bytes().any(|b| b == 0) {
            // A NUL of its own would cut the batch's pieces wrong: lowercased alone.
            self.flush::<F>(index);
            index.text.push_str(&F::lowercase(text));
            index.ends.push(index.text.len());
            return;
        }
        if self.texts > 0 {
            self.text.push('\0');
        }
        self.text.push_str(text);
        self.texts += 1;
        if self.text.len() >= BATCH {
            self.flush::<F>(index);
        }
    }

    /// Lowercases the texts onto `index`, one record each.
    fn flush<F: Engine>(&mut self, index: &mut SearchText) {
        if self.texts == 0 {
            return;
        }
        let lower = F::lowercase(&self.text);
        // One piece a text (no text holds a NUL); should an engine ever give fewer or more, the
        // records keep their places all the same (a search would miss, never fail).
        let mut pieces = lower.split('\0');
        for _ in 0..self.texts {
            index.text.push_str(pieces.next().unwrap_or_default());
            index.ends.push(index.text.len());
        }
        self.text.clear();
        self.texts = 0;
    }
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
        let mut transcript = Self::open(text)?;
        transcript.read_rest();
        if let Some(error) = transcript.unreported.take() {
            return Err(error);
        }
        transcript.docs.shrink_to_fit();
        transcript.entries.shrink_to_fit();
        Ok(transcript)
    }

    /// Opens `text`, reading none of its elements yet: [`Transcript::read`] reads them, a slice
    /// at a time, so that a caller can show the first records before the last are read.
    ///
    /// A top-level array is parsed as it is read: `open` parses nothing of it, and each `read`
    /// parses only as far as the elements it reads, so that the first records cost only their own
    /// text; text that is not JSON past them is an error of a later `read`
    /// ([`Read::error`]). Any other top level is parsed whole here (an object's `messages` is
    /// known only once every key is: of duplicate keys the last counts), and its errors are
    /// those of [`Transcript::from_json`].
    pub fn open(text: String) -> Result<Self> {
        // Two records a message, about what conversations hold (a message is about 500 bytes of
        // text), so that the list is seldom moved while it grows.
        let entries = Vec::with_capacity(text.len() / 256);
        let (mut doc, mut parse) = Doc::start(text);
        let reading = if doc.starts_array() {
            Some(Reading {
                array: 0,
                next: 0,
                index: 0,
                under_messages: false,
                parse: Some(parse),
            })
        } else {
            doc.resume(&mut parse, usize::MAX)
                .map_err(|e| syntax_error(&e))?;
            let root: Node<'_, F> = doc.root();
            let array = match root.kind() {
                Kind::Object => match root.get("messages").filter(|m| m.kind() == Kind::Array) {
                    Some(messages) => messages,
                    None => return Err(Self::shape_error(root.kind())),
                },
                other => return Err(Self::shape_error(other)),
            };
            array.items().next().map(|first| Reading {
                array: array.id(),
                next: first.id(),
                index: 0,
                under_messages: true,
                parse: None,
            })
        };
        Ok(Transcript {
            docs: vec![doc],
            entries,
            calls: Calls::default(),
            reading,
            unreported: None,
            search_text: SearchText::default(),
            floats: PhantomData,
        })
    }

    /// Reads up to `count` more elements of the loaded array, in order, adding their records.
    ///
    /// Statuses follow `toDisplayMessages`' rule as each message is read: a tool call's record is
    /// pending until a result with its id in a later message is read, which settles it (the
    /// earliest such result decides). Only the calls still waiting keep their ids, so that what
    /// reading holds besides the document stays small: the peak memory of a Transcript is its
    /// document, its records and the ids of the calls not answered yet.
    ///
    /// A top-level array is parsed only as far as the elements read ([`Transcript::open`]); text
    /// that is not JSON past them ends reading with [`Read::error`], returned by a read that reads
    /// nothing: the elements before it come with the read before.
    pub fn read(&mut self, count: usize) -> Read {
        let mut read = Read::default();
        if let Some(error) = self.unreported.take() {
            read.done = true;
            read.error = Some(error);
            return read;
        }
        let Transcript {
            docs,
            entries,
            calls,
            reading,
            unreported,
            ..
        } = self;
        let (Some(mut at), Some(doc)) = (reading.take(), docs.first_mut()) else {
            read.done = true;
            return read;
        };
        // The elements parsed but not read yet, and the index after the last of them.
        let mut end = u32::MAX;
        if let Some(parse) = at.parse.as_mut() {
            let ready = parse.complete().saturating_sub(at.index);
            if ready < count {
                if let Err(e) = doc.resume(parse, count - ready) {
                    read.error = Some(syntax_error(&e));
                }
            }
            end = parse.complete_end();
            if at.next == 0 {
                // The first element, if any is complete (slot 1, after the array's own).
                at.next = 1;
            }
        }
        let doc: &Doc = doc;
        let first_index = at.index;
        let base = if at.under_messages {
            Path::Root("$.messages")
        } else {
            Path::ROOT
        };
        let mut place = Place {
            shown: entries.len() as u32,
            entries,
            calls,
            settled: &mut read.settled,
        };
        let array: Node<'_, F> = doc.node(at.array);
        let mut elements = array.items_between(at.next, end);
        for element in elements.by_ref().take(count) {
            if element.kind() == Kind::Object && element.get("content_type").is_some() {
                place.entries.push(Self::given(&element, &base, at.index));
            } else {
                // Read as the viewer reads it: alone, paths from `$`, then placed at the element.
                match parse_message(&F::wrap(element), &Path::ROOT) {
                    Ok(message) => place.add::<F>(0, element.id(), &message),
                    Err(e) => {
                        let path = e.path.strip_prefix('$').unwrap_or(&e.path);
                        let path = text!(base.index(at.index), path);
                        place
                            .entries
                            .push(Entry::Error(Box::new((e.message, path))));
                    }
                }
            }
            at.index += 1;
        }
        match elements.next() {
            // Elements read before the error: their records and what they settled now, the error
            // from the next read (reading is over: nothing but it is left).
            _ if read.error.is_some() && (at.index > first_index || !read.settled.is_empty()) => {
                *unreported = read.error.take();
            }
            _ if read.error.is_some() => read.done = true,
            Some(next) => {
                at.next = next.id();
                *reading = Some(at);
            }
            // Parsed as far as read, the rest still to parse.
            None if at.parse.as_ref().is_some_and(|p| !p.finished()) => {
                at.next = end;
                *reading = Some(at);
            }
            None => read.done = true,
        }
        read
    }

    /// Reads every element left, for a method that needs them all: the records it reads settle
    /// nothing shown that a caller must hear of (what follows changes every index anyway), and a
    /// syntax error met is kept for the next [`Transcript::read`] to return.
    fn read_rest(&mut self) {
        while self.reading.is_some() {
            if let Some(error) = self.read(usize::MAX).error {
                self.unreported = Some(error);
            }
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

    /// How far the text is parsed: the byte offset a top-level array's parse stands at while it
    /// is parsed as it is read, else `None` (parsed whole, or given up at an error). For tests.
    #[doc(hidden)]
    pub fn parsed_to(&self) -> Option<usize> {
        self.reading.as_ref()?.parse.as_ref().map(Resume::offset)
    }

    /// The number of records.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Bytes held by the parsed documents (text and tree), the record list and the search text
    /// made so far.
    pub fn size(&self) -> usize {
        self.docs.iter().map(Doc::size).sum::<usize>()
            + self.entries.capacity() * core::mem::size_of::<Entry>()
            + self.search_text.bytes()
    }

    /// Adds one message (its JSON text, `text`) at the end: its records, and the statuses of
    /// earlier pending tool calls its results settle. A message that cannot be read is an error
    /// (paths from `$.message`) and changes nothing.
    pub fn append(&mut self, text: String) -> Result<()> {
        let root = Path::Root("$.message");
        let doc = Doc::parse(text).map_err(|e| syntax_error(&e))?;
        {
            let node: Node<'_, F> = doc.root();
            let message = parse_message(&F::wrap(node), &root)?;
            // The loaded array first, so that the message comes after all of it.
            self.read_rest();
            let mut place = Place {
                entries: &mut self.entries,
                calls: &mut self.calls,
                shown: 0,
                settled: &mut Vec::new(),
            };
            place.add::<F>(self.docs.len() as u32, node.id(), &message);
        }
        self.docs.push(doc);
        Ok(())
    }

    /// Over the records read so far: how many start a message (`sequence` 0) and how many are
    /// error records put in place of an element that could not be read (`content_type` `error`,
    /// `message_type` null, a `path` in `content`), as counting over [`Transcript::records`] gives
    /// them, without making the records: a message's records by their sequence, a given record by
    /// its fields.
    pub fn counts(&self) -> Counts {
        let mut counts = Counts::default();
        let mut cache = ItemCache::default();
        for entry in &self.entries {
            let (starts, error) = match entry {
                // (a message's item is not made again: its sequence is in the entry)
                Entry::Item { sequence, .. } => (*sequence == 0, false),
                _ => match self.out(entry, &mut cache) {
                    Out::Given(record) => given_counts(&record),
                    Out::Item(record) => (record.sequence == 0, false),
                    Out::Error { .. } => (true, true),
                },
            };
            counts.messages += usize::from(starts);
            counts.errors += usize::from(error);
        }
        counts
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
    /// as `String.prototype.toLowerCase` does), at most `limit` of them, after reading the elements
    /// not read yet ([`Transcript::read`]). The records' search text
    /// not made yet is made first ([`Transcript::prepare_search`]); a query that contains the last
    /// one searched whole is looked for only in its hits.
    pub fn search(&mut self, query: &str, limit: Option<usize>) -> Vec<u32> {
        self.read_rest();
        let query = F::lowercase(query);
        let n = self.entries.len();
        self.index_to(n);
        let index = &mut self.search_text;
        let limit = limit.unwrap_or(usize::MAX);
        let mut found = Vec::new();
        if query.is_empty() {
            // Every record with a text.
            let mut none = index.none.iter().copied();
            let mut next = none.next();
            for i in 0..n as u32 {
                if found.len() >= limit {
                    break;
                }
                if next == Some(i) {
                    next = none.next();
                } else {
                    found.push(i);
                }
            }
            return found;
        }
        let q = Query::new(&query);
        let last = index.last.take();
        let refined = last
            .as_ref()
            .filter(|last| last.records <= n && Query::new(&last.query).found_in(query.as_bytes()));
        let (candidates, from) = match refined {
            Some(last) => (&last.hits[..], last.records),
            None => (&[][..], 0),
        };
        for i in candidates.iter().map(|&i| i as usize).chain(from..n) {
            if found.len() >= limit {
                break;
            }
            if index.holds(i, &q) {
                found.push(i as u32);
            }
        }
        index.last = if found.len() < limit {
            Some(Last {
                query,
                hits: found.clone(),
                records: n,
            })
        } else {
            last
        };
        found
    }

    /// Makes the search text of up to `count` more records, in order (after reading the elements
    /// not read yet); true once every record has its search text. A caller that does this a slice at a time (the element does, after
    /// loading) spares the first search the work.
    pub fn prepare_search(&mut self, count: usize) -> bool {
        self.read_rest();
        let end = self.search_text.ends.len().saturating_add(count);
        self.index_to(end);
        self.search_text.ends.len() >= self.entries.len()
    }

    /// Makes the search text of the records up to `end` (exclusive, clamped).
    fn index_to(&mut self, end: usize) {
        let end = end.min(self.entries.len());
        let mut index = mem::take(&mut self.search_text);
        {
            let mut cache = ItemCache::default();
            let mut built = String::new();
            let mut batch = Batch::default();
            for i in index.ends.len()..end {
                let Some(entry) = self.entries.get(i) else {
                    break;
                };
                match self.text_of(entry, &mut cache, &mut built) {
                    Some(Found::Given(text)) => {
                        batch.push::<F>(&mut index, &text.as_str().unwrap_or_default())
                    }
                    Some(Found::Built) => batch.push::<F>(&mut index, &built),
                    None => {
                        index.none.push(i as u32);
                        batch.push::<F>(&mut index, "");
                    }
                }
            }
            batch.flush::<F>(&mut index);
        }
        self.search_text = index;
    }
}

/// Where a message's records go: the record list, with the calls waiting for results.
struct Place<'t> {
    entries: &'t mut Vec<Entry>,
    calls: &'t mut Calls,
    /// Records below this index that a result settles are noted in `settled`.
    shown: u32,
    settled: &'t mut Vec<u32>,
}

impl Place<'_> {
    /// Adds the records of `message` (value `node` of document `doc`), after settling the calls
    /// its results answer: the calls of earlier messages, so that the earliest later result
    /// decides each.
    fn add<F: Engine>(&mut self, doc: u32, node: u32, message: &Message<F::Value<'_>>) {
        for result in &message.tool_results {
            let Some(id) = result.tool_call_id.as_ref().and_then(|id| id.as_str()) else {
                continue;
            };
            let waiting = self.calls.settle(&id);
            if waiting.is_empty() {
                continue;
            }
            let status = Status::of_result(result);
            for index in waiting {
                if let Some(Entry::Item { status: s, .. }) = self.entries.get_mut(index as usize) {
                    *s = status;
                }
                if index < self.shown {
                    self.settled.push(index);
                }
            }
        }
        self.calls.forget_settled();
        // The message's records, in record_items' order (texts, tool calls, tool results),
        // counted without making their contents (a tool result's text parts are joined only
        // when its record is asked for).
        for (sequence, item) in record_items(message).into_iter().enumerate() {
            let status = match &item.content {
                // A status the call's reader gave it stands; else its results settle it.
                ItemContent::ToolCall {
                    status: Some(status),
                    ..
                } => *status,
                ItemContent::ToolCall { call_id, .. } => {
                    if let Some(id) = call_id.as_ref().and_then(|id| id.as_str()) {
                        self.calls.wait(&id, self.entries.len() as u32);
                    }
                    Status::Pending
                }
                _ => Status::Completed,
            };
            self.entries.push(Entry::Item {
                doc,
                message: node,
                sequence: sequence as u32,
                status,
            });
        }
    }
}

/// A record's `toText`: a string value of the input, or the text in the caller's buffer.
enum Found<V> {
    Given(V),
    Built,
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

    /// True when `t` contains the query.
    fn found_in(&self, t: &[u8]) -> bool {
        let Some(&first) = self.bytes.first() else {
            return true;
        };
        let mut at = 0;
        let mut k = 0;
        loop {
            if k == 0 {
                // Nothing matched: a scan past the next first byte, the common case.
                match t.get(at..).and_then(|rest| find_byte(rest, first)) {
                    Some(p) => {
                        at += p + 1;
                        k = 1;
                    }
                    None => return false,
                }
            } else {
                match t.get(at) {
                    Some(&b) => {
                        k = Self::step(self.bytes, &self.border, k, b);
                        at += 1;
                    }
                    None => return false,
                }
            }
            if k == self.bytes.len() {
                return true;
            }
        }
    }
}

/// Where byte `b` first is in `t`: eight bytes at a time, as one 64-bit word (a byte equal to `b`
/// is a zero byte of the word XOR `b` in every byte; the lowest byte flagged by the subtraction
/// is the first such, since a borrow only runs towards the higher bytes).
fn find_byte(t: &[u8], b: u8) -> Option<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let pattern = ONES * u64::from(b);
    let mut words = t.chunks_exact(8);
    let mut at = 0;
    for word in &mut words {
        // (Always eight bytes: one 64-bit load.)
        let x = <[u8; 8]>::try_from(word).map_or(0, u64::from_le_bytes) ^ pattern;
        let zero = x.wrapping_sub(ONES) & !x & HIGHS;
        if zero != 0 {
            return Some(at + (zero.trailing_zeros() / 8) as usize);
        }
        at += 8;
    }
    words
        .remainder()
        .iter()
        .position(|&x| x == b)
        .map(|p| at + p)
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

    type T = super::Transcript<RustEngine>;

    /// A Transcript of one user message a text, each one record.
    fn of_texts(texts: &[&str]) -> T {
        let messages: Vec<serde_json::Value> = texts
            .iter()
            .map(|text| serde_json::json!({"role": "user", "content": text}))
            .collect();
        T::from_json(serde_json::Value::Array(messages).to_string()).unwrap()
    }

    /// The records whose `to_text` lowercased contains `query` lowercased, found one by one.
    fn brute_force(t: &T, query: &str) -> Vec<u32> {
        let query = query.to_lowercase();
        (0..t.len())
            .filter(|&i| {
                t.to_text(i)
                    .is_some_and(|text| text.to_lowercase().contains(&query))
            })
            .map(|i| i as u32)
            .collect()
    }

    #[test]
    fn search_folds_case_as_to_lower_case_does() {
        let hit = |text: &str, query: &str| {
            let mut t = of_texts(&[text]);
            let found = t.search(query, None);
            // The same searched again, now through the index made by the first.
            assert_eq!(t.search(query, None), found, "{text:?} {query:?}");
            found == [0]
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

    /// Texts lowercased together, joined by NUL, give what each gives alone: the final sigma at
    /// either side of a join, texts holding NULs themselves, texts the module lowercases itself
    /// between those it batches, empty texts, and batches cut every 64 KB.
    #[test]
    fn texts_lowercased_together_are_each_lowercased_alone() {
        let long = "Ab\u{130}Σ ".repeat(7000);
        let texts = [
            "ΑΣ",
            "ΣΑ",
            "",
            "a\0B",
            "Σ",
            "\0",
            "ΟΔΟΣ ΟΔΟΣ",
            "\0Σ\0",
            "x",
            &long,
            &long,
            "Ω",
            "ÉCOLE",
            "END",
        ];
        let mut t = of_texts(&texts);
        assert!(t.prepare_search(usize::MAX));
        let index = &t.search_text;
        assert_eq!(index.ends.len(), t.len());
        let mut start = 0;
        for i in 0..t.len() {
            let want = t.to_text(i).unwrap().to_lowercase();
            assert_eq!(index.text[start..index.ends[i]], want, "text {i}");
            start = index.ends[i];
        }
        for query in [
            "ας",
            "σα",
            "ς\0",
            "\0σ",
            "b",
            "ὀ",
            "i̇σ",
            "οδος οδος",
            "ς οδος",
            "end",
        ] {
            assert_eq!(t.search(query, None), brute_force(&t, query), "{query:?}");
        }
    }

    /// The index made a slice at a time, searched letter by letter (each query refining the
    /// last), with limits, and with records appended between: always the records found one by one.
    #[test]
    fn the_index_stays_exact_as_queries_refine_and_records_are_appended() {
        use serde_json::json;
        let words = ["Phoenix", "über", "東京", "LiveView", "the", "ΣΑΣ", "tool"];
        let mut messages = Vec::new();
        for i in 0..300usize {
            let text: Vec<&str> = (0..4)
                .map(|k| words[(i * 7 + k * k * 3 + i / 5) % words.len()])
                .collect();
            messages.push(json!({"role": if i % 2 == 0 { "user" } else { "assistant" }, "content": text.join(" ")}));
            if i % 9 == 0 {
                messages.push(json!({"role": "assistant", "content": "", "tool_calls": [
                    {"call_id": format!("c{i}"), "name": "Über_Tool", "arguments": {"q": words[i % words.len()]}}
                ]}));
            }
        }
        // A record given as a record, whose toText is not a string: no query finds it, not "".
        messages.push(json!({"conversation_id": "c", "message_type": "user", "content_type": "image", "content": {"url": "https://example.com/a.png", "caption": 5}}));
        let mut t = T::from_json(serde_json::Value::Array(messages).to_string()).unwrap();
        assert_eq!(t.to_text(t.len() - 1), None);
        // Part of the index made ahead, as the element does after loading.
        assert!(!t.prepare_search(100));
        assert_eq!(t.search_text.ends.len(), 100);
        let check = |t: &mut T, query: &str| {
            let want = brute_force(t, query);
            assert_eq!(
                t.search(query, Some(2)),
                want[..want.len().min(2)],
                "{query:?}, limit 2"
            );
            assert_eq!(t.search(query, None), want, "{query:?}");
            want
        };
        let mut appended = 0;
        for typed in ["phoenix l", "ÜBER 東京", "tool call", "σας", "the t"] {
            let mut query = String::new();
            for c in typed.chars() {
                query.push(c);
                check(&mut t, &query);
                // A record appended between two letters is searched too.
                if appended < 12 && query.chars().count() % 3 == 1 {
                    let content = format!("{query} appended {appended}");
                    t.append(json!({"role": "user", "content": content}).to_string())
                        .unwrap();
                    appended += 1;
                }
            }
            // Backspace: a query the last one does not contain searches everything again.
            query.pop();
            check(&mut t, &query);
        }
        assert!(t.prepare_search(0), "every record indexed");
        let all = check(&mut t, "");
        assert_eq!(
            all.len(),
            t.len() - 1,
            "every record but the one without a text"
        );
        assert_eq!(t.search("", Some(3)), [0, 1, 2]);
        assert!(t.search("tool", Some(0)).is_empty());
    }

    /// What the module lowercases itself is what Unicode's tables give, for every code point.
    #[test]
    fn the_lowercase_known_is_unicodes() {
        let mut known = 0;
        for c in (0..=0x10FFFFu32).filter_map(char::from_u32) {
            let mut out = String::new();
            if super::lower_known(c.encode_utf8(&mut [0; 4]), &mut out) {
                assert_eq!(
                    out,
                    c.to_lowercase().collect::<String>(),
                    "U+{:04X}",
                    c as u32
                );
                known += 1;
            }
        }
        assert!(known > 40000, "{known}");
    }

    /// The eight-bytes-at-a-time scan finds a byte at every offset, first of several, past the
    /// words into the last bytes, and never where it is not.
    #[test]
    fn find_byte_finds_the_first() {
        for len in 0..40 {
            for at in 0..len {
                let mut t = vec![b'a'; len];
                t[at] = 0xE9;
                if at + 3 < len {
                    t[at + 3] = 0xE9;
                }
                assert_eq!(super::find_byte(&t, 0xE9), Some(at), "{len} {at}");
                // Bytes that differ from it only in one bit, or by a borrow, are not it.
                assert_eq!(super::find_byte(&t, 0xE8), None);
                assert_eq!(super::find_byte(&t, 0x69), None);
            }
            assert_eq!(super::find_byte(&vec![0u8; len], 0), (len > 0).then_some(0));
            assert_eq!(super::find_byte(&vec![1u8; len], 0), None);
        }
        // A zero byte's borrow does not make the byte after it look like a match.
        assert_eq!(super::find_byte(&[1, 0, 1, 1, 1, 1, 1, 1], 1), Some(0));
        assert_eq!(super::find_byte(&[0, 1, 0, 0, 0, 0, 0, 0, 0], 1), Some(1));
        assert_eq!(super::find_byte(&[2, 1, 2, 2, 2, 2, 2, 2, 2], 1), Some(1));
    }

    /// Every text and query of up to 7 and 4 bytes over `a`, `b` and `é`'s two bytes, at every
    /// offset of the scan's words, against `str::contains`: the partial matches that overlap are where a string search
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
                assert_eq!(q.found_in(text.as_bytes()), want, "{text:?} {query:?}");
                // The same text placed at each offset of a longer one, so that the match
                // falls at every place in an eight-byte word of the scan.
                for pad in 1..9 {
                    let padded = format!("{}{text}", "-".repeat(pad));
                    assert_eq!(q.found_in(padded.as_bytes()), want, "{padded:?} {query:?}");
                }
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
        assert_eq!(t.calls.waiting, 101);
        assert!(t.calls.ids.len() <= 4 * 101, "{}", t.calls.ids.len());
        for i in (0..1000).step_by(20) {
            push(&mut t, result(&format!("c{i}"), false));
        }
        push(&mut t, result("c1", true));
        assert_eq!(t.calls.waiting, 50);
        assert!(t.calls.ids.len() <= 4 * 50 + 64, "{}", t.calls.ids.len());
        let messages = serde_json::Value::Array(messages);
        let want = serde_json::to_value(crate::to_display_messages(&&messages, None).unwrap());
        let got = serde_json::to_value(t.records(0, t.len()));
        assert_eq!(got.unwrap(), want.unwrap());
    }
}
