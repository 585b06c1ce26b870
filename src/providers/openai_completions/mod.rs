//! OpenAI Chat Completions (`openai_completions`, docs/INPUT-FORMATS.md "OpenAI Chat Completions").
//!
//! Reads a request body `{messages}`, a response `{choices}` (the first choice's message, with its
//! `finish_reason`), one message or a message array. `developer` messages are system messages;
//! consecutive `tool` messages are gathered into one LangChain `tool` message; reasoning from
//! OpenAI-compatible servers (`reasoning_content`, `reasoning_details`, `reasoning`) becomes
//! thinking parts. There is no error flag: results are `is_error: false`.

mod read;
mod stream;
mod write;

/// The format's type, which its three files implement [`super::Format`] for.
pub struct OpenaiCompletions;
