// Syntax highlighting for Markdown code blocks, loaded by markdown.js the first time a code block
// with a language is shown (its own chunk of pkg/element/). highlight.js core with the common
// languages only: 26.7 KB gzipped with these 17, where Shiki's fine-grained bundles with its
// JavaScript regex engine came to 239 KB for the same set (bench/ELEMENT.md, 2026-12-06).
import hljs from "highlight.js/lib/core";
import sheet from "./highlight.css";
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

/** The colours of highlighted code (its classes), light and dark: a style sheet's text. */
export { sheet as css };

const LANGUAGES = { bash, c, cpp, css, diff, go, java, javascript, json, markdown, python, rust, shell, sql, typescript, xml, yaml };
for (const [name, language] of Object.entries(LANGUAGES)) hljs.registerLanguage(name, language);
// Names models write that the languages above do not alias themselves.
hljs.registerAliases(["tsx", "mts", "cts"], { languageName: "typescript" });
hljs.registerAliases(["jsonc", "json5"], { languageName: "json" });
hljs.registerAliases(["sh", "zsh", "shellscript"], { languageName: "bash" });
hljs.registerAliases(["console", "terminal"], { languageName: "shell" });
hljs.registerAliases(["html", "htm", "svg", "vue"], { languageName: "xml" });

/**
 * `code` highlighted as `language`: highlight.js's HTML (spans with `hljs-*` classes around the
 * escaped text), or null for a language it does not know (the block stays plain).
 */
export function highlight(code, language) {
  if (typeof language !== "string" || !hljs.getLanguage(language)) return null;
  return hljs.highlight(code, { language, ignoreIllegals: true }).value;
}

/**
 * True when highlighting `language` costs only its code: a language it does not know, or one whose
 * grammar is compiled. highlight.js compiles a grammar on its first use (the JavaScript one took
 * most of the 168 ms of the first highlight in bench/markdown.mjs), so markdown.js compiles it in a
 * task of its own first (`prepare`) rather than inside a frame's render.
 */
export function ready(language) {
  const known = typeof language === "string" ? hljs.getLanguage(language) : null;
  return !known || known.isCompiled === true;
}

/** Compiles `language`'s grammar (nothing for one that is compiled or unknown). */
export function prepare(language) {
  if (!ready(language)) hljs.highlight("", { language, ignoreIllegals: true });
}
