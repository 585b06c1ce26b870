// The first viewer: display-message records from chat-display, rendered by content type.
// Every string comes from a model or a user, so text only ever reaches the DOM as text nodes.
import init, { toDisplayMessages } from "chat-display";
import { sampleConversation } from "./sample.js";

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "class") node.className = value;
    else if (key === "data") for (const [k, v] of Object.entries(value)) node.dataset[k] = v;
    else node.setAttribute(key, value);
  }
  for (const child of children) node.append(child);
  return node;
}

function asText(value) {
  return typeof value === "string" ? value : JSON.stringify(value, null, 2);
}

function renderRecord(record) {
  const { content } = record;
  const wrap = el("div", { class: `record ${record.content_type}`, data: { contentType: record.content_type } });
  switch (record.content_type) {
    case "text":
      wrap.append(el("div", { class: "text" }, asText(content.text)));
      break;
    case "thinking":
      wrap.append(el("details", { class: "thinking" }, el("summary", {}, "Thinking"), el("div", { class: "text" }, asText(content.text))));
      break;
    case "tool_call": {
      const head = el("div", {}, el("span", { class: "name" }, asText(content.name ?? "tool")),
        el("span", { class: "badge", data: { status: record.status } }, record.status));
      const box = el("div", { class: "tool" }, head);
      if (content.display_text) box.append(el("div", { class: "display-text" }, content.display_text));
      box.append(el("pre", { class: "arguments" }, asText(content.arguments)));
      wrap.append(box);
      break;
    }
    case "tool_result": {
      const box = el("div", { class: `tool tool_result${content.is_error ? " error" : ""}` },
        el("div", {}, el("span", { class: "name" }, `${content.name ?? "tool"} result`),
          el("span", { class: "badge", data: { status: content.is_error ? "failed" : "completed" } }, content.is_error ? "error" : "ok")),
        el("pre", { class: "result" }, asText(content.content)));
      wrap.append(box);
      break;
    }
    default:
      wrap.append(el("pre", {}, asText(content)));
  }
  return wrap;
}

/** Groups records into messages: a message starts where `sequence` goes back to 0. */
function groupByMessage(records) {
  const groups = [];
  for (const record of records) {
    if (record.sequence === 0 || groups.length === 0) groups.push([]);
    groups[groups.length - 1].push(record);
  }
  return groups;
}

function render(records) {
  const main = document.getElementById("conversation");
  main.replaceChildren();
  for (const group of groupByMessage(records)) {
    const role = group[0].message_type;
    main.append(el("section", { class: "message", data: { role } }, el("div", { class: "role" }, role), ...group.map(renderRecord)));
  }
  document.getElementById("summary").textContent =
    `${records.length} records from ${groupByMessage(records).length} messages`;
}

try {
  await init();
  render(toDisplayMessages(sampleConversation, { conversation_id: "sample" }));
  document.body.dataset.ready = "true";
} catch (error) {
  document.getElementById("summary").replaceChildren(
    el("div", { class: "load-error" }, `Could not show the conversation: ${error.message} (${error.code ?? error.name})`));
  document.body.dataset.ready = "error";
}
