// The record lines of tests/providers.rs `display`, in JavaScript, for the two runners that
// compare them in JavaScript: tests/js/providers.test.mjs (through the kit's `recordLines`) and
// tests/boundary_providers.rs (which evaluates this file in the browser). One function
// expression, so that either can evaluate it as it is: each record as
// `"<message_type> <content_type>: <text>"`,
// `"<message_type> tool_call <status> <call_id> <name>(<arguments as JSON, keys sorted>)"` or
// `"<message_type> tool_result <tool_call_id> <name>[ error]: <content>"`. `round`: arguments
// written as JSON text are read back first; `flagless`: a format with no error flag, whose failed
// calls read as completed and whose results carry no error mark.
(function recordLines(records, round, flagless) {
  const sorted = (v) => Array.isArray(v) ? `[${v.map(sorted).join(",")}]`
    : v !== null && typeof v === "object"
      ? `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${sorted(v[k])}`).join(",")}}`
      : JSON.stringify(v);
  const s = (v) => typeof v === "string" ? v : JSON.stringify(v);
  const parsed = (a) => {
    if (typeof a !== "string") return a;
    try {
      const v = JSON.parse(a);
      return v !== null && typeof v === "object" && !Array.isArray(v) ? v : a;
    } catch {
      return a;
    }
  };
  return records.map((r) => {
    const c = r.content;
    switch (r.content_type) {
      case "tool_call": {
        const status = flagless && r.status === "failed" ? "completed" : r.status;
        return `${r.message_type} tool_call ${status} ${s(c.call_id)} ${s(c.name)}(${sorted(round ? parsed(c.arguments) : c.arguments)})`;
      }
      case "tool_result":
        return `${r.message_type} tool_result ${s(c.tool_call_id)} ${s(c.name)}${c.is_error === true && !flagless ? " error" : ""}: ${s(c.content)}`;
      default:
        return `${r.message_type} ${r.content_type}: ${s(c.text)}`;
    }
  });
})
