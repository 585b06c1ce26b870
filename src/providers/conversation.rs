//! [`Conversation`], which builds the LangChain messages of one payload: it gathers consecutive
//! tool results into one `tool` message, pairs results with calls (by id, or by order and name
//! when ids are missing), and gives results the name of the call they answer. A run of items
//! that together make one assistant message (Responses' output items) gathers in its [`Run`].

use crate::json::{Json, Kind};
use crate::message::Role;
use crate::prelude::*;

use super::{
    Entries, LcCall, LcMessage, LcPart, LcResult, Out, Pairing, PartKind, ResultBody, Status,
    Statuses, WireProtocol,
};

/// Builds the LangChain messages of one payload, in order.
#[derive(Debug)]
pub struct Conversation<J> {
    protocol: WireProtocol,
    messages: Vec<LcMessage<J>>,
    /// Per call: its id as output, and its name.
    pairing: Pairing<(Out<J>, Option<Out<J>>)>,
    /// The assistant message being gathered from consecutive items, if one is.
    run: Option<Run<J>>,
}

/// An assistant message gathered from consecutive items: its parts, its calls, and the results
/// of server tools, which follow it in a `tool` message.
#[derive(Debug)]
pub struct Run<J> {
    pub parts: Vec<LcPart<J>>,
    pub calls: Vec<LcCall<J>>,
    pub results: Vec<LcResult<J>>,
}

impl<J: Json> Conversation<J> {
    pub fn new(protocol: WireProtocol) -> Conversation<J> {
        Conversation {
            protocol,
            messages: Vec::new(),
            pairing: Pairing::default(),
            run: None,
        }
    }

    /// The assistant message being gathered, started if none is.
    pub fn run(&mut self) -> &mut Run<J> {
        self.run.get_or_insert_with(|| Run {
            parts: Vec::new(),
            calls: Vec::new(),
            results: Vec::new(),
        })
    }

    /// Ends the run, if one is open: its assistant message, then its server-tool results.
    pub fn flush(&mut self) {
        if let Some(run) = self.run.take() {
            self.message(Role::Assistant, run.parts, run.calls);
            self.results(run.results);
        }
    }

    /// The format being read.
    pub fn protocol(&self) -> WireProtocol {
        self.protocol
    }

    fn metadata(&self) -> Entries<J> {
        vec![("wire_protocol", Out::Str(self.protocol.as_str()))]
    }

    /// Adds a user, assistant or system message.
    pub fn message(&mut self, role: Role, content: Vec<LcPart<J>>, tool_calls: Vec<LcCall<J>>) {
        let metadata = self.metadata();
        self.messages.push(LcMessage {
            role,
            content,
            status: Status::Complete,
            tool_calls,
            tool_results: Vec::new(),
            metadata,
        });
    }

    /// Adds tool results: to the previous message when it is a `tool` message (consecutive results
    /// are gathered into one), else as a new `tool` message. Nothing happens for an empty list.
    pub fn results(&mut self, mut results: Vec<LcResult<J>>) {
        if results.is_empty() {
            return;
        }
        if let Some(last) = self.messages.last_mut().filter(|m| m.role == Role::Tool) {
            last.tool_results.append(&mut results);
            return;
        }
        let metadata = self.metadata();
        self.messages.push(LcMessage {
            role: Role::Tool,
            content: Vec::new(),
            status: Status::Complete,
            tool_calls: Vec::new(),
            tool_results: results,
            metadata,
        });
    }

    /// Makes a tool call, registering it for pairing. `id` and `name` must be strings (or absent).
    pub fn call(
        &mut self,
        id: Option<J>,
        name: Option<Out<J>>,
        arguments: Out<J>,
        mut metadata: Entries<J>,
    ) -> LcCall<J> {
        let given = id.as_ref().and_then(|i| i.as_str().map(|s| s.into_owned()));
        let name_text = name.as_ref().and_then(Out::text);
        let call_id = match (&id, &given) {
            (Some(id), Some(_)) => Out::Given(id.clone()),
            _ => Out::Null,
        };
        let (made, synthetic) = self
            .pairing
            .add(given, name_text, (call_id.clone(), name.clone()));
        let call_id = if synthetic {
            metadata.insert(0, ("synthetic_id", Out::Bool(true)));
            Out::Text(made.clone())
        } else {
            call_id
        };
        if synthetic {
            if let Some(last) = self.pairing.last_mut() {
                last.0 = Out::Text(made);
            }
        }
        LcCall {
            call_id,
            name,
            arguments,
            metadata,
        }
    }

    /// Makes a tool result, paired with the call it answers: a missing id is taken from the call
    /// (paired by order and name) and a missing name from the call (paired by id or order).
    pub fn result(
        &mut self,
        id: Option<J>,
        name: Option<J>,
        content: ResultBody<J>,
        is_error: bool,
        options: Entries<J>,
    ) -> LcResult<J> {
        let id_text = id.as_ref().and_then(|i| i.as_str().map(|s| s.into_owned()));
        let name_text = name
            .as_ref()
            .and_then(|n| n.as_str().map(|s| s.into_owned()));
        let paired = self
            .pairing
            .answer(id_text.as_deref(), name_text.as_deref())
            .cloned();
        let tool_call_id = match id {
            Some(id) => Some(Out::Given(id)),
            None => paired.as_ref().map(|(call_id, _)| call_id.clone()),
        };
        let name = match name {
            Some(name) => Some(Out::Given(name)),
            None => paired.and_then(|(_, name)| name),
        };
        LcResult {
            tool_call_id,
            name,
            content,
            is_error,
            options,
        }
    }

    /// A result whose format names the tool only by its kind (a tool search's or a program's
    /// output): paired by id, or without one with the first unanswered call named `name`; it takes
    /// the name of the call it answers, else `name`.
    pub fn named_result(
        &mut self,
        id: Option<J>,
        name: &'static str,
        content: ResultBody<J>,
        is_error: bool,
        options: Entries<J>,
    ) -> LcResult<J> {
        let id_text = id.as_ref().and_then(|i| i.as_str().map(|s| s.into_owned()));
        let by_name = if id_text.is_none() { Some(name) } else { None };
        let paired = self.pairing.answer(id_text.as_deref(), by_name).cloned();
        let tool_call_id = match id {
            Some(id) => Some(Out::Given(id)),
            None => paired.as_ref().map(|(call_id, _)| call_id.clone()),
        };
        let name = paired.and_then(|(_, name)| name).unwrap_or(Out::Str(name));
        LcResult {
            tool_call_id,
            name: Some(name),
            content,
            is_error,
            options,
        }
    }

    /// Adds citations a response gives beside its message (Perplexity's sources) to the last
    /// text part of its last assistant message; nothing when it has no text.
    pub fn cite_last_text(&mut self, citations: Vec<Out<J>>) {
        if citations.is_empty() {
            return;
        }
        let part = self
            .messages
            .iter_mut()
            .rev()
            .find(|m| m.role == Role::Assistant)
            .and_then(|m| {
                m.content
                    .iter_mut()
                    .rev()
                    .find(|p| p.kind == PartKind::Text)
            });
        if let Some(part) = part {
            part.citations.extend(citations);
        }
    }

    /// Applies a response's stop reason to its (last) assistant message, adding an empty one when
    /// the response has none: `status` from the mapping, the raw reason as `metadata.stop_reason`,
    /// then any details.
    pub fn stop(&mut self, status: Status, reason: Option<J>, details: Entries<J>) {
        if !self.messages.iter().any(|m| m.role == Role::Assistant) {
            self.message(Role::Assistant, Vec::new(), Vec::new());
        }
        if let Some(message) = self
            .messages
            .iter_mut()
            .rev()
            .find(|m| m.role == Role::Assistant)
        {
            message.status = status;
            if let Some(reason) = reason {
                message.metadata.push(("stop_reason", Out::Given(reason)));
            }
            message.metadata.extend(details);
        }
    }

    /// Applies a response's stop reason (see [`Conversation::stop`]), its status the one
    /// `statuses` gives its text (`complete` for a reason that is not a string).
    pub fn stop_reason(&mut self, reason: J, statuses: &Statuses, details: Entries<J>) {
        let status = statuses.of(reason.as_str().as_deref().unwrap_or_default());
        self.stop(status, Some(reason), details);
    }

    /// How many messages there are so far.
    pub fn message_count(&self) -> usize {
        self.messages.len()
    }

    /// Adds metadata to the message at `index` (after its `wire_protocol`), if there is one.
    pub fn annotate(&mut self, index: usize, entries: Entries<J>) {
        if let Some(message) = self.messages.get_mut(index) {
            message.metadata.extend(entries);
        }
    }

    /// Adds metadata to the message at `first` and to each later message of `role` (the steps of
    /// one AI SDK UIMessage, which all hold its id).
    pub fn annotate_each(&mut self, first: usize, role: Role, entries: Entries<J>) {
        for (i, message) in self.messages.iter_mut().enumerate().skip(first) {
            if i == first || message.role == role {
                message.metadata.extend(entries.iter().cloned());
            }
        }
    }

    /// The messages, the open run ended.
    pub fn finish(mut self) -> Vec<LcMessage<J>> {
        self.flush();
        self.messages
    }
}

/// One provider message being read, whose tool results split it (Anthropic's `tool_result`
/// blocks, Bedrock's `toolResult`, Gemini's `functionResponse`): the parts before a result become
/// a message of their own, consecutive results a `tool` message, and what follows another message.
#[derive(Debug)]
pub struct Split<J> {
    role: Role,
    parts: Vec<LcPart<J>>,
    calls: Vec<LcCall<J>>,
    results: Vec<LcResult<J>>,
    /// Whether a message went to the conversation already.
    pushed: bool,
}

impl<J: Json> Split<J> {
    pub fn new(role: Role) -> Split<J> {
        Split {
            role,
            parts: Vec::new(),
            calls: Vec::new(),
            results: Vec::new(),
            pushed: false,
        }
    }

    /// A block that is a bare string becomes a text part (none when empty): true when it was
    /// one. Results before it stay open (and, when the message ends with them, the part is not
    /// written).
    pub fn take_string(&mut self, block: &J) -> bool {
        if block.kind() != Kind::String {
            return false;
        }
        if !block.is_empty_str() {
            self.parts.push(LcPart::text(block.clone()));
        }
        true
    }

    /// Parts: the results before them end their `tool` message first.
    pub fn parts(&mut self, c: &mut Conversation<J>, parts: impl IntoIterator<Item = LcPart<J>>) {
        self.end_results(c);
        self.parts.extend(parts);
    }

    /// A call: the results before it end their `tool` message first.
    pub fn call(&mut self, c: &mut Conversation<J>, call: LcCall<J>) {
        self.end_results(c);
        self.calls.push(call);
    }

    /// A tool result: the parts before it become their message first (the calls stay).
    pub fn result(&mut self, c: &mut Conversation<J>, result: LcResult<J>) {
        if !self.parts.is_empty() {
            c.message(self.role, core::mem::take(&mut self.parts), Vec::new());
            self.pushed = true;
        }
        self.results.push(result);
    }

    fn end_results(&mut self, c: &mut Conversation<J>) {
        if !self.results.is_empty() {
            c.results(core::mem::take(&mut self.results));
            self.pushed = true;
        }
    }

    /// The end of the message: its open results, else its parts and calls (a message that gave
    /// nothing at all is still written, empty).
    pub fn finish(self, c: &mut Conversation<J>) {
        if !self.results.is_empty() {
            c.results(self.results);
        } else if !self.parts.is_empty() || !self.calls.is_empty() || !self.pushed {
            c.message(self.role, self.parts, self.calls);
        }
    }
}
