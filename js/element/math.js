// TeX math for Markdown, loaded by markdown.js the first time a message holds math (its own chunk
// of pkg/element/). Temml writes MathML, which every engine the element supports lays out itself,
// so no font files are needed: 59 KB gzipped, where KaTeX's HTML output is 77 KB and its fonts and
// CSS (bench/ELEMENT.md, 2026-12-06).
import temml from "temml";

/**
 * `tex` as MathML markup, or `{error}` for TeX it cannot read (the source is shown instead).
 * `trust: false`: no \href, \url, \class, \id, \style, \data (an untrusted writer's TeX).
 */
export function typeset(tex, display) {
  try {
    return { markup: temml.renderToString(tex, { displayMode: display, throwOnError: true, trust: false, xml: false, maxSize: [50, 50], maxExpand: 500 }) };
  } catch (error) {
    return { error: String(error?.message ?? error) };
  }
}
