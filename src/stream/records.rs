//! The records' bookkeeping: which records a block has (read from a body holding it alone), where
//! they sit, and the patches that put new ones in place.

use crate::error::text;
use crate::error::Result;
use crate::json::partial::Step;
use crate::prelude::*;
use crate::providers::Parsed;

use super::accumulator::{Slot, PROBE};
use super::format::MiniBody;
use super::paths::{get_path, get_path_mut, object};
use super::{Patch, Reader, StreamAccumulator};

impl<R: Reader> StreamAccumulator<R> {
    // -----------------------------------------------------------------------------------------
    // Records of blocks

    /// The index in `records` of block `b`'s `k`-th record of `group` in segment `segment`.
    pub(super) fn record_index(&self, segment: usize, b: usize, group: usize, k: usize) -> usize {
        let Some(seg) = self.segments.get(segment) else {
            return 0;
        };
        let Some(response) = seg.response.as_ref() else {
            return seg.start;
        };
        let mut index = seg.start + k;
        for g in 0..group {
            index += response.blocks.iter().map(|b| b.counts[g]).sum::<usize>();
        }
        index += response
            .blocks
            .iter()
            .take(b)
            .map(|b| b.counts[group])
            .sum::<usize>();
        index
    }

    /// Block `b`'s records as the reader gives them for a body holding that block alone, in the
    /// three groups.
    pub(super) fn block_records(&self, b: usize) -> Result<[Vec<Parsed>; 3]> {
        let Some(response) = self.response_ref() else {
            return Ok(Default::default());
        };
        let Some(block) = response.blocks.get(b) else {
            return Ok(Default::default());
        };
        let mini = self.mini_body(&response.body, &block.at);
        let mut groups: [Vec<Parsed>; 3] = Default::default();
        for (owner, record) in self.records_of_body(&mini)? {
            let call = record.get("content_type").and_then(Parsed::as_string) == Some("tool_call");
            let group = match (owner, call) {
                (0, false) => 0,
                (0, true) => 1,
                _ => 2,
            };
            groups[group].push(record);
        }
        Ok(groups)
    }

    /// A body holding only the block at `at` of `body`, in the protocol's shape.
    pub(super) fn mini_body(&self, body: &Parsed, at: &[Step]) -> Parsed {
        let value = get_path(body, at).cloned().unwrap_or(Parsed::Null);
        self.protocol.visit_stream(MiniBody(at, value))
    }

    /// Reads block `b`'s records again and puts them in place.
    pub(super) fn refresh(&mut self, b: usize) {
        let Some(current) = self.current else { return };
        let mut groups = match self.block_records(b) {
            Ok(groups) => groups,
            Err(e) => [
                vec![error_record(&e.message, &e.path)],
                Vec::new(),
                Vec::new(),
            ],
        };
        let Some(response) = self.response() else {
            return;
        };
        let Some(block) = response.blocks.get_mut(b) else {
            return;
        };
        block.slot = None;
        if block.streaming {
            for record in groups.iter_mut().flatten() {
                if let Some(metadata) = record.get_mut("metadata") {
                    metadata.set("streaming", Parsed::Bool(true));
                }
            }
            if let (Some(value), [call]) = (
                block.args.as_ref().and_then(|a| a.value.as_ref()),
                groups[1].as_mut_slice(),
            ) {
                if let Some(content) = call.get_mut("content") {
                    content.set("arguments", value.clone());
                }
            }
        }
        let old = block.counts;
        let new = [groups[0].len(), groups[1].len(), groups[2].len()];
        let [g0, g1, g2] = groups;
        // The segment's records, rebuilt from the first one that can change.
        // Each group's record count in the blocks before `b` and after it.
        let blocks = &response.blocks;
        let sum = |g: usize, range: core::ops::Range<usize>| -> usize {
            blocks
                .get(range)
                .map_or(0, |bs| bs.iter().map(|b| b.counts[g]).sum())
        };
        let n = blocks.len();
        let before: [usize; 3] = core::array::from_fn(|g| sum(g, 0..b));
        let after: [usize; 3] = core::array::from_fn(|g| sum(g, b + 1..n));
        let Some(segment) = self.segments.get(current) else {
            return;
        };
        let seg_start = segment.start;
        let seg_count = segment.count;
        let old_total0 = before[0] + old[0] + after[0];
        let old_total1 = before[1] + old[1] + after[1];
        // Offsets (in the segment) of each part of the old layout.
        let old_at = |g: usize, part: usize| -> usize {
            let base = match g {
                0 => 0,
                1 => old_total0,
                _ => old_total0 + old_total1,
            };
            base + match part {
                0 => 0,
                1 => before[g],
                _ => before[g] + old[g],
            }
        };
        let take = |records: &[Parsed], from: usize, len: usize| -> Vec<Parsed> {
            records
                .get(seg_start + from..seg_start + from + len)
                .map(<[Parsed]>::to_vec)
                .unwrap_or_default()
        };
        let total01 = before[0] + new[0] + after[0] + before[1] + new[1] + after[1];
        if let Some(block) = self.response().and_then(|r| r.blocks.get_mut(b)) {
            block.counts = new;
        }
        // Only what can change is written again: each group of the block whose record count is
        // unchanged in place, and from the first group whose count changed, everything after it
        // (its records move). Rewriting from the block's first record on every refresh compared
        // every later record each time: with tool calls grouped after all text, a stream of n
        // tool calls took time quadratic in n.
        let first_moved = (0..3).find(|&g| new[g] != old[g]).unwrap_or(3);
        let mut tail = Vec::new();
        for (g, records) in [g0, g1, g2].into_iter().enumerate() {
            if g < first_moved {
                let at = old_at(g, 1);
                self.splice(current, at, old[g], numbered(records, at, total01));
                continue;
            }
            if g > first_moved {
                tail.extend(take(&self.records, old_at(g, 0), before[g]));
            }
            tail.extend(records);
            tail.extend(take(&self.records, old_at(g, 2), after[g]));
        }
        if first_moved < 3 {
            let first = old_at(first_moved, 1);
            self.splice(
                current,
                first,
                seg_count - first,
                numbered(tail, first, total01),
            );
        }
    }

    /// Puts `new` in place of the `len` records at `offset` of segment `segment`, patching what
    /// differs; the records after it move along when the length changes.
    pub(super) fn splice(&mut self, segment: usize, offset: usize, len: usize, new: Vec<Parsed>) {
        let Some(seg) = self.segments.get(segment) else {
            return;
        };
        let from = seg.start + offset;
        let grown = new.len() as isize - len as isize;
        let end = (from + len).min(self.records.len());
        let later: Vec<Parsed> = if grown != 0 {
            self.records
                .get(end..)
                .map(<[Parsed]>::to_vec)
                .unwrap_or_default()
        } else {
            Vec::new()
        };
        let mut replacement = new;
        let tail_len = if grown != 0 {
            replacement.extend(later);
            self.records.len() - from
        } else {
            len
        };
        for (i, record) in replacement.into_iter().enumerate() {
            let index = from + i;
            match self.records.get_mut(index) {
                Some(old) if i < tail_len => {
                    if *old != record {
                        *old = record.clone();
                        self.patches.push(Patch::Replace { index, record });
                    }
                }
                _ => {
                    self.records.push(record.clone());
                    self.patches.push(Patch::Add(record));
                }
            }
        }
        if grown != 0 {
            if let Some(seg) = self.segments.get_mut(segment) {
                seg.count = (seg.count as isize + grown).max(0) as usize;
            }
            for later in self.segments.iter_mut().skip(segment + 1) {
                later.start = (later.start as isize + grown).max(0) as usize;
            }
        }
    }

    /// After a slow text delta: finds which record of block `b` shows the string at `field`, by
    /// reading the block again with a probe character appended, so later deltas are `append`s.
    pub(super) fn find_slot(&mut self, b: usize, field: Vec<Step>) {
        let Ok(base) = self.block_records(b) else {
            return;
        };
        let Some(response) = self.response() else {
            return;
        };
        match get_path_mut(&mut response.body, &field) {
            Some(Parsed::String(s)) => s.push(PROBE),
            _ => return,
        }
        let probed = self.block_records(b);
        if let Some(response) = self.response() {
            if let Some(Parsed::String(s)) = get_path_mut(&mut response.body, &field) {
                s.pop();
            }
        }
        let Ok(probed) = probed else { return };
        let mut found = None;
        for group in 0..3 {
            if base[group].len() != probed[group].len() {
                return;
            }
            for (k, (a, p)) in base[group].iter().zip(&probed[group]).enumerate() {
                if a == p {
                    continue;
                }
                let text = |r: &Parsed| {
                    r.get("content")
                        .and_then(|c| c.get("text"))
                        .and_then(Parsed::as_string)
                        .map(str::to_string)
                };
                let (Some(before), Some(after)) = (text(a), text(p)) else {
                    return;
                };
                let mut expected = a.clone();
                if let Some(content) = expected.get_mut("content") {
                    content.set("text", Parsed::String(text!(before, PROBE)));
                }
                if found.is_some() || expected != *p || !after.ends_with(PROBE) {
                    return;
                }
                found = Some((group, k));
            }
        }
        if let (Some((group, k)), Some(response)) = (found, self.response()) {
            if let Some(block) = response.blocks.get_mut(b) {
                block.slot = Some(Slot { field, group, k });
            }
        }
    }
}

/// `records`, which start at `first` in their segment, with their sequence numbers: the assistant
/// message's items (the segment's first `total01`) count from 0, and so do the later messages'.
/// Error records have none.
pub(super) fn numbered(mut records: Vec<Parsed>, first: usize, total01: usize) -> Vec<Parsed> {
    for (i, record) in records.iter_mut().enumerate() {
        let position = first + i;
        let sequence = if position < total01 {
            position
        } else {
            position - total01
        };
        if record.get("content_type").and_then(Parsed::as_string) != Some("error") {
            record.set("sequence", Parsed::Number(sequence.into()));
        }
    }
    records
}

/// An error record ([`crate::display::ErrorRecord`], as `Transcript` makes them) as a value.
pub(super) fn error_record(text: &str, path: &str) -> Parsed {
    use crate::display::{ErrorField, ErrorRecord};
    let value = |field| match field {
        ErrorField::Null => Parsed::Null,
        ErrorField::String(text) => Parsed::String(text.to_string()),
        ErrorField::Zero => Parsed::Number(0.into()),
        ErrorField::Strings(entries) => object(
            entries
                .iter()
                .map(|&(key, text)| (key, Parsed::String(text.to_string())))
                .collect(),
        ),
    };
    let record = ErrorRecord::new(text, path);
    object(
        record
            .fields()
            .into_iter()
            .map(|(key, field)| (key, value(field)))
            .collect(),
    )
}
