//! Reading a payload (`fromProvider`).

use super::OpenaiResponses;
use crate::error::{Error, Path, Result};
use crate::json::{Json, Kind};
use crate::message::Role;
use crate::prelude::*;
use crate::providers::citation;
use crate::providers::{
    arguments, block_type, compact_json, content_parts, field, kind_of, link_line, object,
    opt_list, opt_str, read_list, read_text, role_in, run_text, str_of, Citation, Conversation,
    Entries, LcPart, Out, PartKind, ReadPayload, ResultBody, Shape, Status,
};

/// Calls whose output comes back as its own `*_call_output` item; every other `*_call` item is a
/// server tool whose item holds its outcome too.
const CLIENT_CALLS: [&str; 6] = [
    "function_call",
    "custom_tool_call",
    "computer_call",
    "local_shell_call",
    "shell_call",
    "apply_patch_call",
];

impl ReadPayload for OpenaiResponses {
    const SHAPE: Shape = Shape {
        expected:
            "a Responses request body ({input}), a response ({output}), an item or an item array",
        response: &["output"],
        request: "input",
        system: &["instructions"],
        one: &["type", "role"],
    };

    fn message<J: Json>(c: &mut Conversation<J>, item: &J, path: &Path<'_>) -> Result<()> {
        object(item, path, "an item object")?;
        let ty = opt_str(item, "type", path)?;
        let ty_text = ty.as_ref().and_then(|t| t.as_str()).map(|t| t.into_owned());
        match ty_text.as_deref() {
            None | Some("message") => message_item(c, item, path),
            Some("reasoning") => {
                let parts = reasoning(item, path)?;
                c.run().parts.extend(parts);
                Ok(())
            }
            Some(t) if t.ends_with("_call") => call_item(c, item, t, ty, path),
            Some("program") => {
                // A program the model wrote, run by the provider; its `program_output` follows in
                // a later response, under the same `call_id`.
                let call_id = opt_str(item, "call_id", path)?;
                let arguments = call_arguments(item);
                let metadata = vec![
                    ("provider_type", ty.clone().map_or(Out::Null, Out::Given)),
                    ("item", Out::Given(item.clone())),
                ];
                let call = c.call(call_id, Some(Out::Str("program")), arguments, metadata);
                c.run().calls.push(call);
                Ok(())
            }
            Some("mcp_approval_request") => {
                // Shown as the call it asks to make, pending until its answer (an
                // `mcp_approval_response` with its id) comes.
                let id = opt_str(item, "id", path)?;
                let name = opt_str(item, "name", path)?;
                let arguments = arguments(field(item, "arguments"));
                let metadata = vec![
                    ("provider_type", ty.clone().map_or(Out::Null, Out::Given)),
                    ("item", Out::Given(item.clone())),
                    ("approval_request", Out::Bool(true)),
                ];
                let call = c.call(id, name.map(Out::Given), arguments, metadata);
                c.run().calls.push(call);
                Ok(())
            }
            Some("mcp_approval_response") => {
                c.flush();
                let id = opt_str(item, "approval_request_id", path)?;
                let approved = field(item, "approve").and_then(|a| a.as_bool()) == Some(true);
                let mut text = String::from(if approved { "approved" } else { "denied" });
                if let Some(reason) = str_of(item, "reason") {
                    text.push_str(": ");
                    text.push_str(&reason);
                }
                let options = vec![
                    ("provider_type", ty.clone().map_or(Out::Null, Out::Given)),
                    ("item", Out::Given(item.clone())),
                ];
                let content = ResultBody::Text(Out::Text(text));
                let result = c.result(id, None, content, false, options);
                c.results(vec![result]);
                Ok(())
            }
            Some(t @ ("tool_search_output" | "program_output")) => {
                // The outcome of a server-side tool search or program: the result of the call
                // before it (by `call_id`, or the last unanswered call of its name).
                let id = opt_str(item, "call_id", path)?;
                let name = if t == "program_output" {
                    "program"
                } else {
                    "tool_search"
                };
                let content = match field(item, "tools").and_then(|t| t.elements()) {
                    Some(tools) => ResultBody::Text(Out::Text(tool_lines(&tools))),
                    None => match field(item, "result") {
                        Some(r) if r.kind() == Kind::String => ResultBody::Text(Out::Given(r)),
                        Some(r) => {
                            ResultBody::Text(Out::Text(compact_json(&r, &path.key("result"))?))
                        }
                        None => ResultBody::Text(Out::Str("")),
                    },
                };
                let options = vec![
                    ("provider_type", ty.clone().map_or(Out::Null, Out::Given)),
                    ("item", Out::Given(item.clone())),
                ];
                let result = c.named_result(id, name, content, false, options);
                c.run().results.push(result);
                Ok(())
            }
            Some(t) if t.ends_with("_call_output") => {
                c.flush();
                let id = opt_str(item, "call_id", path)?;
                let content = output(item, path)?;
                let mut options: Entries<J> = if t == "function_call_output" {
                    Vec::new()
                } else {
                    vec![
                        ("provider_type", ty.clone().map_or(Out::Null, Out::Given)),
                        ("item", Out::Given(item.clone())),
                    ]
                };
                // A hosted tool's runs (a shell's stdout, stderr and outcome), whole.
                if let Some(runs) = field(item, "output")
                    .filter(|o| t != "function_call_output" && o.kind() == Kind::Array)
                {
                    options.push(("result", Out::Given(runs)));
                }
                let result = c.result(id, None, content, false, options);
                c.results(vec![result]);
                Ok(())
            }
            Some("compaction") => {
                // Its summary is encrypted: the notification says what happened.
                let part = LcPart::notice(
                    ty.clone().map_or(Out::Null, Out::Given),
                    "item",
                    item.clone(),
                    String::from("The conversation so far was compacted."),
                );
                c.run().parts.push(part);
                Ok(())
            }
            Some(_) => {
                let part = LcPart::raw(
                    ty.clone().map_or(Out::Null, Out::Given),
                    "item",
                    item.clone(),
                );
                c.run().parts.push(part);
                Ok(())
            }
        }
    }

    /// A response: its `output` items, with its `status`.
    fn response<J: Json>(c: &mut Conversation<J>, payload: &J, root: &Path<'_>) -> Result<()> {
        let path = root.key("output");
        match field(payload, "output") {
            Some(list) if list.kind() == Kind::Array => read_list(c, &list, &path)?,
            other => {
                return Err(Error::expected(
                    &path,
                    "an array of output items",
                    kind_of(other),
                ))
            }
        }
        c.flush();
        if let Some(status) = field(payload, "status") {
            let reason = field(payload, "incomplete_details").and_then(|d| field(&d, "reason"));
            let mapped = status_of(
                status.as_str().as_deref().unwrap_or_default(),
                reason
                    .as_ref()
                    .and_then(|r| r.as_str())
                    .as_deref()
                    .unwrap_or_default(),
            );
            c.stop(mapped, Some(reason.unwrap_or(status)), Vec::new());
        }
        Ok(())
    }

    /// `instructions`: a string.
    fn system<J: Json>(instructions: &J, path: &Path<'_>) -> Result<Vec<LcPart<J>>> {
        match instructions.kind() {
            Kind::String => Ok(LcPart::texts(instructions.clone())),
            other => Err(Error::expected(path, "a string or null", other)),
        }
    }

    /// An `input` that is a string: one user message.
    fn other_list<J: Json>(
        c: &mut Conversation<J>,
        input: Option<J>,
        path: &Path<'_>,
    ) -> Result<()> {
        match input {
            Some(text) if text.kind() == Kind::String => {
                c.message(Role::User, vec![LcPart::text(text)], Vec::new());
                Ok(())
            }
            other => Err(Error::expected(
                path,
                "a string or an array of input items",
                kind_of(other),
            )),
        }
    }
}

/// Response `status` → message status: `incomplete` for `max_output_tokens` is `length`, for
/// `content_filter` `content_filtered`; `failed` and `cancelled` are `cancelled`; the rest
/// (`completed`, ...) `complete`. The raw reason kept is `incomplete_details.reason` when there
/// is one, else `status`.
fn status_of(status: &str, reason: &str) -> Status {
    match (status, reason) {
        ("incomplete", "max_output_tokens") => Status::Length,
        ("incomplete", "content_filter") => Status::ContentFiltered,
        ("failed" | "cancelled", _) => Status::Cancelled,
        _ => Status::Complete,
    }
}

/// Message roles; `developer` is a system message.
const ROLES: [(&str, Role); 4] = [
    ("user", Role::User),
    ("assistant", Role::Assistant),
    ("system", Role::System),
    ("developer", Role::System),
];

/// A message item (`{role, content}`, typed or not). Assistant messages join the run.
fn message_item<J: Json>(c: &mut Conversation<J>, item: &J, path: &Path<'_>) -> Result<()> {
    let role = field(item, "role");
    let parts = content_parts(item, path, "a string or an array of content parts", part)?;
    if role.as_ref().and_then(|r| r.as_str()).is_none() && field(item, "type").is_none() {
        return Err(Error::missing(&path.key("type"), "the item type"));
    }
    let expected = "\"user\", \"assistant\", \"system\" or \"developer\"";
    match role_in(role, path, &ROLES, expected)? {
        Role::Assistant => c.run().parts.extend(parts),
        role => {
            c.flush();
            c.message(role, parts, Vec::new());
        }
    }
    Ok(())
}

/// A `*_call` item: a function or custom tool call, a client tool call whose output follows as
/// its own item, or a server tool whose item holds the outcome too.
fn call_item<J: Json>(
    c: &mut Conversation<J>,
    item: &J,
    ty: &str,
    ty_value: Option<J>,
    path: &Path<'_>,
) -> Result<()> {
    let ty_out = ty_value.map_or(Out::Null, Out::Given);
    let item_id = opt_str(item, "id", path)?;
    let call_id = opt_str(item, "call_id", path)?;
    let name = opt_str(item, "name", path)?;
    match ty {
        "function_call" | "custom_tool_call" if !xai_server_call(ty, call_id.as_ref()) => {
            let key = if ty == "function_call" {
                "arguments"
            } else {
                "input"
            };
            let mut metadata: Entries<J> = Vec::new();
            if ty != "function_call" {
                metadata.push(("provider_type", ty_out));
            }
            if let Some(id) = item_id {
                metadata.push(("item_id", Out::Given(id)));
            }
            let arguments = arguments(field(item, key));
            let call = c.call(call_id, name.map(Out::Given), arguments, metadata);
            c.run().calls.push(call);
        }
        _ => {
            // A tool search the app runs itself (`execution: "client"`) is a client call too.
            let client = str_of(item, "execution").as_deref() == Some("client");
            let xai = xai_server_call(ty, call_id.as_ref());
            let server = xai || !client && !CLIENT_CALLS.contains(&ty);
            let id = if server { item_id.clone() } else { call_id };
            let name = name.map(Out::Given).or_else(|| {
                // `trim_end_matches("_call")`, without core's reverse string search (2 KB).
                let mut bare = ty;
                while let Some(shorter) = bare.strip_suffix("_call") {
                    bare = shorter;
                }
                Some(Out::Text(bare.to_string()))
            });
            let arguments = if xai {
                arguments(field(item, "input"))
            } else {
                call_arguments(item)
            };
            let metadata = vec![
                ("provider_type", ty_out.clone()),
                ("item", Out::Given(item.clone())),
            ];
            let call = c.call(id.clone(), name.clone(), arguments, metadata);
            c.run().calls.push(call);
            // A server-side tool search's outcome is the `tool_search_output` item after it.
            if server && ty != "tool_search_call" {
                let (content, is_error) = server_outcome(item, path)?;
                // The item is the structured result, whole: its record's `metadata.result`.
                let options = vec![
                    ("provider_type", ty_out),
                    ("result", Out::Given(item.clone())),
                ];
                let result = c.result(id, None, content, is_error, options);
                c.run().results.push(result);
            }
        }
    }
    Ok(())
}

/// True for a `custom_tool_call` that xAI ran itself: its X search tools (`x_keyword_search`,
/// `view_x_video`, ...) stream as custom tool calls whose `call_id` starts with `xs_call_`, with
/// no output item after them (the response's own `x_search_call` items, in a body, are server
/// calls by their type). Read as a server tool, so its status is its result and the call is not
/// left pending (issue 46, class 11).
fn xai_server_call<J: Json>(ty: &str, call_id: Option<&J>) -> bool {
    ty == "custom_tool_call"
        && call_id
            .and_then(|id| id.as_str())
            .is_some_and(|id| id.starts_with("xs_call_"))
}

/// The arguments of a non-function call: its `arguments` (parsed when it is JSON text), else its
/// `action`, else its `code` or `queries` as an object, else `{}`.
fn call_arguments<J: Json>(item: &J) -> Out<J> {
    if let Some(given) = field(item, "arguments") {
        return arguments(Some(given));
    }
    for key in ["action", "operation"] {
        if let Some(value) = field(item, key) {
            return Out::Given(value);
        }
    }
    for key in ["code", "queries", "input"] {
        if let Some(value) = field(item, key) {
            return Out::Map(vec![(key, Out::Given(value))]);
        }
    }
    Out::empty_map()
}

/// What a server-tool item shows as its result: an MCP call's `output` (or its `error`, as an
/// error); a code interpreter's log texts and images; a file search's result texts; an image
/// generation's image; else its `status`. `status: "failed"` is an error.
fn server_outcome<J: Json>(item: &J, path: &Path<'_>) -> Result<(ResultBody<J>, bool)> {
    let failed = str_of(item, "status").as_deref() == Some("failed");
    if let Some(error) = field(item, "error") {
        let text = match error.kind() {
            Kind::String => Out::Given(error),
            _ => Out::Text(compact_json(&error, &path.key("error"))?),
        };
        return Ok((ResultBody::Text(text), true));
    }
    if let Some(output) = field(item, "output") {
        let text = match output.kind() {
            Kind::String => Out::Given(output),
            _ => Out::Text(compact_json(&output, &path.key("output"))?),
        };
        return Ok((ResultBody::Text(text), failed));
    }
    if let Some(outputs) = field(item, "outputs").and_then(|o| o.elements()) {
        let mut parts = Vec::new();
        for entry in &outputs {
            if let Some(logs) = field(entry, "logs").filter(|l| l.kind() == Kind::String) {
                parts.push(LcPart::text(logs));
            } else if let Some(url) = field(entry, "url").filter(|u| u.kind() == Kind::String) {
                parts.push(LcPart::new(
                    PartKind::ImageUrl,
                    Some(Out::Given(url)),
                    Vec::new(),
                ));
            }
        }
        return Ok((ResultBody::Parts(parts), failed));
    }
    if let Some(results) = field(item, "results").and_then(|r| r.elements()) {
        let parts = results
            .iter()
            .filter_map(|r| field(r, "text").filter(|t| t.kind() == Kind::String))
            .map(LcPart::text)
            .collect();
        return Ok((ResultBody::Parts(parts), failed));
    }
    if let Some(action) = field(item, "action").filter(|a| a.is_object()) {
        if let Some(text) = web_action(&action) {
            return Ok((ResultBody::Text(Out::Text(text)), failed));
        }
    }
    if let Some(image) = field(item, "result").filter(|r| r.kind() == Kind::String) {
        // A generated image: the revised prompt as the result's text, the image its own record.
        let media = match str_of(item, "output_format") {
            Some(format) => Out::Text(crate::error::text!("image/", format)),
            None => Out::Str("image/png"),
        };
        let mut parts = Vec::new();
        if let Some(prompt) = field(item, "revised_prompt").filter(|p| p.kind() == Kind::String) {
            parts.push(LcPart::text(prompt));
        }
        parts.push(LcPart::generated_image(Out::Given(image), media));
        return Ok((ResultBody::Parts(parts), failed));
    }
    let status = field(item, "status").map_or(Out::Str(""), Out::Given);
    Ok((ResultBody::Text(status), failed))
}

/// What a web search call did, as a person reads it: a search's query and its sources (`title —
/// url`, or the URL alone), a page opened, a text looked for in a page.
fn web_action<J: Json>(action: &J) -> Option<String> {
    let mut text = String::new();
    match str_of(action, "type").as_deref() {
        Some("search") => {
            text.push_str("Searched: ");
            text.push_str(&str_of(action, "query").unwrap_or_default());
            for source in field(action, "sources")
                .and_then(|s| s.elements())
                .unwrap_or_default()
            {
                if let Some(line) = link_line(&source) {
                    text.push('\n');
                    text.push_str(&line);
                }
            }
        }
        Some("open_page") => {
            text.push_str("Opened ");
            text.push_str(&str_of(action, "url").unwrap_or_default());
        }
        Some("find_in_page") => {
            text.push_str("Looked for \"");
            text.push_str(&str_of(action, "pattern").unwrap_or_default());
            text.push_str("\" in ");
            text.push_str(&str_of(action, "url").unwrap_or_default());
        }
        _ => return None,
    }
    Some(text)
}

/// Tools a tool search found, one a line: `name — description` (the name alone without one).
fn tool_lines<J: Json>(tools: &[J]) -> String {
    let mut text = String::new();
    for tool in tools {
        let Some(name) = str_of(tool, "name") else {
            continue;
        };
        if !text.is_empty() {
            text.push('\n');
        }
        text.push_str(&name);
        if let Some(description) = str_of(tool, "description").filter(|d| !d.is_empty()) {
            text.push_str(" — ");
            text.push_str(&description);
        }
    }
    text
}

/// A reasoning item: its summary texts (else its reasoning texts) as thinking parts, each with
/// `options.id`; the first also keeps `encrypted_content`. With no text at all, one empty thinking
/// part keeps the item for passing back.
fn reasoning<J: Json>(item: &J, path: &Path<'_>) -> Result<Vec<LcPart<J>>> {
    let id = opt_str(item, "id", path)?;
    let encrypted = opt_str(item, "encrypted_content", path)?;
    let mut texts = Vec::new();
    for key in ["summary", "content"] {
        let list_path = path.key(key);
        for (i, entry) in opt_list(item, key, path)?
            .unwrap_or_default()
            .iter()
            .enumerate()
        {
            texts.push(read_text(entry, "text", &list_path.index(i))?);
        }
        if !texts.is_empty() {
            break;
        }
    }
    let mut parts: Vec<LcPart<J>> = texts
        .into_iter()
        .map(|text| LcPart::thinking(Out::Given(text), None))
        .collect();
    if parts.is_empty() && (id.is_some() || encrypted.is_some()) {
        parts.push(LcPart::thinking(Out::Str(""), None));
    }
    for (i, part) in parts.iter_mut().enumerate() {
        if let Some(id) = &id {
            part.options.push(("id", Out::Given(id.clone())));
        }
        if i == 0 {
            if let Some(encrypted) = &encrypted {
                part.options
                    .push(("encrypted_content", Out::Given(encrypted.clone())));
            }
        }
    }
    Ok(parts)
}

/// A `*_call_output` item's `output`: a string, content parts, or a shell's runs (entries with no
/// `type`: `{stdout, stderr, outcome: {type: "exit", exit_code} | {type: "timeout"}}`, as the
/// hosted shell sends them) as the text of each run.
fn output<J: Json>(item: &J, path: &Path<'_>) -> Result<ResultBody<J>> {
    let output_path = path.key("output");
    Ok(match field(item, "output") {
        None => ResultBody::Text(Out::Str("")),
        Some(o) if o.kind() == Kind::String => ResultBody::Text(Out::Given(o)),
        Some(o) => match o.elements() {
            Some(list) if !list.is_empty() && list.iter().all(is_run) => {
                let mut text = String::new();
                for (i, run) in list.iter().enumerate() {
                    if i > 0 {
                        text.push('\n');
                    }
                    text.push_str(&shell_run(run, &output_path.index(i))?);
                }
                ResultBody::Text(Out::Text(text))
            }
            Some(list) => ResultBody::Parts(
                list.iter()
                    .enumerate()
                    .map(|(i, p)| part(p, &output_path.index(i)))
                    .collect::<Result<_>>()?,
            ),
            None => ResultBody::Text(Out::Text(compact_json(&o, &output_path)?)),
        },
    })
}

/// An output entry that is a shell's run: an object with no `type` and a `stdout`, `stderr` or
/// `outcome`.
fn is_run<J: Json>(entry: &J) -> bool {
    entry.is_object()
        && field(entry, "type").is_none()
        && ["stdout", "stderr", "outcome"]
            .iter()
            .any(|key| field(entry, key).is_some())
}

/// A shell run's text: stdout, stderr, then `exit code <n>` (or `timed out`).
fn shell_run<J: Json>(run: &J, path: &Path<'_>) -> Result<String> {
    let outcome = field(run, "outcome");
    let exit = match &outcome {
        Some(o) if str_of(o, "type").as_deref() == Some("timeout") => None,
        Some(o) => match field(o, "exit_code") {
            Some(code) => Some(compact_json(&code, &path.key("outcome").key("exit_code"))?),
            None => None,
        },
        None => None,
    };
    let mut text = run_text(str_of(run, "stdout"), str_of(run, "stderr"), exit);
    if outcome.is_some_and(|o| str_of(&o, "type").as_deref() == Some("timeout")) {
        if !text.is_empty() {
            text.push('\n');
        }
        text.push_str("timed out");
    }
    Ok(text)
}

/// A content part: text kinds, refusals, images and files; anything else kept as its part.
fn part<J: Json>(part: &J, path: &Path<'_>) -> Result<LcPart<J>> {
    let (ty, ty_value) = block_type(part, path)?;
    Ok(match ty.as_str() {
        "input_text" | "output_text" | "text" | "summary_text" | "reasoning_text" => {
            let citations = field(part, "annotations")
                .and_then(|a| a.elements())
                .unwrap_or_default()
                .iter()
                .filter_map(citation::openai)
                .map(Citation::into_out)
                .collect();
            LcPart::text(read_text(part, "text", path)?).cited(citations)
        }
        "refusal" => LcPart::text(read_text(part, "refusal", path)?),
        "input_image" => match opt_str(part, "image_url", path)? {
            Some(url) => LcPart::new(PartKind::ImageUrl, Some(Out::Given(url)), Vec::new()),
            None => LcPart::new(
                PartKind::Image,
                opt_str(part, "file_id", path)?.map(Out::Given),
                vec![("type", Out::Str("file_id"))],
            ),
        },
        "input_file" => {
            let mut options: Entries<J> = Vec::new();
            let (kind, content) = if let Some(data) = opt_str(part, "file_data", path)? {
                (PartKind::File, Some(data))
            } else if let Some(url) = opt_str(part, "file_url", path)? {
                (PartKind::FileUrl, Some(url))
            } else {
                options.push(("type", Out::Str("file_id")));
                (PartKind::File, opt_str(part, "file_id", path)?)
            };
            if let Some(name) = opt_str(part, "filename", path)? {
                options.push(("filename", Out::Given(name)));
            }
            LcPart::new(kind, content.map(Out::Given), options)
        }
        _ => LcPart::raw(Out::Given(ty_value), "part", part.clone()),
    })
}
