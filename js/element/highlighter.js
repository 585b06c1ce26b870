// The highlighter itself: highlight.js core with the common languages only (26.7 KB gzipped with
// these 17, where Shiki's fine-grained bundles with its JavaScript regex engine came to 239 KB for
// the same set: bench/ELEMENT.md, 2026-12-06). It runs in a worker (highlight-worker.js, bundled
// into highlight.js's chunk as text), or in the page, a piece at a time, where a worker cannot
// start (highlight.js loads it then as a chunk of its own).
import hljs from "highlight.js/lib/core";
import bash from "highlight.js/lib/languages/bash";
import c from "highlight.js/lib/languages/c";
import cpp from "highlight.js/lib/languages/cpp";
import css from "highlight.js/lib/languages/css";
import diff from "highlight.js/lib/languages/diff";
import go from "highlight.js/lib/languages/go";
import java from "highlight.js/lib/languages/java";
import javascript from "highlight.js/lib/languages/javascript";
import json from "highlight.js/lib/languages/json";
import markdown from "highlight.js/lib/languages/markdown";
import python from "highlight.js/lib/languages/python";
import rust from "highlight.js/lib/languages/rust";
import shell from "highlight.js/lib/languages/shell";
import sql from "highlight.js/lib/languages/sql";
import typescript from "highlight.js/lib/languages/typescript";
import xml from "highlight.js/lib/languages/xml";
import yaml from "highlight.js/lib/languages/yaml";

const LANGUAGES = { bash, c, cpp, css, diff, go, java, javascript, json, markdown, python, rust, shell, sql, typescript, xml, yaml };
for (const [name, language] of Object.entries(LANGUAGES)) hljs.registerLanguage(name, language);
// Names models write that the languages above do not alias themselves.
hljs.registerAliases(["tsx", "mts", "cts"], { languageName: "typescript" });
hljs.registerAliases(["jsonc", "json5"], { languageName: "json" });
hljs.registerAliases(["sh", "zsh", "shellscript"], { languageName: "bash" });
hljs.registerAliases(["console", "terminal"], { languageName: "shell" });
hljs.registerAliases(["html", "htm", "svg", "vue"], { languageName: "xml" });

/**
 * `code` highlighted as `language` in one go: highlight.js's HTML (spans with `hljs-*` classes
 * around the escaped text), or null for a language it does not know: what the worker gives, and what
 * `highlightPiece`'s pieces add up to (tests/element/highlight.test.mjs).
 */
export function highlight(code, language) {
  if (typeof language !== "string" || !hljs.getLanguage(language)) return null;
  return hljs.highlight(code, { language, ignoreIllegals: true }).value;
}

/** A block is highlighted in pieces of at least this many lines (bench/ELEMENT.md, 2026-12-06 16:40 UTC). */
export const PIECE_LINES = 40;
/** Later blank lines tried for a piece's end before the rest is highlighted in one. */
const TRIES = 3;

/**
 * The piece of `code` from character `start` on, highlighted as `language`: `{html, end}`, the
 * piece ending at `end`, or null for a language it does not know. A piece of a long block ends
 * before a blank line, at least PIECE_LINES lines on, where the grammar is back at its top level:
 * no token spans such a line, so the pieces highlighted one after another give the HTML the whole
 * block gives (tests/element/highlight.test.mjs compares them over every file of the corpus it
 * reads). A block with no such line is highlighted whole.
 */
export function highlightPiece(code, language, start = 0) {
  const grammar = typeof language === "string" ? hljs.getLanguage(language) : null;
  if (!grammar) return null;
  let end = start;
  for (let tries = 0; tries < TRIES; tries++) {
    end = blankLineAfter(code, end, PIECE_LINES);
    if (end >= code.length) break;
    const result = hljs.highlight(code.slice(start, end), { language, ignoreIllegals: true });
    if (result._top === grammar) return { html: result.value, end };
  }
  return { html: hljs.highlight(code.slice(start), { language, ignoreIllegals: true }).value, end: code.length };
}

/** Where the first blank line at least `lines` lines after `from` starts (the end of `code` if none). */
function blankLineAfter(code, from, lines) {
  let at = from;
  for (let n = 0; ; n++) {
    const newline = code.indexOf("\n", at);
    if (newline < 0) return code.length;
    at = newline + 1;
    if (n + 1 >= lines && code[at] === "\n") return at;
  }
}

/**
 * Compiles `language`'s grammar (nothing for one that is compiled or unknown). highlight.js
 * compiles a grammar on its first use (the JavaScript one took most of the 168 ms of the first
 * highlight in bench/markdown.mjs), so the page's fallback does it in a task of its own first.
 */
export function prepare(language) {
  const known = typeof language === "string" ? hljs.getLanguage(language) : null;
  if (known && known.isCompiled !== true) hljs.highlight("", { language, ignoreIllegals: true });
}

/** Lines of highlighted code a group holds (a block shorter than two groups has none). */
export const GROUP_LINES = 50;

/**
 * highlight.js's HTML of a long block with its lines put into groups of GROUP_LINES lines
 * (`<span class="code-lines">`, blocks with `content-visibility: auto` and the height of their
 * lines: the element's style.css), each cut after a newline outside every span, so that the
 * browser styles, lays out and paints only the groups in view (a 500-line block is about 2,500
 * spans). A group whose last line is inside a span (a comment over many lines) runs on to the next
 * newline outside one. The text is the same, in order. HTML of fewer lines is returned as it is.
 */
export function inGroups(html) {
  let lines = 0;
  for (let at = html.indexOf("\n"); at >= 0; at = html.indexOf("\n", at + 1)) lines++;
  if (lines < 2 * GROUP_LINES) return html;
  const groups = [];
  let depth = 0;
  let inGroup = 0;
  let start = 0;
  for (let at = 0; at < html.length; at++) {
    const c = html.charCodeAt(at);
    if (c === 60 /* < */) depth += html.startsWith("</", at) ? -1 : 1;
    else if (c === 10 /* \n */ && ++inGroup >= GROUP_LINES && depth === 0) {
      groups.push(html.slice(start, at + 1));
      start = at + 1;
      inGroup = 0;
    }
  }
  if (start < html.length) groups.push(html.slice(start));
  return groups.map((group) => `<span class="code-lines">${group}</span>`).join("");
}
