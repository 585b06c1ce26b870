//! JSON text that arrives in fragments (an LLM tool call's arguments, streamed), parsed
//! incrementally into "the value parsed so far", described as a list of [`Change`]s.
//!
//! Re-parsing the whole text on every fragment costs O(n²) over a stream; [`PartialJson`] keeps
//! only a stack of open containers and the state of the token it is in, so each fragment costs
//! work in proportion to its own length. The changes it emits are small (a scalar, an empty
//! container, or the characters a string grew by), each at a path, so a JavaScript layer can
//! update an immutable object by copying the path only; [`apply`] does the same to a [`Parsed`].
//!
//! What is visible after each fragment:
//! - a container as soon as its `{` or `[` is read, a string value as soon as its opening quote is
//!   read (then growing by the characters read, escapes decoded; an escape cut by a fragment
//!   boundary is held until it completes);
//! - an object key only together with the beginning of its value;
//! - numbers, `true`, `false` and `null` only when complete (a number when the character after it
//!   arrives, or at [`PartialJson::finish`] for a number that is the whole text).
//!
//! The grammar is RFC 8259's, what `JSON.parse` accepts, except that containers nest at most
//! [`MAX_DEPTH`] deep. A lone surrogate escape (`"\ud800"`), which `JSON.parse` keeps in a
//! JavaScript string, becomes U+FFFD, the one thing a Rust string can hold in its place.

use super::{Parsed, MAX_DEPTH};
use crate::prelude::*;

/// One step of a path into a value.
#[derive(Clone, Debug, PartialEq)]
pub enum Step {
    /// The value under this key of an object.
    Key(String),
    /// The element at this index of an array.
    Index(usize),
}

/// One change to the value parsed so far.
#[derive(Clone, Debug, PartialEq)]
pub enum Change {
    /// Put `value` at `path`: the root (empty path), a key of an object (new key appended at the
    /// end; an existing key — a repeated key in the text — replaced in place), or an array's next
    /// element (index == its current length).
    /// `value` is a complete scalar, an empty string "" (a string that has begun), or an empty
    /// container {} / [] (one that has begun).
    Set {
        /// Where the value goes.
        path: Vec<Step>,
        /// The value.
        value: Parsed,
    },
    /// The string at `path` grew by `text` (already unescaped).
    Append {
        /// The string that grew.
        path: Vec<Step>,
        /// The characters added at its end.
        text: String,
    },
}

/// An incremental JSON parser: [`push`](PartialJson::push) fragments of one JSON text, then
/// [`finish`](PartialJson::finish); each call reports the changes to the value parsed so far.
///
/// ```
/// use chat_display::json::partial::{apply, PartialJson};
/// use chat_display::providers::Parsed;
///
/// let mut parser = PartialJson::new();
/// let mut value = Parsed::Null;
/// let mut changes = Vec::new();
/// for fragment in [r#"{"city": "Par"#, r#"is", "days": 3"#, "}"] {
///     changes.clear();
///     parser.push(fragment, &mut changes);
///     for change in &changes {
///         apply(&mut value, change);
///     }
/// }
/// assert!(parser.finish(&mut changes));
/// assert_eq!(serde_json::to_string(&value).unwrap(), r#"{"city":"Paris","days":3}"#);
/// ```
#[derive(Debug)]
pub struct PartialJson {
    /// The open containers, outermost first.
    frames: Vec<Frame>,
    /// What the next character may be.
    lex: Lex,
    /// The characters of the object key being read; or, in a string value, those read in this
    /// push and not yet emitted.
    buf: String,
    /// Where the string value being read is.
    str_path: Vec<Step>,
    /// The digits of the number being read.
    num: String,
    failed: bool,
    finished: bool,
}

/// An open container.
#[derive(Debug)]
struct Frame {
    /// The step from its parent to it; `None` for the root.
    step: Option<Step>,
    kind: FrameKind,
}

#[derive(Debug)]
enum FrameKind {
    /// An object, with the key of the value being read (from its closing quote to the end of
    /// its value).
    Object { key: Option<String> },
    /// An array, with its number of complete elements (the index of the next one).
    Array { len: usize },
}

/// Where in the grammar the parser is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Lex {
    /// Between tokens, expecting this.
    Between(Expect),
    /// Inside a string (an object key or a value).
    Str {
        key: bool,
        esc: Esc,
        high: Option<u16>,
    },
    /// Inside a number; its text so far is in `num`.
    Number(Num),
    /// Inside `true`, `false` or `null`, `read` bytes of it read.
    Literal { word: &'static str, read: usize },
}

/// What may come next between tokens (whitespace aside).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Expect {
    /// A value: at the start, after `:`, after `,` in an array.
    Value,
    /// A value or `]`: after `[`.
    ValueOrEnd,
    /// A key or `}`: after `{`.
    KeyOrEnd,
    /// A key: after `,` in an object.
    Key,
    /// `:` after a key.
    Colon,
    /// `,` or the closing bracket, after a value in a container.
    CommaOrEnd,
    /// Nothing but whitespace, after the top-level value.
    Nothing,
}

/// The escape being read in a string.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Esc {
    None,
    /// After `\`.
    Backslash,
    /// After `\u` and `digits` hex digits, whose value is `code`.
    Hex {
        digits: u8,
        code: u16,
    },
}

/// The states of a number token, after: ...
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Num {
    /// `-`
    Minus,
    /// a leading `0`
    Zero,
    /// integer digits not starting with 0
    Int,
    /// `.`
    Dot,
    /// fraction digits
    Frac,
    /// `e` or `E`
    Exp,
    /// the exponent's sign
    ExpSign,
    /// exponent digits
    ExpDigits,
}

impl Num {
    /// The state after `b`, or `None` when `b` does not continue the number.
    fn next(self, b: u8) -> Option<Num> {
        use Num::*;
        match (self, b) {
            (Minus, b'0') => Some(Zero),
            (Minus, b'1'..=b'9') => Some(Int),
            (Int, b'0'..=b'9') => Some(Int),
            (Zero | Int, b'.') => Some(Dot),
            (Dot | Frac, b'0'..=b'9') => Some(Frac),
            (Zero | Int | Frac, b'e' | b'E') => Some(Exp),
            (Exp, b'+' | b'-') => Some(ExpSign),
            (Exp | ExpSign | ExpDigits, b'0'..=b'9') => Some(ExpDigits),
            _ => None,
        }
    }

    /// Whether the number may end here.
    fn complete(self) -> bool {
        matches!(self, Num::Zero | Num::Int | Num::Frac | Num::ExpDigits)
    }
}

/// A syntax error (or nesting too deep); the parser fails.
struct Fail;

const REPLACEMENT: char = '\u{FFFD}';

fn is_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r')
}

impl Default for PartialJson {
    fn default() -> Self {
        Self::new()
    }
}

impl PartialJson {
    /// A parser at the start of a text.
    pub fn new() -> Self {
        PartialJson {
            frames: Vec::new(),
            lex: Lex::Between(Expect::Value),
            buf: String::new(),
            str_path: Vec::new(),
            num: String::new(),
            failed: false,
            finished: false,
        }
    }

    /// Feeds the next fragment; pushes the changes it causes onto `out`. Work is O(fragment
    /// length + depth per emitted change), amortized; never re-scans earlier text.
    ///
    /// The characters a string value grows by in one push are one [`Change::Append`]. After a
    /// failure, or after [`finish`](PartialJson::finish), nothing is read or emitted.
    pub fn push(&mut self, fragment: &str, out: &mut Vec<Change>) {
        if self.failed || self.finished {
            return;
        }
        let mut i = 0;
        while i < fragment.len() {
            match self.read(fragment, i, out) {
                Ok(next) => i = next,
                Err(Fail) => {
                    self.fail(out);
                    return;
                }
            }
        }
        self.flush(out);
    }

    /// End of input: a top-level number that was waiting for a delimiter (e.g. the text "42") is
    /// now complete and is emitted. Returns true when the text was a complete, valid JSON value
    /// (only trailing whitespace after it).
    ///
    /// A text that ends early is not JSON either: after `finish`, [`failed`](PartialJson::failed)
    /// is true exactly when this returned false. Calling it again emits nothing and returns the
    /// same.
    pub fn finish(&mut self, out: &mut Vec<Change>) -> bool {
        if !self.finished {
            self.finished = true;
            if let Lex::Number(state) = self.lex {
                if self.frames.is_empty() && state.complete() && self.end_number(out).is_err() {
                    self.failed = true;
                }
            }
            if !self.complete() {
                self.failed = true;
            }
        }
        !self.failed
    }

    /// True once the text is known not to be JSON (a syntax error, or nesting deeper than
    /// MAX_DEPTH): after that `push` emits nothing more.
    pub fn failed(&self) -> bool {
        self.failed
    }

    /// True when one complete JSON value has been read (only whitespace may follow).
    ///
    /// A top-level number is complete only once something follows it, or at
    /// [`finish`](PartialJson::finish). False after a failure.
    pub fn complete(&self) -> bool {
        !self.failed && self.lex == Lex::Between(Expect::Nothing)
    }

    fn fail(&mut self, out: &mut Vec<Change>) {
        // The characters read before the error are part of the value parsed so far, so the value
        // is the same wherever the fragments were cut.
        self.flush(out);
        self.failed = true;
    }

    /// Emits the characters a string value grew by in this push.
    fn flush(&mut self, out: &mut Vec<Change>) {
        if matches!(self.lex, Lex::Str { key: false, .. }) && !self.buf.is_empty() {
            out.push(Change::Append {
                path: self.str_path.clone(),
                text: core::mem::take(&mut self.buf),
            });
        }
    }

    /// Reads from byte `i` of `text` (a char boundary) on; returns where to go on (a char
    /// boundary, past at least one byte, or `i` itself when the state changed without reading).
    fn read(&mut self, text: &str, i: usize, out: &mut Vec<Change>) -> Result<usize, Fail> {
        let bytes = text.as_bytes();
        let rest = bytes.get(i..).unwrap_or_default();
        let Some(&b) = rest.first() else {
            return Ok(i);
        };
        match self.lex {
            Lex::Between(expect) => {
                if is_ws(b) {
                    let n = rest.iter().take_while(|&&b| is_ws(b)).count();
                    return Ok(i + n);
                }
                self.token(expect, b, out)?;
                Ok(i + 1)
            }
            Lex::Str {
                key,
                esc: Esc::None,
                high: None,
            } => {
                // A run of plain characters, copied at once; it ends at an ASCII byte or at the
                // end, so both ends are char boundaries.
                let n = rest
                    .iter()
                    .take_while(|&&b| b != b'"' && b != b'\\' && b >= 0x20)
                    .count();
                if n > 0 {
                    self.buf.push_str(text.get(i..i + n).ok_or(Fail)?);
                    return Ok(i + n);
                }
                match b {
                    b'"' => self.end_string(key, out)?,
                    b'\\' => {
                        self.lex = Lex::Str {
                            key,
                            esc: Esc::Backslash,
                            high: None,
                        }
                    }
                    // A raw control character.
                    _ => return Err(Fail),
                }
                Ok(i + 1)
            }
            Lex::Str {
                key,
                esc: Esc::None,
                high: Some(h),
            } => {
                if b == b'\\' {
                    self.lex = Lex::Str {
                        key,
                        esc: Esc::Backslash,
                        high: Some(h),
                    };
                    Ok(i + 1)
                } else {
                    // A leading surrogate not followed by an escape: a lone one. The byte is
                    // read again as an ordinary one.
                    self.buf.push(REPLACEMENT);
                    self.lex = Lex::Str {
                        key,
                        esc: Esc::None,
                        high: None,
                    };
                    Ok(i)
                }
            }
            Lex::Str {
                key,
                esc: Esc::Backslash,
                high,
            } => {
                let c = match b {
                    b'u' => {
                        self.lex = Lex::Str {
                            key,
                            esc: Esc::Hex { digits: 0, code: 0 },
                            high,
                        };
                        return Ok(i + 1);
                    }
                    b'"' => '"',
                    b'\\' => '\\',
                    b'/' => '/',
                    b'b' => '\u{8}',
                    b'f' => '\u{c}',
                    b'n' => '\n',
                    b'r' => '\r',
                    b't' => '\t',
                    _ => return Err(Fail),
                };
                if high.is_some() {
                    self.buf.push(REPLACEMENT);
                }
                self.buf.push(c);
                self.lex = Lex::Str {
                    key,
                    esc: Esc::None,
                    high: None,
                };
                Ok(i + 1)
            }
            Lex::Str {
                key,
                esc: Esc::Hex { digits, code },
                high,
            } => {
                let digit = char::from(b).to_digit(16).ok_or(Fail)?;
                // Four hex digits fit in a u16.
                let code = code.wrapping_mul(16) | digit as u16;
                self.lex = if digits < 3 {
                    Lex::Str {
                        key,
                        esc: Esc::Hex {
                            digits: digits + 1,
                            code,
                        },
                        high,
                    }
                } else {
                    let high = self.unicode_escape(high, code);
                    Lex::Str {
                        key,
                        esc: Esc::None,
                        high,
                    }
                };
                Ok(i + 1)
            }
            Lex::Number(state) => {
                if let Some(next) = state.next(b) {
                    self.num.push(char::from(b));
                    self.lex = Lex::Number(next);
                    Ok(i + 1)
                } else if state.complete() {
                    // The byte after the number is read again, after it.
                    self.end_number(out)?;
                    Ok(i)
                } else {
                    Err(Fail)
                }
            }
            Lex::Literal { word, read } => {
                if word.as_bytes().get(read) != Some(&b) {
                    return Err(Fail);
                }
                if read + 1 < word.len() {
                    self.lex = Lex::Literal {
                        word,
                        read: read + 1,
                    };
                } else {
                    let value = match word {
                        "true" => Parsed::Bool(true),
                        "false" => Parsed::Bool(false),
                        _ => Parsed::Null,
                    };
                    self.scalar(value, out);
                }
                Ok(i + 1)
            }
        }
    }

    /// The non-whitespace byte `b` between tokens.
    fn token(&mut self, expect: Expect, b: u8, out: &mut Vec<Change>) -> Result<(), Fail> {
        match (expect, b) {
            (Expect::ValueOrEnd, b']') => self.close(),
            (Expect::Value | Expect::ValueOrEnd, _) => self.begin_value(b, out),
            (Expect::KeyOrEnd, b'}') => self.close(),
            (Expect::KeyOrEnd | Expect::Key, b'"') => {
                self.lex = Lex::Str {
                    key: true,
                    esc: Esc::None,
                    high: None,
                };
                Ok(())
            }
            (Expect::Colon, b':') => {
                self.lex = Lex::Between(Expect::Value);
                Ok(())
            }
            (Expect::CommaOrEnd, b',') => {
                self.lex = Lex::Between(match self.frames.last() {
                    Some(Frame {
                        kind: FrameKind::Object { .. },
                        ..
                    }) => Expect::Key,
                    _ => Expect::Value,
                });
                Ok(())
            }
            (Expect::CommaOrEnd, b'}' | b']') => {
                let is_object = matches!(
                    self.frames.last(),
                    Some(Frame {
                        kind: FrameKind::Object { .. },
                        ..
                    })
                );
                if is_object == (b == b'}') {
                    self.close()
                } else {
                    Err(Fail)
                }
            }
            _ => Err(Fail),
        }
    }

    /// The first byte of a value.
    fn begin_value(&mut self, b: u8, out: &mut Vec<Change>) -> Result<(), Fail> {
        match b {
            b'{' | b'[' => {
                if self.frames.len() >= MAX_DEPTH {
                    return Err(Fail);
                }
                let (kind, value, expect) = if b == b'{' {
                    (
                        FrameKind::Object { key: None },
                        Parsed::Object(Vec::new()),
                        Expect::KeyOrEnd,
                    )
                } else {
                    (
                        FrameKind::Array { len: 0 },
                        Parsed::Array(Vec::new()),
                        Expect::ValueOrEnd,
                    )
                };
                let path = self.child_path();
                let step = path.last().cloned();
                out.push(Change::Set { path, value });
                self.frames.push(Frame { step, kind });
                self.lex = Lex::Between(expect);
            }
            b'"' => {
                let path = self.child_path();
                out.push(Change::Set {
                    path: path.clone(),
                    value: Parsed::String(String::new()),
                });
                self.str_path = path;
                self.buf.clear();
                self.lex = Lex::Str {
                    key: false,
                    esc: Esc::None,
                    high: None,
                };
            }
            b'-' | b'0'..=b'9' => {
                self.num.clear();
                self.num.push(char::from(b));
                self.lex = Lex::Number(match b {
                    b'-' => Num::Minus,
                    b'0' => Num::Zero,
                    _ => Num::Int,
                });
            }
            b't' | b'f' | b'n' => {
                let word = match b {
                    b't' => "true",
                    b'f' => "false",
                    _ => "null",
                };
                self.lex = Lex::Literal { word, read: 1 };
            }
            _ => return Err(Fail),
        }
        Ok(())
    }

    /// The closing quote of a string.
    fn end_string(&mut self, key: bool, out: &mut Vec<Change>) -> Result<(), Fail> {
        if key {
            let key = core::mem::take(&mut self.buf);
            match self.frames.last_mut() {
                Some(Frame {
                    kind: FrameKind::Object { key: slot },
                    ..
                }) => *slot = Some(key),
                _ => return Err(Fail),
            }
            self.lex = Lex::Between(Expect::Colon);
        } else {
            self.flush(out);
            self.value_done();
        }
        Ok(())
    }

    /// A complete `\uXXXX` escape of value `code`, after `high` (a leading surrogate waiting for
    /// its pair); returns the leading surrogate now waiting, if any.
    fn unicode_escape(&mut self, high: Option<u16>, code: u16) -> Option<u16> {
        if let Some(h) = high {
            if (0xDC00..=0xDFFF).contains(&code) {
                let c = 0x10000 + ((u32::from(h) - 0xD800) << 10) + (u32::from(code) - 0xDC00);
                self.buf.push(char::from_u32(c).unwrap_or(REPLACEMENT));
                return None;
            }
            self.buf.push(REPLACEMENT);
        }
        if (0xD800..=0xDBFF).contains(&code) {
            Some(code)
        } else {
            // A trailing surrogate alone is not a char: U+FFFD.
            self.buf
                .push(char::from_u32(u32::from(code)).unwrap_or(REPLACEMENT));
            None
        }
    }

    /// The number in `num` is complete.
    fn end_number(&mut self, out: &mut Vec<Change>) -> Result<(), Fail> {
        // serde_json's reading keeps integers as integers, as `serde_json::from_str` does, and
        // rejects what does not fit in an f64 (1e400).
        let n = self.num.parse::<serde_json::Number>().map_err(|_| Fail)?;
        self.scalar(Parsed::Number(n), out);
        Ok(())
    }

    /// A complete scalar value.
    fn scalar(&mut self, value: Parsed, out: &mut Vec<Change>) {
        out.push(Change::Set {
            path: self.child_path(),
            value,
        });
        self.value_done();
    }

    /// The closing bracket of the innermost container (already checked to be the right one).
    fn close(&mut self) -> Result<(), Fail> {
        self.frames.pop().ok_or(Fail)?;
        self.value_done();
        Ok(())
    }

    /// A value is complete: its container moves on.
    fn value_done(&mut self) {
        let expect = match self.frames.last_mut() {
            None => Expect::Nothing,
            Some(frame) => {
                match &mut frame.kind {
                    FrameKind::Object { key } => *key = None,
                    FrameKind::Array { len } => *len += 1,
                }
                Expect::CommaOrEnd
            }
        };
        self.lex = Lex::Between(expect);
    }

    /// The path of the value beginning now.
    fn child_path(&self) -> Vec<Step> {
        let mut path: Vec<Step> = self.frames.iter().filter_map(|f| f.step.clone()).collect();
        match self.frames.last().map(|f| &f.kind) {
            Some(FrameKind::Object { key: Some(key) }) => path.push(Step::Key(key.clone())),
            Some(FrameKind::Array { len }) => path.push(Step::Index(*len)),
            Some(FrameKind::Object { key: None }) | None => {}
        }
        path
    }
}

impl Change {
    /// Where the change applies.
    pub fn path(&self) -> &[Step] {
        match self {
            Change::Set { path, .. } | Change::Append { path, .. } => path,
        }
    }
}

/// The same changes in fewer: a change inside a value that an earlier change in the list sets
/// goes into that value (`{"a": 1, "b": "x` in one fragment is one `Set` of `{"a": 1, "b": "x"}`
/// instead of four changes). Applying the result in order gives what applying `changes` in order
/// gives, to any value. Takes time proportional to the changes times the sets among them.
pub fn compact(changes: Vec<Change>) -> Vec<Change> {
    let mut out: Vec<Change> = Vec::with_capacity(changes.len());
    for change in changes {
        let path = change.path();
        // The latest set that covers this change: at a proper prefix of its path, or at its path
        // for an append. A later set at or above a path replaces whatever was set there before,
        // so the latest one is the value this change lands in.
        let covering = out.iter_mut().rev().find_map(|earlier| match earlier {
            Change::Set { path: at, value }
                if path.starts_with(at)
                    && (at.len() < path.len() || matches!(change, Change::Append { .. })) =>
            {
                Some((at.len(), value))
            }
            _ => None,
        });
        match covering {
            Some((depth, value)) => {
                let inner = match change {
                    Change::Set { mut path, value } => Change::Set {
                        path: path.split_off(depth),
                        value,
                    },
                    Change::Append { mut path, text } => Change::Append {
                        path: path.split_off(depth),
                        text,
                    },
                };
                apply(value, &inner);
            }
            None => out.push(change),
        }
    }
    out
}

/// Applies one change to a value (the consumer keeps the value; the parser keeps only its state
/// stack). A change whose path does not exist in `target` is ignored (never panics).
pub fn apply(target: &mut Parsed, change: &Change) {
    match change {
        Change::Set { path, value } => {
            let Some((last, parents)) = path.split_last() else {
                *target = value.clone();
                return;
            };
            match (walk(target, parents), last) {
                (Some(object @ Parsed::Object(_)), Step::Key(key)) => {
                    object.set(key, value.clone())
                }
                (Some(Parsed::Array(items)), Step::Index(index)) => {
                    if *index == items.len() {
                        items.push(value.clone());
                    } else if let Some(slot) = items.get_mut(*index) {
                        *slot = value.clone();
                    }
                }
                _ => {}
            }
        }
        Change::Append { path, text } => {
            if let Some(Parsed::String(s)) = walk(target, path) {
                s.push_str(text);
            }
        }
    }
}

/// The value at `path` in `target`, if there is one.
fn walk<'a>(target: &'a mut Parsed, path: &[Step]) -> Option<&'a mut Parsed> {
    let mut at = target;
    for step in path {
        at = match step {
            Step::Key(key) => at.get_mut(key)?,
            Step::Index(index) => match at {
                Parsed::Array(items) => items.get_mut(*index)?,
                _ => return None,
            },
        };
    }
    Some(at)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(k: &str) -> Step {
        Step::Key(k.to_string())
    }

    fn set(path: Vec<Step>, value: Parsed) -> Change {
        Change::Set { path, value }
    }

    fn append(path: Vec<Step>, text: &str) -> Change {
        Change::Append {
            path,
            text: text.to_string(),
        }
    }

    fn s(text: &str) -> Parsed {
        Parsed::String(text.to_string())
    }

    fn num(text: &str) -> Parsed {
        Parsed::Number(text.parse().unwrap())
    }

    /// The changes of each push, then of finish, and finish's result.
    fn run(fragments: &[&str]) -> (Vec<Vec<Change>>, bool, PartialJson) {
        let mut p = PartialJson::new();
        let mut all = Vec::new();
        for f in fragments {
            let mut out = Vec::new();
            p.push(f, &mut out);
            all.push(out);
        }
        let mut out = Vec::new();
        let ok = p.finish(&mut out);
        all.push(out);
        (all, ok, p)
    }

    fn applied(changes: &[Vec<Change>]) -> Parsed {
        let mut v = Parsed::Null;
        for c in changes.iter().flatten() {
            apply(&mut v, c);
        }
        v
    }

    #[test]
    fn containers_and_strings_are_eager_keys_wait_for_their_value() {
        let (changes, ok, _) = run(&[r#"{"ci"#, r#"ty":"#, r#" "Pa"#, r#"ris", "tags": ["#, "]}"]);
        assert!(ok);
        assert_eq!(
            changes,
            vec![
                vec![set(vec![], Parsed::Object(vec![]))],
                vec![],
                vec![
                    set(vec![key("city")], s("")),
                    append(vec![key("city")], "Pa")
                ],
                vec![
                    append(vec![key("city")], "ris"),
                    set(vec![key("tags")], Parsed::Array(vec![]))
                ],
                vec![],
                vec![],
            ]
        );
    }

    #[test]
    fn scalars_appear_when_complete() {
        let (changes, ok, _) = run(&["[tr", "ue, 1", "2", ".5,", "null", "]"]);
        assert!(ok);
        assert_eq!(
            changes,
            vec![
                vec![set(vec![], Parsed::Array(vec![]))],
                vec![set(vec![Step::Index(0)], Parsed::Bool(true))],
                vec![],
                vec![set(vec![Step::Index(1)], num("12.5"))],
                vec![set(vec![Step::Index(2)], Parsed::Null)],
                vec![],
                vec![],
            ]
        );
    }

    #[test]
    fn a_top_level_number_waits_for_finish() {
        let (changes, ok, p) = run(&["4", "2"]);
        assert!(ok && p.complete() && !p.failed());
        assert_eq!(changes, vec![vec![], vec![], vec![set(vec![], num("42"))]]);
        let (changes, ok, _) = run(&["-0.5e+3 "]);
        assert!(ok);
        assert_eq!(changes[0], vec![set(vec![], num("-0.5e+3"))]);
        let mut p = PartialJson::new();
        p.push(" 7", &mut Vec::new());
        assert!(!p.complete());
    }

    #[test]
    fn numbers_keep_integer_and_float_apart() {
        let (changes, _, _) = run(&["[1, 1.0, -0, 18446744073709551615, 18446744073709551616]"]);
        let v = applied(&changes);
        let expected: Parsed =
            serde_json::from_str("[1, 1.0, -0, 18446744073709551615, 18446744073709551616]")
                .unwrap();
        assert_eq!(v, expected);
        let Parsed::Array(items) = v else { panic!() };
        assert!(matches!(&items[0], Parsed::Number(n) if n.is_u64()));
        assert!(matches!(&items[1], Parsed::Number(n) if n.is_f64()));
    }

    #[test]
    fn escapes_cut_anywhere_are_held_until_complete() {
        let text = r#""a\n\u00e9\uD83D\uDE00\"\\\/\b\f\r\t""#;
        for cut in 1..text.len() {
            let (changes, ok, _) = run(&[&text[..cut], &text[cut..]]);
            assert!(ok, "cut at {cut}");
            assert_eq!(
                applied(&changes),
                s("a\né😀\"\\/\u{8}\u{c}\r\t"),
                "cut at {cut}"
            );
        }
        let (changes, _, _) = run(&[r#""x\uD83D"#, r#"\u"#, r#"DE00y""#]);
        assert_eq!(
            changes,
            vec![
                vec![set(vec![], s("")), append(vec![], "x")],
                vec![],
                vec![append(vec![], "😀y")],
                vec![],
            ]
        );
    }

    #[test]
    fn lone_surrogates_become_replacement_characters() {
        for (text, expected) in [
            (r#""\uD800""#, "\u{FFFD}"),
            (r#""\uDC00x""#, "\u{FFFD}x"),
            (r#""\uD800x""#, "\u{FFFD}x"),
            (r#""\uD800\n""#, "\u{FFFD}\n"),
            (r#""\uD800\u0041""#, "\u{FFFD}A"),
            (r#""\uD800\uD83D\uDE00""#, "\u{FFFD}😀"),
            (r#""\uDE00\uD83D""#, "\u{FFFD}\u{FFFD}"),
        ] {
            let (changes, ok, _) = run(&[text]);
            assert!(ok, "{text}");
            assert_eq!(applied(&changes), s(expected), "{text}");
        }
    }

    #[test]
    fn repeated_keys_are_replaced_in_place() {
        let (changes, ok, _) = run(&[r#"{"a": "xy", "b": 1, "a": "z"#, r#"w"}"#]);
        assert!(ok);
        let v = applied(&changes);
        assert_eq!(
            v,
            Parsed::Object(vec![("a".into(), s("zw")), ("b".into(), num("1"))])
        );
        assert_eq!(
            v,
            serde_json::from_str::<Parsed>(r#"{"a": "xy", "b": 1, "a": "zw"}"#).unwrap()
        );
    }

    #[test]
    fn one_append_per_string_per_push() {
        let (changes, _, _) = run(&[r#"["abc\"def\u0041"#, "ghi\"]"]);
        assert_eq!(
            changes[0],
            vec![
                set(vec![], Parsed::Array(vec![])),
                set(vec![Step::Index(0)], s("")),
                append(vec![Step::Index(0)], "abc\"defA"),
            ]
        );
        assert_eq!(changes[1], vec![append(vec![Step::Index(0)], "ghi")]);
        // A push that reads no character of the string emits nothing for it.
        let (changes, _, _) = run(&[r#"["a"#, "\\", "n\"]"]);
        assert_eq!(changes[1], vec![]);
        assert_eq!(changes[2], vec![append(vec![Step::Index(0)], "\n")]);
    }

    #[test]
    fn paths_go_through_nested_containers() {
        let (changes, ok, _) = run(&[r#"{"a": [{"b": [null, {"c": "d"}]}]}"#]);
        assert!(ok);
        let path = vec![key("a"), Step::Index(0), key("b"), Step::Index(1), key("c")];
        assert!(changes[0].contains(&set(path.clone(), s(""))));
        assert!(changes[0].contains(&append(path, "d")));
    }

    #[test]
    fn syntax_errors_fail_and_stop_emitting() {
        for text in [
            "",
            " ",
            "[1,]",
            "[1 2]",
            "{\"a\" 1}",
            "{\"a\":1,}",
            "{,}",
            "{1:2}",
            "{\"a\"}",
            "[}",
            "{]",
            "[1}",
            "01",
            "[01]",
            "1.",
            "1.e3",
            ".5",
            "-",
            "+1",
            "--1",
            "1e",
            "1e+",
            "1e400",
            "[-1e400]",
            "tru",
            "nul",
            "trUe",
            "[1]x",
            "[1] [2]",
            "\"abc",
            "\"a\u{1}\"",
            "\"a\nb\"",
            "\"\\x\"",
            "\"\\u12G4\"",
            "\"\\u12\"",
            "]",
            "}",
            ":",
            "\u{feff}1",
            "NaN",
            "[Infinity]",
            "'a'",
        ] {
            let (changes, ok, p) = run(&[text]);
            assert!(!ok && p.failed() && !p.complete(), "{text:?}");
            // Changes already emitted stay valid (applying them does not panic).
            let _ = applied(&changes);
            assert!(serde_json::from_str::<Parsed>(text).is_err(), "{text:?}");
        }
        let mut p = PartialJson::new();
        let mut out = Vec::new();
        p.push("[1, ]", &mut out);
        assert!(p.failed());
        out.clear();
        p.push("[2]", &mut out);
        assert!(out.is_empty());
        assert!(!p.finish(&mut out) && out.is_empty());
    }

    #[test]
    fn an_error_keeps_the_characters_read_before_it() {
        let (changes, _, p) = run(&["[\"ab\\q"]);
        assert!(p.failed());
        assert_eq!(applied(&changes), Parsed::Array(vec![s("ab")]));
    }

    #[test]
    fn trailing_whitespace_is_fine() {
        let (_, ok, _) = run(&[" \t\n[ ] \r\n", "  "]);
        assert!(ok);
    }

    #[test]
    fn depth_is_limited() {
        let ok = "[".repeat(MAX_DEPTH) + &"]".repeat(MAX_DEPTH);
        assert!(run(&[&ok]).1);
        let deep = "[".repeat(MAX_DEPTH + 1);
        let mut p = PartialJson::new();
        let mut out = Vec::new();
        p.push(&deep, &mut out);
        assert!(p.failed());
        assert_eq!(out.len(), MAX_DEPTH);
    }

    #[test]
    fn finish_is_final() {
        let mut p = PartialJson::new();
        let mut out = Vec::new();
        p.push("[1", &mut out);
        assert!(!p.finish(&mut out));
        assert!(p.failed());
        assert!(!p.finish(&mut out));
        let mut p = PartialJson::new();
        p.push("5", &mut out);
        out.clear();
        assert!(p.finish(&mut out));
        assert!(p.finish(&mut out));
        assert_eq!(out.len(), 1);
        p.push("6", &mut out);
        assert_eq!(out.len(), 1);
    }

    #[test]
    fn apply_ignores_paths_that_do_not_exist() {
        let mut v = Parsed::Object(vec![("a".into(), Parsed::Array(vec![]))]);
        let before = v.clone();
        for change in [
            set(vec![key("x"), key("y")], Parsed::Null),
            set(vec![key("a"), Step::Index(3)], Parsed::Null),
            set(vec![key("a"), key("k")], Parsed::Null),
            set(vec![Step::Index(0)], Parsed::Null),
            append(vec![key("a")], "z"),
            append(vec![key("a"), Step::Index(0)], "z"),
        ] {
            apply(&mut v, &change);
        }
        assert_eq!(v, before);
        apply(&mut v, &set(vec![key("a"), Step::Index(0)], s("")));
        apply(&mut v, &append(vec![key("a"), Step::Index(0)], "z"));
        apply(&mut v, &set(vec![key("b")], Parsed::Bool(true)));
        assert_eq!(
            v,
            Parsed::Object(vec![
                ("a".into(), Parsed::Array(vec![s("z")])),
                ("b".into(), Parsed::Bool(true)),
            ])
        );
    }
}
