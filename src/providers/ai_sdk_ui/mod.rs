//! The Vercel AI SDK's UI messages (`ai_sdk_ui`, docs/INPUT-FORMATS.md "AI SDK UI messages";
//! the shapes in docs/formats/ai-sdk-ui.md): `UIMessage[]` of AI SDK 5, 6 and 7, and the UI message
//! stream (`x-vercel-ai-ui-message-stream: v1`).
//!
//! Reads a `UIMessage[]`, one `UIMessage`, or a chat request body `{messages}`. Each assistant
//! message is read step by step (`step-start` parts separate them): a step's text, reasoning and
//! file parts and its tool calls make one assistant message, the step's tool outputs a `tool`
//! message after it, so calls and results pair as they do for LangChain messages. Every part is
//! kept for `toProvider`: a tool call holds its part in `metadata.part` (and `metadata.state`),
//! the parts that make no record (`step-start`, `custom`, `data-*`, `source-*`) are `unsupported`
//! parts holding the part, and the first message of each UIMessage, and each later step's
//! assistant message, holds its `id` (and its `metadata`) in `metadata.message_id`
//! (`metadata.message_metadata`).

mod read;
mod stream;
mod write;

/// The format's type, which its three files implement [`super::Format`] for.
pub struct AiSdkUi;
