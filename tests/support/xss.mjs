// What the XSS battery (tests/page/xss-vectors.json) may load: an image record whose URL is
// http(s) loads by the image policy, so the vectors that parse as such URLs are the only requests
// to another host a test allows. Markdown images in text never load on their own.
export function imageRecordUrls(vectors) {
  return new Set(vectors.flatMap((v) => {
    try {
      const u = new URL(v.trim());
      return /^https?:$/.test(u.protocol) ? [u.href] : [];
    } catch {
      return [];
    }
  }));
}
