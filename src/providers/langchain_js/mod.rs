//! LangChain.js messages (`langchain_js`, docs/formats/langchain-js.md, docs/INPUT-FORMATS.md
//! "LangChain.js messages"): `@langchain/core`'s messages as they are stored and sent.
//!
//! Each message of a list is one of three forms: serialized (`{lc: 1, type: "constructor", id:
//! [..., "AIMessage"], kwargs}`, what `toJSON()` writes), stored (`{type, data}`, what
//! `mapChatMessagesToStoredMessages` writes) or plain (`{type | role, content, tool_calls,
//! tool_call_id}`), and a `[type, content]` tuple. Content is a string or content blocks: v1
//! standard blocks, the 0.3 data blocks, and the provider-native blocks of Anthropic and OpenAI.
//! A message made with `contentBlocks` has `content_blocks` and no `content`: it is read from
//! there. `toProvider` writes stored messages, always with `content`. The format has no stream (its
//! registry row has no `(streams)`, and the folder no `stream.rs`):
//! `StreamAccumulator("langchain_js")` is `unsupported_protocol`.

mod read;
mod write;

/// The format's type, which its two files implement [`super::Format`] for.
pub struct LangchainJs;
