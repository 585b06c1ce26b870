//! Anthropic Messages (`anthropic_messages`, docs/INPUT-FORMATS.md "Anthropic Messages").
//!
//! Reads a request body `{system?, messages}`, a response (one assistant message with
//! `stop_reason`), one message or a message array. User messages that hold `tool_result` blocks
//! are split into `tool` messages (consecutive results gathered) and user messages, in order.
//! Server tools (`server_tool_use` and the `*_tool_result` blocks) become tool calls and results,
//! the results in a `tool` message after the assistant message, each keeping its block for
//! `toProvider` to pass back unchanged.

mod read;
mod stream;
mod write;

/// The format's type, which its three files implement [`super::Format`] for.
pub struct Anthropic;
