//! The operations the formats' stream readers use on the accumulator: responses started and
//! finished, blocks added to the body and grown (text deltas, tool-argument text, edits), stopped,
//! and error records.

use crate::error::text;
use crate::json::partial::{self, Change, PartialJson, Step};
use crate::prelude::*;
use crate::providers::Parsed;

use super::accumulator::{Args, ArgsMode, Block, Response, Segment};
use super::paths::{get_path, get_path_mut, set_path, str_at};
use super::records::error_record;
use super::{Patch, Reader, StreamAccumulator};

impl<R: Reader> StreamAccumulator<R> {
    // -----------------------------------------------------------------------------------------
    // Responses and blocks (the operations the protocol readers use)

    pub(super) fn response_ref(&self) -> Option<&Response> {
        self.segments.get(self.current?)?.response.as_ref()
    }

    pub(crate) fn response(&mut self) -> Option<&mut Response> {
        let current = self.current?;
        self.segments.get_mut(current)?.response.as_mut()
    }

    /// True when a response is being streamed (started and not finished).
    pub(crate) fn streaming(&self) -> bool {
        self.response_ref().is_some_and(|r| !r.finished)
    }

    /// Starts a new response with `body`, finishing the one before if it is still open.
    pub(crate) fn start_response(&mut self, body: Parsed) {
        self.finish_response();
        self.done = false;
        self.failed = false;
        let start = self.records.len();
        self.segments.push(Segment {
            start,
            count: 0,
            response: Some(Response {
                body,
                blocks: Vec::new(),
                keys: Vec::new(),
                finished: false,
            }),
        });
        self.current = Some(self.segments.len() - 1);
    }

    /// The block with the protocol's `key` in the current response.
    pub(crate) fn block(&self, key: i64) -> Option<usize> {
        let response = self.response_ref()?;
        response
            .keys
            .iter()
            .rev()
            .find(|(k, _)| *k == key)
            .map(|(_, b)| *b)
    }

    /// The number of blocks of the current response.
    pub(crate) fn block_count(&self) -> usize {
        self.response_ref().map_or(0, |r| r.blocks.len())
    }

    /// The value of block `b`.
    pub(crate) fn block_value(&self, b: usize) -> Option<&Parsed> {
        let response = self.response_ref()?;
        get_path(&response.body, &response.blocks.get(b)?.at)
    }

    pub(crate) fn block_streaming(&self, b: usize) -> bool {
        self.response_ref()
            .and_then(|r| r.blocks.get(b))
            .is_some_and(|b| b.streaming)
    }

    /// Registers a block whose value the protocol has already put in the body at `at`, under
    /// `key`, and adds its records. `args` names where its tool arguments arrive, if they stream.
    pub(crate) fn add_block(
        &mut self,
        key: i64,
        at: Vec<Step>,
        args: Option<(Vec<Step>, ArgsMode)>,
        streaming: bool,
    ) -> usize {
        let Some(response) = self.response() else {
            return 0;
        };
        let b = response.blocks.len();
        response.blocks.push(Block {
            at,
            counts: [0; 3],
            streaming,
            slot: None,
            args: args.map(|(field, mode)| Args {
                field,
                mode,
                text: String::new(),
                parser: PartialJson::new(),
                value: None,
            }),
        });
        response.keys.push((key, b));
        self.prefill(b);
        self.refresh(b);
        b
    }

    /// A block may start with arguments already in place (a Responses item added with its
    /// `arguments`, Gemini's `args`): the parser or the value starts from them.
    pub(super) fn prefill(&mut self, b: usize) {
        let Some(response) = self.response() else {
            return;
        };
        let Some(block) = response.blocks.get_mut(b) else {
            return;
        };
        let Some(args) = block.args.as_mut() else {
            return;
        };
        let given = get_path(&response.body, &args.field).cloned();
        match (args.mode, given) {
            (ArgsMode::Text, Some(Parsed::String(text))) if !text.is_empty() => {
                let mut changes = Vec::new();
                args.parser.push(&text, &mut changes);
                args.text = text;
                let mut value = Parsed::Null;
                for change in &changes {
                    partial::apply(&mut value, change);
                }
                if !changes.is_empty() {
                    args.value = Some(value);
                }
            }
            (ArgsMode::Changes, Some(value)) => args.value = Some(value),
            _ => {}
        }
    }

    /// Appends `value` to the array at `list` in the current body (with `create`, an array is put
    /// there when there is none); the path of the value, or `None` when it was not added.
    pub(crate) fn push_value(
        &mut self,
        list: &[Step],
        value: Parsed,
        create: bool,
    ) -> Option<Vec<Step>> {
        let body = self.body_mut()?;
        let position = match get_path_mut(body, list) {
            Some(Parsed::Array(items)) => {
                items.push(value);
                items.len() - 1
            }
            _ if create => {
                set_path(body, list, Parsed::Array(vec![value]));
                0
            }
            _ => return None,
        };
        let mut at = list.to_vec();
        at.push(Step::Index(position));
        Some(at)
    }

    /// Where block `b`'s value sits in the body.
    pub(crate) fn block_at(&self, b: usize) -> Vec<Step> {
        self.response_ref()
            .and_then(|r| r.blocks.get(b))
            .map(|b| b.at.clone())
            .unwrap_or_default()
    }

    /// The current response's body.
    pub(crate) fn current_body(&self) -> Option<&Parsed> {
        self.response_ref().map(|r| &r.body)
    }

    /// The current block value of the body at `at`, mutable (for the readers' small edits that
    /// change no record: usage, stop reasons).
    pub(crate) fn body_mut(&mut self) -> Option<&mut Parsed> {
        self.response().map(|r| &mut r.body)
    }

    /// Appends `delta` to the string at `field` (a body path inside block `b`), and to the record
    /// showing it.
    pub(crate) fn text_delta(&mut self, b: usize, field: Vec<Step>, delta: &str) {
        if delta.is_empty() {
            return;
        }
        let Some(current) = self.current else { return };
        let Some(response) = self.response() else {
            return;
        };
        let Some(block) = response.blocks.get(b) else {
            return;
        };
        let slot = block
            .slot
            .as_ref()
            .filter(|s| s.field == field)
            .map(|s| (s.group, s.k));
        match get_path_mut(&mut response.body, &field) {
            Some(Parsed::String(s)) => s.push_str(delta),
            Some(other @ Parsed::Null) => *other = Parsed::String(delta.to_string()),
            _ => {
                if !set_path(
                    &mut response.body,
                    &field,
                    Parsed::String(delta.to_string()),
                ) {
                    return;
                }
            }
        }
        match slot {
            Some((group, k)) => {
                let index = self.record_index(current, b, group, k);
                if let Some(Parsed::String(text)) = self
                    .records
                    .get_mut(index)
                    .and_then(|r| r.get_mut("content"))
                    .and_then(|c| c.get_mut("text"))
                {
                    text.push_str(delta);
                    self.patches.push(Patch::Append {
                        index,
                        field: "text",
                        text: delta.to_string(),
                    });
                }
            }
            None => {
                self.refresh(b);
                self.find_slot(b, field);
            }
        }
    }

    /// Sets the string at `field` of block `b` to `text`, when it differs (a `.done` event that
    /// repeats the whole text).
    pub(crate) fn text_done(&mut self, b: usize, field: Vec<Step>, text: &str) {
        let Some(response) = self.response() else {
            return;
        };
        let same = get_path(&response.body, &field).and_then(Parsed::as_string) == Some(text);
        if !same && set_path(&mut response.body, &field, Parsed::String(text.to_string())) {
            self.refresh(b);
        }
    }

    /// Feeds tool-argument text to block `b`.
    pub(crate) fn args_delta(&mut self, b: usize, delta: &str) {
        if delta.is_empty() {
            return;
        }
        let Some(response) = self.response() else {
            return;
        };
        let Some(block) = response.blocks.get_mut(b) else {
            return;
        };
        let Some(args) = block.args.as_mut() else {
            return;
        };
        args.text.push_str(delta);
        if args.mode == ArgsMode::Text {
            let field = args.field.clone();
            match get_path_mut(&mut response.body, &field) {
                Some(Parsed::String(s)) => s.push_str(delta),
                _ => {
                    set_path(
                        &mut response.body,
                        &field,
                        Parsed::String(delta.to_string()),
                    );
                }
            }
        }
        let Some(args) = response.blocks.get_mut(b).and_then(|b| b.args.as_mut()) else {
            return;
        };
        let mut changes = Vec::new();
        args.parser.push(delta, &mut changes);
        self.args_changes(b, changes);
    }

    /// Applies argument changes to block `b` (from the parser, or Gemini's `partialArgs`).
    pub(crate) fn args_changes(&mut self, b: usize, changes: Vec<Change>) {
        if changes.is_empty() {
            return;
        }
        // Fields that arrive whole in one chunk travel as one change (one value to copy out).
        let changes = partial::compact(changes);
        let Some(current) = self.current else { return };
        let Some(response) = self.response() else {
            return;
        };
        let Some(block) = response.blocks.get_mut(b) else {
            return;
        };
        let Some(args) = block.args.as_mut() else {
            return;
        };
        let mut value = args.value.take().unwrap_or(Parsed::Null);
        for change in &changes {
            partial::apply(&mut value, change);
        }
        if args.mode == ArgsMode::Changes {
            let field = args.field.clone();
            args.value = Some(value.clone());
            set_path(&mut response.body, &field, value);
        } else {
            args.value = Some(value);
        }
        let calls = block.counts[1];
        if calls != 1 {
            return;
        }
        let index = self.record_index(current, b, 1, 0);
        let Some(arguments) = self
            .records
            .get_mut(index)
            .and_then(|r| r.get_mut("content"))
            .and_then(|c| c.get_mut("arguments"))
        else {
            return;
        };
        for change in &changes {
            partial::apply(arguments, change);
        }
        self.patches.push(Patch::Arguments { index, changes });
    }

    /// Changes block `b`'s value with `edit`, then reads its records again. Only the call of
    /// `edit` is compiled once per caller; the lookup is [`Self::block_value_mut`].
    pub(crate) fn edit_block(&mut self, b: usize, edit: impl FnOnce(&mut Parsed)) {
        let Some(value) = self.block_value_mut(b) else {
            return;
        };
        if let Some(value) = value {
            edit(value);
        }
        self.refresh(b);
    }

    /// Block `b`'s value in the current response's body: `None` when there is no response or no
    /// such block, `Some(None)` when the block's place is not in the body.
    pub(super) fn block_value_mut(&mut self, b: usize) -> Option<Option<&mut Parsed>> {
        let response = self.response()?;
        let at = &response.blocks.get(b)?.at;
        Some(get_path_mut(&mut response.body, at))
    }

    /// Block `b` is complete: its arguments are final and its records are read without
    /// `metadata.streaming`.
    pub(crate) fn stop_block(&mut self, b: usize) {
        let Some(response) = self.response() else {
            return;
        };
        let Some(block) = response.blocks.get_mut(b) else {
            return;
        };
        if !block.streaming {
            return;
        }
        block.streaming = false;
        if let Some(args) = block.args.as_mut() {
            let mut changes = Vec::new();
            let complete = args.parser.finish(&mut changes);
            if args.mode == ArgsMode::Object && !args.text.trim().is_empty() {
                // The body holds what the whole text is: the object, or the text itself when it
                // is not one (as `fromProvider` keeps a string that is not an object).
                let parsed = serde_json::from_str::<Parsed>(&args.text).ok();
                let value = match parsed {
                    Some(value @ Parsed::Object(_)) if complete => value,
                    _ => Parsed::String(args.text.clone()),
                };
                let field = args.field.clone();
                set_path(&mut response.body, &field, value);
            }
        }
        self.refresh(b);
    }

    /// The current response is complete: every block stops, and its records are read again from
    /// the whole body.
    pub(crate) fn finish_response(&mut self) {
        let Some(current) = self.current else { return };
        if !self.streaming() {
            return;
        }
        for b in 0..self.block_count() {
            self.stop_block(b);
        }
        let Some(segment) = self.segments.get(current) else {
            return;
        };
        let (start, count) = (segment.start, segment.count);
        let exact = match segment.response.as_ref() {
            Some(response) => self.records_of_body(&response.body),
            None => return,
        };
        if let Some(response) = self.response() {
            response.finished = true;
        }
        let exact: Vec<Parsed> = match exact {
            Ok(records) => records.into_iter().map(|(_, r)| r).collect(),
            Err(e) => {
                // A body `fromProvider` cannot read (one block of the wrong shape, say): the records
                // its blocks gave stay, error records for the bad ones among them, and the body's
                // error follows. Replacing them with that one error would drop every good block.
                let mut kept = self
                    .records
                    .get(start..start + count)
                    .map(<[Parsed]>::to_vec)
                    .unwrap_or_default();
                kept.push(error_record(&e.message, &e.path));
                kept
            }
        };
        if exact.len() >= count {
            self.splice(current, 0, count, exact);
        } else if let Some(old) = self.records.get(start..start + count) {
            // The blocks gave more records than the whole body does: records are never removed
            // (patches have no removal), so the extra ones stay as they were.
            let mut kept = exact;
            kept.extend_from_slice(old.get(kept.len()..).unwrap_or_default());
            self.splice(current, 0, count, kept);
        }
        self.pair_across(current);
    }

    /// A tool result in this response that answers a call of an earlier response of the same
    /// stream (Anthropic's programmatic tool calling, whose code execution result comes in the last
    /// message), paired as `toDisplayMessages` pairs them across messages: a pending call takes the
    /// result's status, and a result without a name takes the call's.
    pub(super) fn pair_across(&mut self, segment: usize) {
        let Some(seg) = self.segments.get(segment) else {
            return;
        };
        let (start, count) = (seg.start, seg.count);
        for i in start..(start + count).min(self.records.len()) {
            let record = &self.records[i];
            if str_at(record, "content_type") != Some("tool_result") {
                continue;
            }
            let Some(id) = str_at(record, "tool_call_id").map(String::from) else {
                continue;
            };
            let content = record.get("content");
            let flag = |key: &str| content.and_then(|c| c.get(key)) == Some(&Parsed::Bool(true));
            let status = if flag("is_error") {
                "failed"
            } else if flag("is_interrupt") {
                "interrupted"
            } else {
                "completed"
            };
            let nameless = matches!(
                content.and_then(|c| c.get("name")),
                None | Some(Parsed::Null)
            );
            let call_at = (0..start).rev().find(|&j| {
                let r = &self.records[j];
                str_at(r, "content_type") == Some("tool_call")
                    && str_at(r, "tool_call_id") == Some(id.as_str())
            });
            let Some(call_at) = call_at else { continue };
            let name = self.records[call_at]
                .get("content")
                .and_then(|c| c.get("name"))
                .cloned();
            if str_at(&self.records[call_at], "status") == Some("pending") {
                let mut call = self.records[call_at].clone();
                call.set("status", Parsed::String(status.into()));
                self.records[call_at] = call.clone();
                self.patches.push(Patch::Replace {
                    index: call_at,
                    record: call,
                });
            }
            if let Some(name) = name.filter(|_| nameless) {
                let mut result = self.records[i].clone();
                if let Some(content) = result.get_mut("content") {
                    content.set("name", name);
                }
                self.records[i] = result.clone();
                self.patches.push(Patch::Replace {
                    index: i,
                    record: result,
                });
            }
        }
    }

    /// Adds an error record for event `at`, after the current response's records.
    pub(crate) fn error_at(&mut self, at: usize, text: String) {
        let record = error_record(&text, &text!("$.events[", at, "]"));
        let start = self.records.len();
        self.records.push(record.clone());
        self.patches.push(Patch::Add(record));
        self.segments.push(Segment {
            start,
            count: 1,
            response: None,
        });
    }

    /// An error event from the provider: the response ends, not complete (`message()` is
    /// `cancelled`), and an error record says why.
    pub(crate) fn provider_error(&mut self, at: usize, text: String) {
        self.finish_response();
        self.error_at(at, text);
        self.done = true;
        self.failed = true;
    }

    pub(crate) fn set_done(&mut self) {
        self.done = true;
    }
}
