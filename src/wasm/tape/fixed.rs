//! A LangChain message read by position: the glue (`tape.js`) writes each of a LangChain
//! message's objects partial, with the keys `parse_message` reads in one fixed order, so the
//! message, its text and thinking parts, its tool calls and its tool results are read here
//! straight from their slots, without the `Json` view's questions (issue 45: `parse_message`
//! took 5.4 of `toDisplayMessages`' 18.8 ms over 10,000 messages).
//!
//! It is only a shortcut: it reads a message whose every value is one `parse_message` takes
//! without a question of its own (no error, no format to recognize, no key to read in place), and
//! gives the same `Message` for it. Anything else (a Sycophant message, an image or unknown part,
//! a call's metadata, a result's options or expansion, a value of the wrong kind, a message with
//! no content that could be of another format) gives `None`, and the message is read by
//! `parse_message` as before, errors and all.

use super::read::OnTape;
use super::seeds::seed_slot;
use super::{FALSE, NULL, PARTIAL, TAG_ARRAY, TAG_OBJECT, TAG_SHORT, TAG_STRING, TRUE, UNDEFINED};
use crate::message::{
    Content, ContentPart, Message, PartType, ResultContent, Role, Shown, ToolCall, ToolResult,
};
use crate::prelude::*;
use crate::wasm::input::Input;

/// The keys the glue writes of each object, in its order (`writeMessage`, `writePart`,
/// `writeCall`, `writeResult`).
const MESSAGE_KEYS: [u32; 7] = [
    seed_slot("__type__"),
    seed_slot("role"),
    seed_slot("content"),
    seed_slot("tool_calls"),
    seed_slot("tool_results"),
    seed_slot("parts"),
    seed_slot("tool_call_id"),
];
const PART_KEYS: [u32; 4] = [
    seed_slot("type"),
    seed_slot("content"),
    seed_slot("citations"),
    seed_slot("options"),
];
const CALL_KEYS: [u32; 5] = [
    seed_slot("call_id"),
    seed_slot("name"),
    seed_slot("arguments"),
    seed_slot("display_text"),
    seed_slot("metadata"),
];
const RESULT_KEYS: [u32; 7] = [
    seed_slot("content"),
    seed_slot("message_expansion"),
    seed_slot("tool_call_id"),
    seed_slot("name"),
    seed_slot("is_error"),
    seed_slot("is_interrupt"),
    seed_slot("options"),
];

/// What a slot holds, as far as the readers below ask.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Held {
    /// `null`, or `undefined` (absent).
    Nothing,
    String,
    /// An array on the tape (not one read in place).
    Array,
    Other,
}

impl<'a> OnTape<'a> {
    fn held(&self, at: u32) -> Held {
        let w = self.tape.word(at);
        match w & 7 {
            _ if w == NULL || w == UNDEFINED => Held::Nothing,
            TAG_SHORT | TAG_STRING => Held::String,
            TAG_ARRAY => Held::Array,
            _ => Held::Other,
        }
    }

    /// A string or nothing (`opt_string`'s `Ok`), else `None`.
    fn opt_string(&self, at: u32) -> Option<Option<Input<'a>>> {
        match self.held(at) {
            Held::Nothing => Some(None),
            Held::String => Some(Some(self.slot(at))),
            _ => None,
        }
    }

    /// The value slots of a partial object the glue wrote with exactly `keys`, in that order.
    #[inline(always)]
    fn fixed<const N: usize>(&self, keys: &[u32; N]) -> Option<[u32; N]> {
        if self.word() != (N as u32) << 4 | PARTIAL | TAG_OBJECT {
            return None;
        }
        let mut slots = [0; N];
        let mut at = self.at + 3;
        for (slot, &key) in slots.iter_mut().zip(keys) {
            if self.tape.word(at) != key {
                return None;
            }
            *slot = at + 1;
            at = self.tape.next(at + 1);
        }
        Some(slots)
    }

    /// Each element of the array at slot `at`, read with `read`; `None` when one gives `None`.
    fn each<T>(&self, at: u32, read: impl Fn(&OnTape<'a>) -> Option<T>) -> Option<Vec<T>> {
        let count = self.tape.word(at) >> 3;
        let mut out = Vec::with_capacity(count as usize);
        let mut element = at + 3;
        for _ in 0..count {
            out.push(read(&OnTape {
                tape: self.tape,
                at: element,
            })?);
            element = self.tape.next(element);
        }
        Some(out)
    }

    /// A list field: nothing is empty, an array is read with `read`.
    fn list<T>(&self, at: u32, read: impl Fn(&OnTape<'a>) -> Option<T>) -> Option<Vec<T>> {
        match self.held(at) {
            Held::Nothing => Some(Vec::new()),
            Held::Array => self.each(at, read),
            _ => None,
        }
    }

    /// `parse_message` of a LangChain message the glue wrote, where it reads the message without
    /// a question of its own (the module's text).
    pub(in crate::wasm) fn fixed_message(&self) -> Option<Message<Input<'a>>> {
        let [sycophant, role, content, calls, results, parts, call_id] =
            self.fixed(&MESSAGE_KEYS)?;
        if self.held(sycophant) != Held::Nothing {
            return None;
        }
        let role = match self.tape.word(role) {
            w if w == const { seed_slot("assistant") } => Role::Assistant,
            w if w == const { seed_slot("user") } => Role::User,
            w if w == const { seed_slot("tool") } => Role::Tool,
            w if w == const { seed_slot("system") } => Role::System,
            _ => return None,
        };
        // Where `parse_message` asks whether the message is of another format, the answer must be
        // no: neither `parts` nor `tool_call_id`.
        let content_held = self.held(content);
        let asks = content_held == Held::Nothing
            || (role == Role::Tool && self.held(results) == Held::Nothing);
        if asks && (self.held(parts) != Held::Nothing || self.held(call_id) != Held::Nothing) {
            return None;
        }
        let content = match content_held {
            Held::Nothing => Content::None,
            Held::String => Content::Text(self.slot(content)),
            Held::Array => Content::Parts(self.each(content, OnTape::fixed_part)?),
            Held::Other => return None,
        };
        Some(Message {
            role,
            content,
            tool_calls: self.list(calls, OnTape::fixed_call)?,
            tool_results: self.list(results, OnTape::fixed_result)?,
        })
    }

    /// `parse_part` of a text or thinking part without citations.
    fn fixed_part(&self) -> Option<ContentPart<Input<'a>>> {
        let [part_type, content, citations, _options] = self.fixed(&PART_KEYS)?;
        let part_type = match self.tape.word(part_type) {
            w if w == const { seed_slot("text") } && self.held(citations) == Held::Nothing => {
                PartType::Text
            }
            w if w == const { seed_slot("thinking") } => PartType::Thinking,
            _ => return None,
        };
        Some(ContentPart {
            part_type,
            content: self.opt_string(content)?,
            citations: None,
            shown: Shown::Nothing,
            attachment: None,
        })
    }

    /// `parse_tool_call` of a call with an id and no metadata.
    fn fixed_call(&self) -> Option<ToolCall<Input<'a>>> {
        let [call_id, name, arguments, display_text, metadata] = self.fixed(&CALL_KEYS)?;
        if self.held(call_id) != Held::String || self.held(metadata) != Held::Nothing {
            return None;
        }
        Some(ToolCall {
            call_id: Some(self.slot(call_id)),
            name: self.opt_string(name)?,
            arguments: (self.held(arguments) != Held::Nothing).then(|| self.slot(arguments)),
            display_text: self.opt_string(display_text)?,
            approval_request: false,
            status: None,
        })
    }

    /// `parse_tool_result` of a result without options or expansion.
    fn fixed_result(&self) -> Option<ToolResult<Input<'a>>> {
        let [content, expansion, call_id, name, is_error, is_interrupt, options] =
            self.fixed(&RESULT_KEYS)?;
        if self.held(expansion) != Held::Nothing || self.held(options) != Held::Nothing {
            return None;
        }
        let content = match self.held(content) {
            Held::Nothing => ResultContent::Other,
            Held::String => ResultContent::Text(self.slot(content)),
            Held::Array => ResultContent::Parts(self.each(content, OnTape::fixed_part)?),
            Held::Other => return None,
        };
        Some(ToolResult {
            tool_call_id: self.opt_string(call_id)?,
            name: self.opt_string(name)?,
            content,
            is_error: self.flag(is_error)?,
            is_interrupt: self.flag(is_interrupt)?,
            message_expansion: None,
            result: None,
        })
    }

    /// `flag`'s `Ok`: absent is false, `null` is `None`, a boolean itself; else `None`.
    fn flag(&self, at: u32) -> Option<Option<bool>> {
        match self.tape.word(at) {
            UNDEFINED => Some(Some(false)),
            NULL => Some(None),
            FALSE => Some(Some(false)),
            TRUE => Some(Some(true)),
            _ => None,
        }
    }
}
