//! The citation object of a record's `metadata.citations` (docs/API.md "Rich provider content"):
//! exactly the eleven fields of Sycophant's `Citation`, in its order, `null` where not given.

use super::{Entries, Out};
use crate::prelude::*;

/// The eleven fields of one citation, each `None` where the provider gives none.
pub struct Citation<J> {
    pub kind: Option<Out<J>>,
    pub cited_text: Option<Out<J>>,
    pub url: Option<Out<J>>,
    pub title: Option<Out<J>>,
    pub source: Option<Out<J>>,
    pub file_id: Option<Out<J>>,
    pub document_index: Option<Out<J>>,
    pub document_title: Option<Out<J>>,
    pub start_index: Option<Out<J>>,
    pub end_index: Option<Out<J>>,
    pub unit: Option<Out<J>>,
}

impl<J> Citation<J> {
    /// The citation as the object records carry.
    pub fn into_out(self) -> Out<J> {
        let or_null = |v: Option<Out<J>>| v.unwrap_or(Out::Null);
        let entries: Entries<J> = vec![
            ("type", or_null(self.kind)),
            ("cited_text", or_null(self.cited_text)),
            ("url", or_null(self.url)),
            ("title", or_null(self.title)),
            ("source", or_null(self.source)),
            ("file_id", or_null(self.file_id)),
            ("document_index", or_null(self.document_index)),
            ("document_title", or_null(self.document_title)),
            ("start_index", or_null(self.start_index)),
            ("end_index", or_null(self.end_index)),
            ("unit", or_null(self.unit)),
        ];
        Out::Map(entries)
    }
}
