// Live streams for the viewer (`?stream=<url>&protocol=<name>`): a provider's streaming response
// read with a body reader, each received chunk (bytes) pushed into a StreamAccumulator, and its
// patches handed on (the viewer gives them to <chat-transcript>'s applyPatches). No DOM here: the
// bench applies patches to an array with `applyPatches`.

/** Applies one push's patches to `records` (a new object for each changed record) and adds the
 * index of every record they touch to `changed`, when given. Returns `records`. */
export function applyPatches(records, patches, changed) {
  for (const patch of patches) {
    let index = patch.index;
    if (patch.op === "add") {
      index = records.length;
      records.push(patch.record);
    } else if (patch.op === "replace") {
      records[index] = patch.record;
    } else {
      const r = records[index];
      records[index] = { ...r, content: { ...r.content, [patch.field]: r.content[patch.field] + patch.text } };
    }
    changed?.add(index);
  }
  return records;
}

/** `bytes` cut just after each blank line (`\n\n` or `\n\r\n`), where SSE events end; the rest,
 * if any, is the last piece. Cutting at ASCII newlines never splits a UTF-8 character. */
export function splitEvents(bytes) {
  const pieces = [];
  let from = 0;
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] !== 10) continue;
    const end = bytes[i + 1] === 10 ? i + 2 : bytes[i + 1] === 13 && bytes[i + 2] === 10 ? i + 3 : 0;
    if (end) {
      pieces.push(bytes.subarray(from, end));
      from = end;
      i = end - 1;
    }
  }
  if (from < bytes.length) pieces.push(bytes.subarray(from));
  return pieces;
}

const sleep = (ms, signal) => new Promise((resolve) => {
  const timer = setTimeout(resolve, ms);
  signal?.addEventListener("abort", () => { clearTimeout(timer); resolve(); }, { once: true });
});

/**
 * Reads `body` (a ReadableStream of bytes) into `accumulator`. With `delay` 0 each chunk is pushed
 * whole as it arrives; otherwise each chunk is cut into its SSE events, pushed one at a time with
 * `delay` ms between them, so that a recorded file (which arrives in one chunk) streams visibly.
 * After every push that made patches, `onPatches(patches)` gets them. Stops early when `signal`
 * aborts.
 */
export async function readStream(body, accumulator, { delay = 0, signal, onPatches = () => {} } = {}) {
  const reader = body.getReader();
  let first = true;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done || signal?.aborted) break;
      for (const piece of delay > 0 ? splitEvents(value) : [value]) {
        if (delay > 0 && !first) await sleep(delay, signal);
        if (signal?.aborted) return;
        first = false;
        const patches = accumulator.push(piece);
        if (patches.length) onPatches(patches);
      }
    }
  } finally {
    if (signal?.aborted) await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
}
