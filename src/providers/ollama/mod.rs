//! Ollama's native chat API, `/api/chat` (`ollama`, docs/formats/ollama.md).
//!
//! Reads a request body `{model, messages, tools}`, a response `{model, created_at, message,
//! done, done_reason, ...}` (its message, with `done_reason` as the stop reason), one message or
//! a message array. Messages have a `role` (`system`, `user`, `assistant`, `tool`), a `content`
//! string, `images` (base64 strings), `thinking` (the reasoning of thinking models), `tool_calls`
//! (`[{id?, function: {index?, name, arguments}}]`, arguments an object) and, on a `tool` message,
//! `tool_name` (and, from newer servers, `tool_call_id`). Calls without ids get synthetic ids and
//! their results are paired with them by order and name, as Gemini's are. There is no error flag:
//! results are `is_error: false`. The stream is NDJSON, one response object a line, the last with
//! `done: true`.

mod read;
mod stream;
mod write;

/// The format's type, which its three files implement [`super::Format`] for.
pub struct Ollama;
