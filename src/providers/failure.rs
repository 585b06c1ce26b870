//! A provider's error body: the JSON of an HTTP error (or an error event or chunk in a stream),
//! which holds no conversation but the provider's own account of what went wrong. `fromProvider`
//! throws it as `provider_error` (`payload.rs`); a stream makes it an error record
//! (`crate::stream`).
//!
//! The shapes, in the order they are tried:
//!
//! | shape | who sends it | the message at |
//! |---|---|---|
//! | `{error: {message, type?, code?, status?}}` | OpenAI and compatible servers (Groq, OpenRouter, Mistral...), Gemini (`{code, message, status}`), Anthropic (`{type: "error", error: {type, message}}`) | `error.message` |
//! | `{error: "text"}` | Ollama, proxies | `error` |
//! | `{Error: {Code, Message}}` | AWS clients (botocore's parsed error) | `Error.Message` |
//! | `{message, __type?}` | Bedrock (`x-amzn-ErrorType` names the error in a header) | `message` |
//!
//! A body with a `role`, or whose `type` is not `"error"` (a Responses item with an `error`, an AI
//! SDK chunk), is not one; nor is `{message}` with keys besides the few an AWS error has.

use crate::error::{push_quoted, text, Error, ErrorCode, Path};
use crate::json::{js_number, Json, Kind};
use crate::prelude::*;

use super::field;

/// What a provider's error body says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    /// The provider's message.
    pub message: String,
    /// The keys from the body to the message (`["error", "message"]`).
    pub at: &'static [&'static str],
    /// What the provider calls the error: its type or status, then its code when that differs
    /// (`["invalid_request_error", "code unsupported_parameter"]`, `["RESOURCE_EXHAUSTED",
    /// "code 429"]`); empty when it names none.
    pub kinds: Vec<String>,
}

/// Keys an AWS error body has beside its `message`.
const AWS_KEYS: [&str; 6] = ["message", "Message", "__type", "code", "Code", "requestId"];

/// The provider's error, when `body` is an error body.
pub fn failure<J: Json>(body: &J) -> Option<Failure> {
    if !body.is_object() || field(body, "role").is_some() {
        return None;
    }
    if let Some(ty) = field(body, "type") {
        if ty.as_str().as_deref() != Some("error") {
            return None;
        }
    }
    let text = |value: Option<J>| value.and_then(|v| v.as_str().map(|s| s.into_owned()));
    if let Some(error) = field(body, "error") {
        if let Some(message) = text(Some(error.clone())) {
            return Some(Failure {
                message,
                at: &["error"],
                kinds: Vec::new(),
            });
        }
        let kinds = kinds(&error, ["type", "status", "code"]);
        return match text(field(&error, "message")) {
            Some(message) => Some(Failure {
                message,
                at: &["error", "message"],
                kinds,
            }),
            // An error object that names the error but says nothing more: still the provider's.
            None if !kinds.is_empty() => Some(Failure {
                message: String::new(),
                at: &["error"],
                kinds,
            }),
            None => None,
        };
    }
    if let Some(error) = field(body, "Error") {
        let message = text(field(&error, "Message"))?;
        return Some(Failure {
            message,
            at: &["Error", "Message"],
            kinds: kinds(&error, ["Type", "Type", "Code"]),
        });
    }
    let entries = body.entries().unwrap_or_default();
    if entries
        .iter()
        .any(|(key, _)| !AWS_KEYS.contains(&key.as_str()))
    {
        return None;
    }
    let (at, message): (&'static [&'static str], _) = match text(field(body, "message")) {
        Some(message) => (&["message"], message),
        None => (&["Message"], text(field(body, "Message"))?),
    };
    // `__type` may be namespaced: `com.amazon.bedrock#ValidationException`.
    let aws_type = text(field(body, "__type"))
        .map(|t| t.rsplit('#').next().unwrap_or_default().to_string())
        .filter(|t| !t.is_empty());
    let mut kinds: Vec<String> = aws_type.into_iter().collect();
    kinds.extend(code(body, "code", kinds.first()).or_else(|| code(body, "Code", kinds.first())));
    Some(Failure { message, at, kinds })
}

/// The type (else the status, else a code that is a string), then the code when it says
/// something more: `type_key`, `status_key`, `code_key`.
fn kinds<J: Json>(error: &J, [type_key, status_key, code_key]: [&str; 3]) -> Vec<String> {
    let name = [type_key, status_key, code_key].iter().find_map(|key| {
        field(error, key)
            .and_then(|v| v.as_str().map(|s| s.into_owned()))
            .filter(|s| !s.is_empty())
    });
    let mut out: Vec<String> = name.into_iter().collect();
    out.extend(code(error, code_key, out.first()));
    out
}

/// `code <value>` (a string or a number) unless it is `name` again.
fn code<J: Json>(error: &J, key: &str, name: Option<&String>) -> Option<String> {
    let value = field(error, key)?;
    let code = match value.kind() {
        Kind::String => value.as_str()?.into_owned(),
        Kind::Number => js_number(value.as_number()?, J::shortest_digits),
        _ => return None,
    };
    (!code.is_empty() && Some(&code) != name).then(|| text!("code ", code))
}

impl Failure {
    /// The provider's names for the error, or `error` when it gives none: `overloaded_error`,
    /// `RESOURCE_EXHAUSTED, code 429`.
    pub fn label(&self) -> String {
        if self.kinds.is_empty() {
            return "error".into();
        }
        self.kinds.join(", ")
    }

    /// The text of a stream's error record: `overloaded_error: Overloaded`, as the formats' own
    /// error events read.
    pub fn summary(&self) -> String {
        if self.message.is_empty() {
            return self.label();
        }
        text!(self.label(), ": ", self.message)
    }

    /// The `provider_error` of a body read at `root`: the provider's message quoted, its names,
    /// and the path of the message.
    pub fn error(&self, root: &Path<'_>) -> Error {
        let one;
        let two;
        let path = match self.at {
            [a] => {
                one = root.key(a);
                &one
            }
            [a, b, ..] => {
                one = root.key(a);
                two = one.key(b);
                &two
            }
            [] => root,
        };
        let mut quoted = String::new();
        if !self.message.is_empty() {
            quoted.push_str(": ");
            push_quoted(&mut quoted, &self.message);
        }
        let kinds = if self.kinds.is_empty() {
            String::new()
        } else {
            text!(" (", self.kinds.join(", "), ")")
        };
        Error::new(
            ErrorCode::ProviderError,
            path,
            text!(
                "The provider answered with an error",
                kinds,
                " at ",
                path,
                quoted,
                "."
            ),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};

    fn of(body: Value) -> Option<Failure> {
        failure(&&body)
    }

    #[test]
    fn each_providers_error_body() {
        let openai = of(json!({"error": {"message": "Unsupported parameter", "type": "invalid_request_error", "param": "max_tokens", "code": "unsupported_parameter"}})).unwrap();
        assert_eq!(openai.at, ["error", "message"]);
        assert_eq!(
            openai.label(),
            "invalid_request_error, code unsupported_parameter"
        );
        let quota = of(json!({"error": {"message": "Quota", "type": "insufficient_quota", "param": null, "code": "insufficient_quota"}})).unwrap();
        assert_eq!(quota.label(), "insufficient_quota");
        let gemini =
            of(json!({"error": {"code": 429, "message": "Quota", "status": "RESOURCE_EXHAUSTED"}}))
                .unwrap();
        assert_eq!(gemini.label(), "RESOURCE_EXHAUSTED, code 429");
        let anthropic = of(json!({"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}, "request_id": "req_1"})).unwrap();
        assert_eq!(anthropic.summary(), "overloaded_error: Overloaded");
        let openrouter = of(json!({"id": "gen-1", "object": "chat.completion.chunk", "error": {"code": 502, "message": "Provider disconnected"}, "choices": []})).unwrap();
        assert_eq!(openrouter.summary(), "code 502: Provider disconnected");
        let ollama = of(json!({"error": "model \"x\" not found"})).unwrap();
        assert_eq!(
            (ollama.at, ollama.label()),
            (&["error"][..], "error".to_string())
        );
        let bedrock =
            of(json!({"message": "The security token included in the request is invalid."}))
                .unwrap();
        assert_eq!(bedrock.at, ["message"]);
        let typed = of(
            json!({"__type": "com.amazon.coral.validate#ValidationException", "message": "Bad"}),
        )
        .unwrap();
        assert_eq!(typed.label(), "ValidationException");
        let bare = of(json!({"error": {"code": 500, "status": "INTERNAL"}})).unwrap();
        assert_eq!(
            (bare.at, bare.summary()),
            (&["error"][..], "INTERNAL, code 500".to_string())
        );
        assert_eq!(
            bare.error(&Path::Root("$.payload")).message,
            "The provider answered with an error (INTERNAL, code 500) at $.payload.error."
        );
        let boto = of(json!({"Error": {"Code": "ThrottlingException", "Message": "Rate exceeded"}, "ResponseMetadata": {}})).unwrap();
        assert_eq!(boto.summary(), "ThrottlingException: Rate exceeded");
        let error = gemini.error(&Path::Root("$.payload"));
        assert_eq!(error.code.as_str(), "provider_error");
        assert_eq!(error.path, "$.payload.error.message");
        assert_eq!(
            error.message,
            "The provider answered with an error (RESOURCE_EXHAUSTED, code 429) at $.payload.error.message: \"Quota\"."
        );
    }

    #[test]
    fn conversations_and_items_with_an_error_are_not_error_bodies() {
        for body in [
            json!({"type": "mcp_call", "error": "tool failed", "name": "x"}),
            json!({"role": "assistant", "content": "hi", "error": {"message": "x"}}),
            json!({"type": "error", "errorText": "AI SDK chunk"}),
            json!({"message": "hello", "role": "user"}),
            json!({"message": {"role": "assistant"}}),
            json!({"message": "hi", "content": []}),
            json!({"error": null, "choices": []}),
            json!({"error": {"param": "x"}}),
            json!([{"error": "x"}]),
        ] {
            assert_eq!(of(body.clone()), None, "{body}");
        }
    }
}
