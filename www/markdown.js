// Markdown for model-written text: marked parses it, raw HTML in it is shown as text, and DOMPurify
// sanitizes the result before it reaches the DOM. Links keep only http:, https: and mailto: and
// open with rel="noopener noreferrer"; images keep only the sources the viewer allows.
import { Marked } from "marked";
import DOMPurify from "dompurify";
import { imageSource } from "./policy.js";

const escapeHtml = (s) => s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);

const marked = new Marked({
  gfm: true,
  async: false,
  renderer: {
    // Raw HTML blocks and inline tags are text, never markup.
    html(token) {
      return escapeHtml(token.text ?? token.raw ?? "");
    },
  },
});

const LINK_SCHEMES = new Set(["http:", "https:", "mailto:"]);

export function linkAllowed(href) {
  if (typeof href !== "string") return false;
  try {
    return LINK_SCHEMES.has(new URL(href, document.baseURI).protocol);
  } catch {
    return false;
  }
}

const purify = DOMPurify(window);
purify.addHook("afterSanitizeAttributes", (node) => {
  if (node.nodeName === "A") {
    if (!linkAllowed(node.getAttribute("href"))) node.removeAttribute("href");
    node.setAttribute("rel", "noopener noreferrer");
    node.setAttribute("target", "_blank");
  }
  if (node.nodeName === "IMG") {
    const { src } = imageSource({ url: node.getAttribute("src") });
    if (src) node.setAttribute("src", src);
    else node.removeAttribute("src");
    node.removeAttribute("srcset");
  }
});

const CONFIG = {
  RETURN_DOM_FRAGMENT: true,
  FORBID_TAGS: ["style", "form", "input", "button", "textarea", "select", "option", "iframe", "frame", "object", "embed", "svg", "math", "link", "meta", "base"],
  FORBID_ATTR: ["style", "srcset", "action", "formaction", "xlink:href"],
  ALLOW_DATA_ATTR: false,
};

/** Model-written Markdown as a sanitized DocumentFragment, with a copy button on each code block. */
export function renderMarkdown(text) {
  const html = marked.parse(String(text));
  const fragment = purify.sanitize(html, CONFIG);
  for (const pre of fragment.querySelectorAll("pre")) {
    const code = pre.querySelector("code") ?? pre;
    const button = document.createElement("button");
    button.type = "button";
    button.className = "copy";
    button.textContent = "Copy";
    button.setAttribute("aria-label", "Copy code");
    button.addEventListener("click", async () => {
      try {
        await navigator.clipboard.writeText(code.textContent);
        button.textContent = "Copied";
      } catch {
        button.textContent = "Copy failed";
      }
      setTimeout(() => { button.textContent = "Copy"; }, 1500);
    });
    const wrap = document.createElement("div");
    wrap.className = "code-block";
    pre.replaceWith(wrap);
    wrap.append(button, pre);
  }
  return fragment;
}
