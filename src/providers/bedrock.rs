//! AWS Bedrock Converse (`bedrock_converse`): not read or written yet.

use super::{InMessage, LcMessage, Out, PROTOCOL};
use crate::error::{Error, ErrorCode, Result};
use crate::json::Json;

fn not_yet() -> Error {
    Error::new(
        ErrorCode::UnsupportedProtocol,
        &PROTOCOL,
        "The protocol \"bedrock\" at $.protocol is not supported yet.",
    )
}

pub fn from_provider<J: Json>(_payload: &J) -> Result<Vec<LcMessage<J>>> {
    Err(not_yet())
}

pub fn to_provider<J: Json>(_messages: &[InMessage<J>]) -> Result<Out<J>> {
    Err(not_yet())
}
