//! A citation as display-message records carry it in `metadata.citations` (docs/API.md "Rich
//! provider content"): an object with exactly the eleven fields of Sycophant's `Citation`, in one
//! order, each `null` where the provider gives none. Each format's reader fills the fields from
//! its own citation shape (docs/INPUT-FORMATS.md "Citations").

use crate::json::fields::{field, str_of};
use crate::json::Json;
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

/// An Anthropic citation (`char_location`, `page_location`, `content_block_location`,
/// `web_search_result_location`, `search_result_location`) as a [`Citation`]: its type and fields
/// as they are, its start and end as the indices with their unit.
pub fn anthropic<J: Json>(c: &J) -> Citation<J> {
    let given = |key: &str| field(c, key).map(Out::Given);
    let ty = str_of(c, "type");
    let (start, end, unit) = match ty.as_deref() {
        Some("char_location") => ("start_char_index", "end_char_index", "char"),
        Some("page_location") => ("start_page_number", "end_page_number", "page"),
        Some("content_block_location" | "search_result_location") => {
            ("start_block_index", "end_block_index", "block")
        }
        _ => ("", "", ""),
    };
    const TYPES: [&str; 5] = [
        "page_location",
        "char_location",
        "content_block_location",
        "web_search_result_location",
        "search_result_location",
    ];
    Citation {
        r#type: given("type").filter(|_| ty.as_deref().is_some_and(|t| TYPES.contains(&t))),
        cited_text: given("cited_text"),
        url: given("url"),
        title: given("title"),
        source: given("source"),
        file_id: given("file_id"),
        document_index: given("document_index"),
        document_title: given("document_title"),
        start_index: (!start.is_empty()).then(|| given(start)).flatten(),
        end_index: (!end.is_empty()).then(|| given(end)).flatten(),
        unit: (!unit.is_empty()).then_some(Out::Str(unit)),
    }
}

/// An `output_text` annotation as a citation: `url_citation` (`url`, `title`, `start_index`,
/// `end_index`), `file_citation` (`file_id`, `filename` as the document's title, `index` as the
/// start), `container_file_citation` (as a file citation, with `start_index` and `end_index`);
/// indices count characters. Sycophant has no type for these, so `type` is null. `None` for
/// `file_path` and other annotations, which cite nothing. Chat Completions' form, the fields of a
/// `url_citation` under its own `url_citation` key, reads the same.
pub fn openai<J: Json>(a: &J) -> Option<Citation<J>> {
    let inner = field(a, "url_citation").filter(|u| u.is_object());
    let a = inner.as_ref().unwrap_or(a);
    let given = |key: &str| field(a, key).map(Out::Given);
    let mut citation = Citation::default();
    let ty = if inner.is_some() {
        Some("url_citation".into())
    } else {
        str_of(a, "type")
    };
    match ty.as_deref() {
        Some("url_citation") => {
            citation.url = given("url");
            citation.title = given("title");
            citation.start_index = given("start_index");
            citation.end_index = given("end_index");
        }
        Some("file_citation" | "container_file_citation") => {
            citation.file_id = given("file_id");
            citation.document_title = given("filename");
            citation.start_index = given("start_index").or_else(|| given("index"));
            citation.end_index = given("end_index");
        }
        _ => return None,
    }
    if citation.start_index.is_some() {
        citation.unit = Some(Out::Str("char"));
    }
    Some(citation)
}
