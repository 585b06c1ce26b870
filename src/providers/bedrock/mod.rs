//! AWS Bedrock Converse (`bedrock_converse`, docs/INPUT-FORMATS.md "Amazon Bedrock Converse").
//!
//! Reads a request body `{system?, messages}`, a response `{output: {message}, stopReason}`, one
//! message or a message array. Content blocks are one-key unions (`{text}`, `{toolUse}`,
//! `{toolResult}`, `{reasoningContent}`, ...). User messages holding `toolResult` blocks are split
//! into `tool` messages and user messages, in order; `status: "error"` is `is_error`.

mod read;
mod stream;
mod write;

/// The format's type, which its three files implement [`super::Format`] for.
pub struct Bedrock;

/// Document formats and their media types.
const DOCUMENT_MEDIA: [(&str, &str); 9] = [
    ("pdf", "application/pdf"),
    ("csv", "text/csv"),
    ("doc", "application/msword"),
    (
        "docx",
        "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    ),
    ("xls", "application/vnd.ms-excel"),
    (
        "xlsx",
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    ),
    ("html", "text/html"),
    ("txt", "text/plain"),
    ("md", "text/markdown"),
];
