// The streamed answer of bench/markdown.mjs and bench/markdown-trace.mjs.

/** A long Markdown answer, cut into tokens of about four characters. */
export function answerTokens(count) {
  const parts = [];
  const para = "The **service** reads the `config` file, retries the request and logs [the result](https://example.com/log) when it is done. ";
  const code = "```js\nfunction handler(request) {\n  const body = JSON.parse(request.body);\n  return { status: 200, body };\n}\n```\n\n";
  const table = "| step | command |\n| --- | --- |\n| build | `npm run build` |\n| test | `npm test` |\n\n";
  let k = 0;
  while (parts.join("").length < count * 4) {
    parts.push(para.repeat(2), "\n\n");
    if (k % 3 === 0) parts.push(code);
    if (k % 5 === 0) parts.push(table);
    parts.push("- first point with *emphasis*\n- second point\n\n");
    k++;
  }
  const text = parts.join("");
  const tokens = [];
  for (let i = 0; i < text.length && tokens.length < count; i += 4) tokens.push(text.slice(i, i + 4));
  return tokens;
}
