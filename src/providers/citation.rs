//! A citation as display-message records carry it in `metadata.citations` (docs/API.md "Rich
//! provider content"): an object with exactly the eleven fields of Sycophant's `Citation`, in one
//! order, each `null` where the provider gives none. Each format's reader fills the fields from
//! its own citation shape (docs/INPUT-FORMATS.md "Citations").

use crate::prelude::*;

use super::Out;

/// The eleven fields of a citation; `None` is `null`.
#[derive(Clone, Debug)]
pub struct Citation<J> {
    /// One of Sycophant's five: `page_location`, `char_location`, `content_block_location`,
    /// `web_search_result_location`, `search_result_location`.
    pub r#type: Option<Out<J>>,
    pub cited_text: Option<Out<J>>,
    pub url: Option<Out<J>>,
    pub title: Option<Out<J>>,
    pub source: Option<Out<J>>,
    pub file_id: Option<Out<J>>,
    pub document_index: Option<Out<J>>,
    pub document_title: Option<Out<J>>,
    pub start_index: Option<Out<J>>,
    pub end_index: Option<Out<J>>,
    /// `page`, `char` or `block`: what the two indices count.
    pub unit: Option<Out<J>>,
}

impl<J> Default for Citation<J> {
    fn default() -> Self {
        Citation {
            r#type: None,
            cited_text: None,
            url: None,
            title: None,
            source: None,
            file_id: None,
            document_index: None,
            document_title: None,
            start_index: None,
            end_index: None,
            unit: None,
        }
    }
}

impl<J> Citation<J> {
    /// The citation object, its fields in Sycophant's order.
    pub fn into_out(self) -> Out<J> {
        let field = |value: Option<Out<J>>| value.unwrap_or(Out::Null);
        Out::Map(vec![
            ("type", field(self.r#type)),
            ("cited_text", field(self.cited_text)),
            ("url", field(self.url)),
            ("title", field(self.title)),
            ("source", field(self.source)),
            ("file_id", field(self.file_id)),
            ("document_index", field(self.document_index)),
            ("document_title", field(self.document_title)),
            ("start_index", field(self.start_index)),
            ("end_index", field(self.end_index)),
            ("unit", field(self.unit)),
        ])
    }
}
