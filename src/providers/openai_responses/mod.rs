//! OpenAI Responses (`openai_responses`, docs/INPUT-FORMATS.md "OpenAI Responses").
//!
//! Reads a request body `{instructions?, input}`, a response `{output, status}`, or an item array.
//! A run of consecutive output items (reasoning, assistant messages, function calls, server-tool
//! calls) forms one assistant message; a `*_output` item or a user / system message starts a new
//! one (docs/DECISIONS.md "Providers"). Server-tool items (`web_search_call`, `mcp_call`, ...)
//! are a call and a result in one item: the call goes in the run, the result in a `tool` message
//! after it. There is no error flag on function results: they are `is_error: false`.

mod read;
mod stream;
mod write;

/// The format's type, which its three files implement [`super::Format`] for.
pub struct OpenaiResponses;
