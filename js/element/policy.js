// Which image sources the viewer loads: http:, https:, blob: (image records only), and base64
// data: URLs of four raster types. Anything else (javascript:, data:image/svg+xml, file:, ...) is
// blocked with a reason. Which of them load at once (`loadsAtOnce`) and which wait for a click.
// Which link targets it keeps: http:, https: and mailto: (Markdown links and citations alike).
const DATA_TYPES = new Set(["image/png", "image/jpeg", "image/gif", "image/webp"]);
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * `{src}` to load, or `{reason}` it is blocked, for image content `{url}` or `{data, mime_type}`.
 * `blob`: blob: URLs are kept (image records; Markdown images never take them).
 */
export function imageSource({ url, data, mime_type } = {}, { blob = false } = {}) {
  if (typeof url === "string" && url !== "") {
    const trimmed = url.trim();
    if (/^data:/i.test(trimmed)) {
      const match = /^data:([a-z/+.-]+);base64,(.*)$/is.exec(trimmed);
      if (match && DATA_TYPES.has(match[1].toLowerCase()) && BASE64.test(match[2])) return { src: trimmed };
      return { reason: "only data:image/png, jpeg, gif or webp (base64) sources are loaded" };
    }
    let parsed;
    try {
      parsed = new URL(trimmed, document.baseURI);
    } catch {
      return { reason: "the URL is not valid" };
    }
    if (parsed.protocol === "https:" || parsed.protocol === "http:") return { src: parsed.href };
    // A blob: URL the page made itself (its origin is the page's): nothing in it leaves the page.
    if (parsed.protocol === "blob:" && blob) {
      return parsed.origin === new URL(document.baseURI).origin ? { src: parsed.href } : { reason: "blob: URLs of another page are not loaded" };
    }
    return { reason: `${parsed.protocol} URLs are not loaded` };
  }
  if (typeof data === "string" && data !== "") {
    // LangChain's `options.media` may name the format alone (`"png"`, `"jpg"`: Elixir's
    // `media: :png`), which an attachment record keeps as given.
    let type = typeof mime_type === "string" ? mime_type.toLowerCase() : "";
    if (/^[a-z]+$/.test(type)) type = `image/${type === "jpg" ? "jpeg" : type}`;
    if (!DATA_TYPES.has(type)) return { reason: `image type ${JSON.stringify(mime_type ?? null)} is not loaded` };
    const compact = data.replace(/\s+/g, "");
    if (!BASE64.test(compact)) return { reason: "the image data is not base64" };
    return { src: `data:${type};base64,${compact}` };
  }
  return { reason: "the image has no url and no data" };
}

const LINK_SCHEMES = new Set(["http:", "https:", "mailto:"]);

/**
 * The target a link keeps, or null: only http:, https: and mailto:. Relative targets resolve
 * against `base` (the page's, for Markdown links); with `base` null only absolute URLs are kept.
 */
export function linkTarget(href, base = document.baseURI) {
  if (typeof href !== "string") return null;
  try {
    const parsed = base === null ? new URL(href) : new URL(href, base);
    return LINK_SCHEMES.has(parsed.protocol) ? parsed.href : null;
  } catch {
    return null;
  }
}

/** True for a link target the element keeps: http:, https: or mailto:. */
export function linkAllowed(href) {
  return linkTarget(href) !== null;
}

/**
 * True when an image may load as soon as it shows: inline data (`data:`), a `blob:` URL, the
 * page's own origin, or a host the app lists in `imageHosts`. Any other source waits for a click,
 * since its URL can carry what the model or a tool put in it to a host of their choosing.
 */
export function loadsAtOnce(src, imageHosts) {
  if (/^(data|blob):/i.test(src)) return true;
  try {
    const url = new URL(src);
    return url.origin === new URL(document.baseURI).origin || imageHosts.has(url.host);
  } catch {
    return false;
  }
}

/** The host an image loads from, for a placeholder that names it ("inline data" for data:). */
export function imageHost(src) {
  if (/^data:/i.test(src)) return "inline data";
  try {
    return new URL(src).host || new URL(src).protocol;
  } catch {
    return "an unknown place";
  }
}
