#!/usr/bin/env node
// Writes tests/fixtures/streams/ai_sdk_ui/ from tests/fixtures/ai_sdk_ui/ (which
// tests/tools/js-inputs.mjs made with the AI SDK itself), in the layout of the other stream
// fixtures (tests/fixtures/streams/README.md): each UI stream (.sse) as it is, and beside it
//
//   <name>.final.json   the final assistant UIMessage the AI SDK built from the stream, as one body
//                       per step (split at its step-start parts), since the accumulator streams
//                       each step into a body of its own (src/providers/ai_sdk_ui/stream.rs); the
//                       message's metadata on the last
//   <name>.expect.json  for a stream that has no final body of its own: one with an `error` chunk
//                       (its error record is not in any message), or one that continues the
//                       message of an earlier response (an approval answered)
//
//   node tests/tools/ai-sdk-ui-streams.mjs

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures');
const from = path.join(root, 'ai_sdk_ui');
const to = path.join(root, 'streams', 'ai_sdk_ui');
fs.mkdirSync(to, { recursive: true });

for (const file of fs.readdirSync(from).filter((f) => f.endsWith('.sse')).sort()) {
  const name = file.slice(0, -'.sse'.length);
  const sse = fs.readFileSync(path.join(from, file), 'utf8');
  fs.writeFileSync(path.join(to, file), sse);
  const chunks = sse.split('\n').filter((l) => l.startsWith('data: {')).map((l) => JSON.parse(l.slice(6)));
  const before = fs.existsSync(path.join(from, `${name}.before.json`));
  const error = chunks.find((c) => c.type === 'error');
  if (error || before) {
    const note = error
      ? `an error chunk (${JSON.stringify(error.errorText)}): its error record follows the records of the message`
      : `continues the message of ${name}.before.json (an answered approval): its first output is for a call of the earlier response`;
    fs.writeFileSync(path.join(to, `${name}.expect.json`), JSON.stringify({ messages: 1, note }, null, 2) + '\n');
    continue;
  }
  const { messages } = JSON.parse(fs.readFileSync(path.join(from, `${name}.json`), 'utf8'));
  const message = messages.at(-1);
  const bodies = [];
  for (const part of message.parts) {
    if (part.type === 'step-start' || bodies.length === 0) {
      bodies.push({ id: message.id, role: message.role, parts: [] });
    }
    bodies.at(-1).parts.push(part);
  }
  if (bodies.length === 0) bodies.push({ id: message.id, role: message.role, parts: [] });
  // The message's metadata, merged from every chunk that carried some, is the last step's.
  if (message.metadata !== undefined) bodies.at(-1).metadata = message.metadata;
  fs.writeFileSync(path.join(to, `${name}.final.json`), JSON.stringify(bodies.length === 1 ? bodies[0] : bodies, null, 2) + '\n');
}
