//! The seeds: the short strings the glue and the module both know by number from the start (keys
//! the core reads, the words records are made of), so that a key is found on the tape by its index
//! and a record's words are written as indices, without text crossing the boundary.

use super::{cd_seed, TAG_SHORT};
use crate::display::{ItemContent, Status};
use crate::message::Role;
use crate::prelude::*;
use crate::wasm::setup::Local;
use core::cell::{Cell, RefCell};

/// The glue's first short strings, the same every call: the keys whose values the display
/// functions only move (the first `MOVED`, which the glue hands over unread), the words records
/// are made of, and the keys the core reads, so that a key is found on the tape by its index.
pub(super) const SEEDS: [&str; 51] = [
    "arguments",
    "metadata",
    "processed_content",
    "options",
    "interrupt_data",
    "system",
    "user",
    "assistant",
    "tool",
    "text",
    "thinking",
    "tool_call",
    "tool_result",
    "pending",
    "executing",
    "completed",
    "failed",
    "interrupted",
    "cancelled",
    "__type__",
    "role",
    "content",
    "tool_calls",
    "tool_results",
    "type",
    "call_id",
    "name",
    "display_text",
    "tool_call_id",
    "is_error",
    "is_interrupt",
    "message_expansion",
    "messages",
    "result_content",
    "citations",
    "tool_name",
    "id",
    "summary",
    "signature",
    "data",
    "source",
    "image",
    "notification",
    "parts",
    "generated",
    "media",
    "approval_request",
    "status",
    "result",
    "file_reference",
    "filename",
];
/// How many of the first seeds are keys whose values the display functions only move.
pub(super) const MOVED: u32 = 5;

/// Whether the glue has its table of short strings.
static SEEDED: Local<Cell<bool>> = Local(Cell::new(false));

/// Gives the glue `SEEDS`, on first use.
pub(super) fn seed() {
    SEEDED.with(|seeded| {
        if !seeded.get() {
            let mut joined = String::new();
            for (i, word) in SEEDS.iter().enumerate() {
                if i > 0 {
                    joined.push('\n');
                }
                joined.push_str(word);
            }
            cd_seed(&joined, MOVED, &wasm_bindgen::memory());
            seeded.set(true);
        }
    });
}

/// Which of `SEEDS` a string at an address is, for the constants the code asks for (always at the
/// same address): 256 slots of (address, length, seed + 1 or 0), checked against the seed's text.
static SEED_AT: Local<[Cell<(usize, usize, u32)>; 256]> =
    Local([const { Cell::new((0, 0, 0)) }; 256]);

/// The index of `s` among `SEEDS`.
pub(super) fn seed_of(s: &str) -> Option<u32> {
    let at = s.as_ptr() as usize;
    let slot = ((at ^ (s.len() << 24)) as u32).wrapping_mul(0x9E37_79B9) as usize >> 24;
    SEED_AT.with(|table| {
        let cell = table.get(slot)?;
        let (cached_at, len, seed) = cell.get();
        let known = |seed: u32| {
            seed.checked_sub(1)
                .filter(|&i| SEEDS.get(i as usize) == Some(&s))
        };
        if cached_at == at && len == s.len() {
            if let Some(i) = known(seed) {
                return Some(i);
            }
        }
        let seed = SEEDS
            .iter()
            .position(|w| *w == s)
            .map_or(0, |i| i as u32 + 1);
        cell.set((at, s.len(), seed));
        known(seed)
    })
}

/// Each list of keys or words [`seed_slots`] was asked for: its address and its slots (made once
/// and kept, as the lists are: a few dozen words in all).
static LISTS: Local<Lists> = Local(RefCell::new(Vec::new()));
type Lists = RefCell<Vec<(usize, &'static [u32])>>;

/// The slots of the words of `keys` that are seeds (0, which no short string's slot is, for one
/// that is not), found once for each list: a list's address names it, as a `'static` list never
/// changes. Inlined into its callers, the tape's `fields_into` and `match_str`, and without a
/// closure (given one, the size build made it two calls per object read: issue 45), but for the
/// first time a list is asked for.
#[inline(always)]
pub(super) fn seed_slots(keys: &'static [&'static str]) -> &'static [u32] {
    let at = keys.as_ptr() as usize;
    if let Ok(lists) = LISTS.0.try_borrow() {
        let mut i = 0;
        while let Some(&(list, slots)) = lists.get(i) {
            if list == at {
                return slots;
            }
            i += 1;
        }
    }
    add_list(keys)
}

/// [`seed_slots`] of a list not asked for before: its slots, made and kept.
#[cold]
#[inline(never)]
fn add_list(keys: &'static [&'static str]) -> &'static [u32] {
    let slots = keys
        .iter()
        .map(|key| seed_of(key).map_or(0, |seed| seed << 3 | TAG_SHORT));
    let slots: &'static [u32] = Vec::leak(slots.collect());
    if let Ok(mut lists) = LISTS.0.try_borrow_mut() {
        lists.push((keys.as_ptr() as usize, slots));
    }
    slots
}

/// The index of `word` among `SEEDS`, found at compile time: a word that is not one fails the build.
const fn seed_index(word: &str) -> u32 {
    let mut i = 0;
    while i < SEEDS.len() {
        let seed = SEEDS[i].as_bytes();
        let word = word.as_bytes();
        if seed.len() == word.len() {
            let mut j = 0;
            while j < seed.len() && seed[j] == word[j] {
                j += 1;
            }
            if j == seed.len() {
                return i as u32;
            }
        }
        i += 1;
    }
    panic!("not a seed")
}

/// The slot of seed `word`, found at compile time: for constants and `const` blocks only (called
/// at run time, it would search the seeds' text).
pub(super) const fn seed_slot(word: &str) -> u32 {
    seed_index(word) << 3 | TAG_SHORT
}

/// The glue's index of the words a record is made of: its role, item type and status.
pub(super) fn role_word(role: Role) -> u32 {
    match role {
        Role::System => const { seed_index(Role::System.as_str()) },
        Role::User => const { seed_index(Role::User.as_str()) },
        Role::Assistant => const { seed_index(Role::Assistant.as_str()) },
        Role::Tool => const { seed_index(Role::Tool.as_str()) },
    }
}

pub(super) fn type_word<J>(content: &ItemContent<J>) -> u32 {
    match content {
        ItemContent::Text { .. } => const { seed_index("text") },
        ItemContent::Thinking { .. } => const { seed_index("thinking") },
        ItemContent::ToolCall { .. } => const { seed_index("tool_call") },
        ItemContent::ToolResult { .. } => const { seed_index("tool_result") },
        ItemContent::Image { .. } | ItemContent::ImageRef { .. } => const { seed_index("image") },
        ItemContent::FileReference { .. } => const { seed_index("file_reference") },
        ItemContent::Notification { .. } => const { seed_index("notification") },
    }
}

pub(super) fn status_word(status: Status) -> u32 {
    match status {
        Status::Pending => const { seed_index(Status::Pending.as_str()) },
        Status::Executing => const { seed_index(Status::Executing.as_str()) },
        Status::Completed => const { seed_index(Status::Completed.as_str()) },
        Status::Failed => const { seed_index(Status::Failed.as_str()) },
        Status::Interrupted => const { seed_index(Status::Interrupted.as_str()) },
        Status::Cancelled => const { seed_index(Status::Cancelled.as_str()) },
    }
}
