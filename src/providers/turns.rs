//! Block-based requests (Anthropic, Bedrock, Gemini): a message's tool results, parts and calls
//! written as blocks by the format ([`TurnWriter`]), gathered into [`Turns`] as the format's roles
//! require.

use crate::json::Json;
use crate::message::Role;
use crate::prelude::*;

use super::{InCall, InMessage, InPart, InResult, Out};

/// How a block-based format writes each piece of a message.
pub trait TurnWriter {
    /// Whether consecutive messages of one role merge, as formats that require the roles to
    /// alternate want (user-role content always does).
    const MERGE_ALL: bool = true;
    /// Whether system messages are turns; by default the format writes them apart.
    const SYSTEM_TURNS: bool = false;

    /// A part's block in a message of `role`, if it has one there. `own` is true when the message
    /// came from this format, so that blocks it kept can go back as they were.
    fn block<J: Json>(part: &InPart<J>, own: bool, role: Role) -> Option<Out<J>>;

    /// A tool call's block.
    fn call<J: Json>(call: &InCall<J>, own: bool) -> Out<J>;

    /// A tool result's block, for the user turn after its message; `None` when the format put it
    /// in `turns` itself.
    fn result<J: Json>(result: &InResult<J>, own: bool, turns: &mut Turns<J>) -> Option<Out<J>>;
}

/// The blocks of parts, in a message of `role`.
pub fn blocks<W: TurnWriter, J: Json>(parts: &[InPart<J>], own: bool, role: Role) -> Vec<Out<J>> {
    parts
        .iter()
        .filter_map(|part| W::block(part, own, role))
        .collect()
}

/// The turns of `messages`: each message's results (written first), then its parts and calls.
pub fn turns<W: TurnWriter, J: Json>(messages: &[InMessage<J>]) -> Turns<J> {
    let mut turns = Turns::new(W::MERGE_ALL);
    for message in messages {
        let own = message.own;
        let mut results = Vec::new();
        for result in &message.results {
            results.extend(W::result(result, own, &mut turns));
        }
        match message.role {
            Role::System if W::SYSTEM_TURNS => {
                turns.push(
                    Role::System,
                    blocks::<W, J>(&message.parts, own, Role::System),
                );
            }
            Role::System => {}
            Role::User => turns.user(results, blocks::<W, J>(&message.parts, own, Role::User)),
            Role::Tool => turns.user(results, Vec::new()),
            Role::Assistant => {
                let mut content = blocks::<W, J>(&message.parts, own, Role::Assistant);
                content.extend(message.calls.iter().map(|call| W::call(call, own)));
                turns.push(Role::Assistant, content);
                turns.user(results, Vec::new());
            }
        }
    }
    turns
}

/// A provider message being written: tool results first, then the other blocks.
#[derive(Debug)]
pub struct Turn<J> {
    pub role: Role,
    pub results: Vec<Out<J>>,
    pub blocks: Vec<Out<J>>,
}

impl<J> Turn<J> {
    /// The results, then the other blocks.
    pub fn content(self) -> Vec<Out<J>> {
        let mut content = self.results;
        content.extend(self.blocks);
        content
    }
}

/// The messages of a block-based request (Anthropic, Bedrock, Gemini) as they are written.
/// User-role content (user messages and tool results) is merged into a previous user turn, tool
/// results first; with `merge_all`, consecutive assistant (and system) messages merge too, for
/// formats that require the roles to alternate. Empty turns are never added.
#[derive(Debug)]
pub struct Turns<J> {
    pub list: Vec<Turn<J>>,
    merge_all: bool,
}

impl<J> Turns<J> {
    pub fn new(merge_all: bool) -> Turns<J> {
        Turns {
            list: Vec::new(),
            merge_all,
        }
    }

    /// Adds user-role content: tool results and other blocks.
    pub fn user(&mut self, results: Vec<Out<J>>, blocks: Vec<Out<J>>) {
        if results.is_empty() && blocks.is_empty() {
            return;
        }
        if let Some(last) = self.list.last_mut().filter(|t| t.role == Role::User) {
            last.results.extend(results);
            last.blocks.extend(blocks);
        } else {
            self.list.push(Turn {
                role: Role::User,
                results,
                blocks,
            });
        }
    }

    /// Adds an assistant or system message.
    pub fn push(&mut self, role: Role, blocks: Vec<Out<J>>) {
        if blocks.is_empty() {
            return;
        }
        if self.merge_all {
            if let Some(last) = self.list.last_mut().filter(|t| t.role == role) {
                last.blocks.extend(blocks);
                return;
            }
        }
        self.list.push(Turn {
            role,
            results: Vec::new(),
            blocks,
        });
    }

    /// The last turn, when it is the assistant's.
    pub fn last_assistant(&mut self) -> Option<&mut Turn<J>> {
        self.list.last_mut().filter(|t| t.role == Role::Assistant)
    }
}

/// The turns as a request's messages, `{role, <key>: content}`, each role as `name` spells it.
pub fn turn_list<J>(
    turns: Vec<Turn<J>>,
    key: &'static str,
    name: impl Fn(Role) -> &'static str,
) -> Vec<Out<J>> {
    turns
        .into_iter()
        .map(|turn| {
            Out::Map(vec![
                ("role", Out::Str(name(turn.role))),
                (key, Out::List(turn.content())),
            ])
        })
        .collect()
}
