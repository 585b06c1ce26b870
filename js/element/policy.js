// Which image sources the viewer loads: http:, https:, and base64 data: URLs of four raster types.
// Anything else (javascript:, data:image/svg+xml, blob:, file:, ...) is blocked with a reason.
// Which link targets it keeps: http:, https: and mailto: (Markdown links and citations alike).
const DATA_TYPES = new Set(["image/png", "image/jpeg", "image/gif", "image/webp"]);
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** `{src}` to load, or `{reason}` it is blocked, for image content `{url}` or `{data, mime_type}`. */
export function imageSource({ url, data, mime_type } = {}) {
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
    return { reason: `${parsed.protocol} URLs are not loaded` };
  }
  if (typeof data === "string" && data !== "") {
    const type = typeof mime_type === "string" ? mime_type.toLowerCase() : "";
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
