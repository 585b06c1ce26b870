//! Google Gemini generateContent (`google_gemini`, docs/INPUT-FORMATS.md "Google Gemini").
//!
//! Reads a request body `{systemInstruction?, contents}`, a response `{candidates}` (the first
//! candidate's content, with its `finishReason`), one content or a content array. The `model` role
//! is the assistant; `functionResponse` parts (in user contents) become `tool` messages. Calls
//! without ids (models before Gemini 3) get synthetic ids, and their results are paired with them
//! by order and name.

mod read;
mod stream;
mod write;

/// The format's type, which its three files implement [`super::Format`] for.
pub struct Gemini;
