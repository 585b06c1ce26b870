//! LangChain.js has no wire stream of its own (a streamed answer is `AIMessageChunk`s merged by
//! the app, docs/formats/langchain-js.md "Chunks"): `StreamAccumulator("langchain_js")` is
//! `unsupported_protocol` ([`ReadStream::STREAMS`]).

use super::LangchainJs;
use crate::json::partial::Step;
use crate::providers::{Parsed, ReadStream};
use crate::stream::{Reader, StreamAccumulator};

impl ReadStream for LangchainJs {
    const EMPTY_BODY: &'static str = r#"{"type":"ai","content":""}"#;
    const STREAMS: bool = false;

    fn mini_body(_at: &[Step], _block: Parsed) -> Parsed {
        Parsed::Null
    }

    fn event<R: Reader>(
        _acc: &mut StreamAccumulator<R>,
        _at: usize,
        _name: Option<&str>,
        _event: &Parsed,
    ) {
    }
}
