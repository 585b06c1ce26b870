#!/usr/bin/env node
// Writes the JavaScript-ecosystem input fixtures with the real libraries:
//
//   tests/fixtures/ai_sdk_ui/     Vercel AI SDK UI message streams (.sse) and UIMessage[] (.json),
//                                 made by `ai` from recorded provider streams
//   tests/fixtures/langchain_js/  LangChain.js messages in their stored forms, made by @langchain/core
//
// Nothing here reaches the network: every provider request is answered from a recording by the
// `fetch` handed to the provider package. The output is deterministic (fixed ids), so running the
// script twice gives the same bytes.
//
//   node tests/tools/js-inputs.mjs           write the fixtures
//   node tests/tools/js-inputs.mjs --check   regenerate in memory; exit 1 if a file on disk differs
//
// The shapes are described in docs/formats/ai-sdk-ui.md and docs/formats/langchain-js.md.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

import {
  AbstractChat,
  DefaultChatTransport,
  convertToModelMessages,
  createUIMessageStream,
  createUIMessageStreamResponse,
  dynamicTool,
  jsonSchema,
  parseJsonEventStream,
  readUIMessageStream,
  stepCountIs,
  streamText,
  toUIMessageStream,
  tool,
  uiMessageChunkSchema,
  validateUIMessages,
} from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import * as aiV5 from 'ai-v5';
import * as aiV6 from 'ai-v6';

import {
  AIMessage,
  AIMessageChunk,
  HumanMessage,
  SystemMessage,
  ToolMessage,
  addNotificationMetadata,
  coerceMessageLikeToMessage,
  mapChatMessagesToStoredMessages,
  mapStoredMessagesToChatMessages,
} from '@langchain/core/messages';
import { load } from '@langchain/core/load';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const AI_DIR = path.join(ROOT, 'tests/fixtures/ai_sdk_ui');
const LC_DIR = path.join(ROOT, 'tests/fixtures/langchain_js');
const STREAMS = path.join(ROOT, 'tests/fixtures/streams');
const GENERATOR = 'tests/tools/js-inputs.mjs';
const CHECK = process.argv.includes('--check');

const require = createRequire(import.meta.url);
const version = (name) => require(`${name}/package.json`).version;
const V = {
  ai: version('ai'),
  anthropic: version('@ai-sdk/anthropic'),
  openai: version('@ai-sdk/openai'),
  langchain: version('@langchain/core'),
  aiV5: version('ai-v5'),
  aiV6: version('ai-v6'),
};

// ---------------------------------------------------------------------------------------------
// Output: every file goes through `emit`, which writes it or, with --check, compares it.

const outputs = new Map();
function emit(file, text) {
  assert(!outputs.has(file), `written twice: ${file}`);
  outputs.set(file, text);
}
const json = (value) => JSON.stringify(value, null, 2) + '\n';
const rel = (file) => path.relative(ROOT, file);

// ---------------------------------------------------------------------------------------------
// Provider recordings.
//
// `repoRecording` reads one of this repository's provider streams (tests/fixtures/streams/, its
// README says how they were made). `sdkRecording` reads a copy of a recording from the AI SDK's
// repository (packages/<pkg>/src/__fixtures__/<name>.chunks.txt: one provider event per line, as
// recorded from the real API), kept under ai_sdk_ui/recordings/ with its NOTICE, and turns it into
// the SSE body the way the AI SDK's own tests do (`data: <line>\n\n` per line).

function repoRecording(relPath) {
  return { label: `tests/fixtures/streams/${relPath}`, body: fs.readFileSync(path.join(STREAMS, relPath), 'utf8') };
}

// Split a recorded stream that holds several responses into one body per response.
function splitRecording(recording, startEvent) {
  const events = recording.body.split(/\n\n/).filter((e) => e.trim() !== '');
  const bodies = [];
  for (const event of events) {
    if (event.includes(`"type":"${startEvent}"`) || bodies.length === 0) bodies.push([]);
    bodies.at(-1).push(event);
  }
  return bodies.map((b, i) => ({ label: `${recording.label} (response ${i + 1} of ${bodies.length})`, body: b.join('\n\n') + '\n\n' }));
}

// A recording of tests/fixtures/recorded/ (one event a line, as sdkRecording's).
function recordedRecording(relPath) {
  const text = fs.readFileSync(path.join(ROOT, 'tests/fixtures/recorded', relPath), 'utf8');
  const body = text.split('\n').filter((l) => l.trim() !== '').map((l) => `data: ${l}\n\n`).join('');
  return { label: `tests/fixtures/recorded/${relPath}`, body };
}

function sdkRecording(name) {
  const text = fs.readFileSync(path.join(AI_DIR, 'recordings', `${name}.chunks.txt`), 'utf8');
  const body = text.split('\n').filter((l) => l.trim() !== '').map((l) => `data: ${l}\n\n`).join('');
  return { label: `tests/fixtures/ai_sdk_ui/recordings/${name}.chunks.txt`, body };
}

// A `fetch` for the provider package that answers request n with recording n, event by event
// (one SSE event per read, with a macrotask between them, so an abort can land mid-stream).
function recordedFetch(recordings, requests) {
  let next = 0;
  return async (url, init) => {
    const recording = recordings[next++];
    if (recording == null) throw new Error(`no recording left for request ${next} to ${url}`);
    requests.push({ url: String(url), body: JSON.parse(init.body) });
    const events = recording.body.split(/(?<=\n\n)/);
    const signal = init.signal;
    const encoder = new TextEncoder();
    let i = 0;
    const stream = new ReadableStream({
      async pull(controller) {
        await new Promise((resolve) => setImmediate(resolve));
        if (signal?.aborted) {
          controller.error(signal.reason ?? new DOMException('aborted', 'AbortError'));
          return;
        }
        if (i < events.length) controller.enqueue(encoder.encode(events[i++]));
        else controller.close();
      },
    });
    return new Response(stream, { status: 200, headers: { 'content-type': 'text/event-stream' } });
  };
}

// ---------------------------------------------------------------------------------------------
// The client: useChat's own machinery without React. AbstractChat is the class that
// @ai-sdk/react's Chat (useChat) and the Vue / Svelte versions extend; the state below is a plain
// copy of ReactChatState (packages/react/src/chat.react.ts). DefaultChatTransport posts
// {id, messages, trigger, messageId} and reads the SSE answer, as in a browser; its `fetch` calls
// the route handler directly and keeps each response body exactly as sent.

class PlainChatState {
  status = 'ready';
  error = undefined;
  messages;
  constructor(messages = []) { this.messages = messages; }
  pushMessage = (message) => { this.messages = this.messages.concat(message); };
  popMessage = () => { this.messages = this.messages.slice(0, -1); };
  replaceMessage = (index, message) => {
    this.messages = [...this.messages.slice(0, index), this.snapshot(message), ...this.messages.slice(index + 1)];
  };
  snapshot = (value) => structuredClone(value);
}

class Chat extends AbstractChat {
  constructor({ messages, ...init }) { super({ ...init, state: new PlainChatState(messages) }); }
}

function counter(prefix) {
  let n = 0;
  return () => `${prefix}${++n}`;
}

function chatWith(route, { idPrefix }) {
  const bodies = [];
  const errors = [];
  const transport = new DefaultChatTransport({
    api: '/api/chat',
    fetch: async (_url, init) => {
      const request = JSON.parse(init.body);
      const response = await route(request);
      const text = await response.text();
      bodies.push({ text, headers: Object.fromEntries(response.headers) });
      return new Response(text, { status: response.status, headers: response.headers });
    },
  });
  const chat = new Chat({ id: `${idPrefix}chat`, generateId: counter(`${idPrefix}user-`), transport, onError: (e) => errors.push(e.message) });
  return { chat, bodies, errors };
}

// The same UI stream read again with readUIMessageStream (what a server or a test uses to get the
// final message from a stream). Returns the final message and every intermediate snapshot.
async function readStream(sse, { message } = {}) {
  const stream = parseJsonEventStream({ stream: new Response(sse).body, schema: uiMessageChunkSchema }).pipeThrough(
    new TransformStream({ transform(r, c) { if (!r.success) throw r.error; c.enqueue(r.value); } }),
  );
  const snapshots = [];
  const errors = [];
  for await (const m of readUIMessageStream({ stream, message: message && structuredClone(message), onError: (e) => errors.push(String(e.message ?? e)) })) snapshots.push(m);
  return { final: snapshots.at(-1), snapshots, errors };
}

function madeBy(extra) {
  return { generator: GENERATOR, ...extra };
}

// A .sse file is the HTTP body exactly as the route sent it, after one leading SSE comment line
// (`: ...`, which every SSE reader skips) that says how it was made.
function emitSse(name, body, how) {
  emit(path.join(AI_DIR, `${name}.sse`), `: made by ${GENERATOR} with ${how}\n${body}`);
}

function emitMessages(name, messages, made_by, extra = {}) {
  emit(path.join(AI_DIR, `${name}.json`), json({ made_by, ...extra, messages }));
}

const serverCall = (s) => s.replace(/\s+/g, ' ').trim();

// ---------------------------------------------------------------------------------------------
// AI SDK scenarios. Each one runs a route handler (streamText with the provider package, whose
// fetch answers from recordings) behind the chat client, and writes:
//   <name>.sse / <name>.<n>.sse   the UI message stream of each response (x-vercel-ai-ui-message-stream: v1)
//   <name>.json / <name>.<n>.json the chat's UIMessage[] (chat.messages) at the points named
// and checks that readUIMessageStream over each .sse gives the same assistant message.

const aiFixtures = []; // for the v5 / v6 pass and the summary

async function scenario({ name, recordings, libraries, server, makeModel, route, turns }) {
  const requests = [];
  const fetch = recordedFetch(recordings, requests);
  const model = makeModel(fetch);
  // The provider packages make ids for some parts (sources, provider-executed tool calls):
  // give them fixed ones.
  if (model.config) model.config.generateId = counter(`${name}-provider-id-`);
  if ('generateId' in model) model.generateId = counter(`${name}-provider-id-`);
  const { chat, bodies, errors } = chatWith((request) => route(model, request), { idPrefix: '' });
  const made_by = (call, extra) => madeBy({
    libraries: { ai: V.ai, ...libraries },
    provider_recordings: recordings.map((r) => r.label),
    server: serverCall(server),
    client: 'AbstractChat (the class behind useChat) with DefaultChatTransport; the messages are chat.messages',
    call,
    ...extra,
  });
  const written = [];
  for (const [i, turn] of turns.entries()) {
    const n = turns.length > 1 ? `.${i + 1}` : '';
    if (turn.before) {
      await turn.before(chat);
      emitMessages(`${name}${n}.before`, chat.messages, made_by(turn.beforeCall, { note: turn.beforeNote }));
      written.push(`${name}${n}.before.json`);
    }
    const bodyCount = bodies.length;
    const continued = turn.continues ? structuredClone(chat.messages.at(-1)) : undefined;
    await turn.send(chat);
    assert.equal(bodies.length, bodyCount + 1, `${name}: turn ${i + 1} made no request`);
    const body = bodies.at(-1);
    assert.equal(body.headers['x-vercel-ai-ui-message-stream'], 'v1');
    emitSse(`${name}${n}`, body.text, `ai ${V.ai} (${Object.entries(libraries).map(([k, v]) => `${k} ${v}`).join(', ')}), from ${recordings.map((r) => r.label).join(' + ')}`);
    // readUIMessageStream over the bytes gives the chat's assistant message.
    const { final, snapshots } = await readStream(body.text, { message: continued });
    const last = chat.messages.at(-1);
    assert.deepEqual(toPlain(final), toPlain(last), `${name}: readUIMessageStream and the chat disagree on turn ${i + 1}`);
    emitMessages(`${name}${n}`, chat.messages, made_by(turn.call, { ui_stream: `${name}${n}.sse`, note: turn.note }));
    written.push(`${name}${n}.sse`, `${name}${n}.json`);
    aiFixtures.push({ name: `${name}${n}`, sse: body.text, continues: continued, messages: chat.messages });
    if (turn.after) {
      await turn.after(chat);
      emitMessages(`${name}${n}.after`, chat.messages, made_by(turn.afterCall, { note: turn.afterNote }));
      written.push(`${name}${n}.after.json`);
    }
    for (const snap of turn.snapshots ?? []) {
      const found = snapshots.find(snap.when);
      assert(found, `${name}: no snapshot for ${snap.name}`);
      const messages = [...chat.messages.slice(0, -1), found];
      emitMessages(`${name}${n}.${snap.name}`, messages, made_by(`${turn.call}; the assistant message is the readUIMessageStream snapshot ${snap.describe}`, { ui_stream: `${name}${n}.sse` }));
      written.push(`${name}${n}.${snap.name}.json`);
    }
  }
  return { name, written, errors, requests: requests.length };
}

const anthropicModel = (fetch) => createAnthropic({ apiKey: 'sk-ant-test', fetch })('claude-sonnet-4-5');
const openaiModel = (modelId) => (fetch) => createOpenAI({ apiKey: 'sk-test', fetch })(modelId);

function standardRoute({ tools = {}, stopWhen = stepCountIs(1), idPrefix, extra = () => ({}), uiOptions = {} }) {
  const ids = counter(`${idPrefix}gen-`);
  const messageIds = counter(`${idPrefix}assistant-`);
  return async (model, request) => {
    const result = streamText({
      model,
      messages: await convertToModelMessages(request.messages, { tools }),
      tools,
      stopWhen,
      maxRetries: 0, // one recording per request: a retry would find none
      onError: () => {}, // the error reaches the UI stream; do not also log it
      _internal: { generateId: ids },
      ...extra(),
    });
    return createUIMessageStreamResponse({
      stream: toUIMessageStream({ stream: result.stream, tools, sendSources: true, originalMessages: request.messages, generateMessageId: messageIds, ...uiOptions }),
    });
  };
}

async function aiSdkScenarios() {
  const results = [];

  // 1. Parallel tool calls executed on the server: a preliminary output, an output, an error, a
  //    dynamic tool.
  {
    const tools = {
      get_weather: tool({
        description: 'Current weather for a city',
        inputSchema: jsonSchema({ type: 'object', properties: { city: { type: 'string' }, unit: { type: 'string', enum: ['celsius', 'fahrenheit'] } }, required: ['city'] }),
        async *execute({ city, unit }) {
          yield { status: 'looking up', city };
          if (city === 'Berlin') throw new Error('weather service unavailable');
          yield { city, unit, temp_c: 18, sky: 'cloudy' };
        },
      }),
      write_file: dynamicTool({
        description: 'Write a text file',
        inputSchema: jsonSchema({ type: 'object', properties: { path: { type: 'string' }, content: { type: 'string' } }, required: ['path', 'content'] }),
        async execute({ path: p, content }) { return { path: p, bytes: Buffer.byteLength(content) }; },
      }),
    };
    results.push(await scenario({
      name: 'anthropic-parallel-tools',
      recordings: [repoRecording('anthropic_messages/parallel-tool-calls.sse')],
      libraries: { '@ai-sdk/anthropic': V.anthropic },
      makeModel: anthropicModel,
      server: `streamText({model: anthropic('claude-sonnet-4-5'), messages: await convertToModelMessages(messages), tools: {get_weather: tool({execute: async function* (yields {status:'looking up'} as a preliminary output, then the weather; throws 'weather service unavailable' for Berlin)}), write_file: dynamicTool({execute})}, stopWhen: stepCountIs(1)}) → toUIMessageStream({stream: result.stream, tools, sendSources: true, originalMessages: messages, generateMessageId}) → createUIMessageStreamResponse`,
      route: standardRoute({ tools, idPrefix: 'a1-' }),
      turns: [{
        call: "chat.sendMessage({text: 'What is the weather in Paris and Berlin? Save a note too.'})",
        send: (chat) => chat.sendMessage({ text: 'What is the weather in Paris and Berlin? Save a note too.' }),
        snapshots: [
          { name: 'input-streaming', describe: 'taken while the first get_weather input streams', when: (m) => m.parts.some((p) => p.state === 'input-streaming' && p.input && Object.keys(p.input).length > 0) },
          { name: 'preliminary', describe: 'taken when the first get_weather has its preliminary output', when: (m) => m.parts.some((p) => p.state === 'output-available' && p.preliminary === true) },
        ],
      }],
    }));
  }

  // 2. A tool that needs approval, approved; then the second step answers. Two responses of one
  //    recording (reasoning + function call, then the answer).
  {
    const tools = {
      get_weather: tool({
        description: 'Current weather for a city',
        inputSchema: jsonSchema({ type: 'object', properties: { city: { type: 'string' }, unit: { type: 'string' } }, required: ['city'] }),
        needsApproval: true,
        async execute({ city, unit }) { return { city, unit, temp_c: -3, sky: 'light snow' }; },
      }),
    };
    const recordings = splitRecording(repoRecording('openai_responses/two-responses-back-to-back.sse'), 'response.created');
    results.push(await scenario({
      name: 'openai-tool-approval',
      recordings,
      libraries: { '@ai-sdk/openai': V.openai },
      makeModel: openaiModel('gpt-5'),
      server: `streamText({model: openai('gpt-5'), messages: await convertToModelMessages(messages), tools: {get_weather: tool({needsApproval: true, execute})}, stopWhen: stepCountIs(2)}) → toUIMessageStream({stream: result.stream, tools, sendSources: true, originalMessages: messages, generateMessageId}) → createUIMessageStreamResponse`,
      route: standardRoute({ tools, stopWhen: stepCountIs(2), idPrefix: 'a2-' }),
      turns: [
        {
          call: "chat.sendMessage({text: \"What's the weather in Oslo?\"}) (the first response: reasoning and a get_weather call, which waits for approval)",
          send: (chat) => chat.sendMessage({ text: "What's the weather in Oslo?" }),
        },
        {
          before: (chat) => chat.addToolApprovalResponse({ id: approvalIdOf(chat.messages), approved: true, reason: 'fine by me' }),
          beforeCall: "chat.addToolApprovalResponse({id: <the approval id>, approved: true, reason: 'fine by me'})",
          beforeNote: 'the messages the client holds after answering the approval, and sends with the next request',
          continues: true,
          call: 'chat.sendMessage() (the approved call runs on the server, then the second response answers)',
          send: (chat) => chat.sendMessage(),
        },
      ],
    }));
  }

  // 3. Provider-executed MCP tool with provider-side approval, four real responses: asked, denied,
  //    asked again, approved and run.
  {
    const openaiTools = (fetch) => createOpenAI({ apiKey: 'sk-test', fetch });
    let provider;
    const makeModel = (fetch) => { provider = openaiTools(fetch); return provider('gpt-5-mini'); };
    let handler;
    const route = (model, request) => {
      handler ??= standardRoute({ tools: { mcp: provider.tools.mcp({ serverLabel: 'zip1', serverUrl: 'https://zip1.io/mcp', serverDescription: 'Link shortener', requireApproval: 'always' }) }, idPrefix: 'a3-' });
      return handler(model, request);
    };
    results.push(await scenario({
      name: 'openai-mcp-approval',
      recordings: [1, 2, 3, 4].map((i) => sdkRecording(`openai-mcp-tool-approval.${i}`)),
      libraries: { '@ai-sdk/openai': V.openai },
      makeModel,
      server: `streamText({model: openai('gpt-5-mini'), messages: await convertToModelMessages(messages), tools: {mcp: openai.tools.mcp({serverLabel: 'zip1', serverUrl: 'https://zip1.io/mcp', serverDescription: 'Link shortener', requireApproval: 'always'})}, stopWhen: stepCountIs(1)}) → toUIMessageStream(...) → createUIMessageStreamResponse`,
      route: (model, request) => route(model, request),
      turns: [
        { call: "chat.sendMessage({text: 'shorten ai-sdk.dev'})", send: (chat) => chat.sendMessage({ text: 'shorten ai-sdk.dev' }) },
        {
          before: async (chat) => {
            const id = approvalIdOf(chat.messages);
            await chat.addToolApprovalResponse({ id, approved: false });
          },
          beforeCall: 'chat.addToolApprovalResponse({id: <the approval id>, approved: false})',
          beforeNote: 'the messages the client holds after denying, and sends with the next request',
          continues: true,
          call: 'chat.sendMessage() (the model answers the denial)',
          send: (chat) => chat.sendMessage(),
        },
        { call: "chat.sendMessage({text: 'try again'})", send: (chat) => chat.sendMessage({ text: 'try again' }) },
        {
          before: async (chat) => {
            const id = approvalIdOf(chat.messages);
            await chat.addToolApprovalResponse({ id, approved: true });
          },
          beforeCall: 'chat.addToolApprovalResponse({id: <the approval id>, approved: true})',
          beforeNote: 'the messages the client holds after approving, and sends with the next request',
          continues: true,
          call: 'chat.sendMessage() (the provider runs the MCP tool and answers)',
          send: (chat) => chat.sendMessage(),
        },
      ],
    }));
  }

  // 4. Reasoning with a signature, then text (a real Anthropic recording), inside a UI stream the
  //    route writes itself: data parts (one updated by id, one transient) and message metadata.
  {
    const ids = counter('a4-gen-');
    const route = async (model, request) => {
      const stream = createUIMessageStream({
        originalMessages: request.messages,
        generateId: () => 'a4-assistant-1',
        execute: async ({ writer }) => {
          // The start chunk goes first: readUIMessageStream starts a new message (and drops the
          // parts so far) when a start chunk brings a message id it has not seen.
          writer.write({ type: 'start', messageId: 'a4-assistant-1', messageMetadata: { createdAt: '2026-01-01T00:00:00.000Z' } });
          writer.write({ type: 'data-status', id: 'status-1', data: { state: 'thinking' } });
          writer.write({ type: 'data-status', id: 'status-1', data: { state: 'answering' } });
          writer.write({ type: 'data-toast', data: { text: 'Working on it' }, transient: true });
          writer.write({ type: 'data-weather', data: { city: 'Paris', temp_c: 18 } });
          const result = streamText({ model, messages: await convertToModelMessages(request.messages), maxRetries: 0, _internal: { generateId: ids } });
          writer.merge(toUIMessageStream({
            stream: result.stream,
            sendStart: false,
            messageMetadata: ({ part }) => (part.type === 'finish' ? { finishReason: part.finishReason, totalTokens: part.totalUsage?.totalTokens } : undefined),
          }));
          await result.consumeStream();
          writer.write({ type: 'message-metadata', messageMetadata: { model: 'claude-sonnet-4-5' } });
        },
      });
      // keepAliveMs: the response opens with the SSE comment ': stream-open' (and would send
      // ': keep-alive' after a minute without chunks).
      return createUIMessageStreamResponse({ stream, keepAliveMs: 60_000 });
    };
    results.push(await scenario({
      name: 'anthropic-reasoning-data-parts',
      recordings: [sdkRecording('anthropic-clear-thinking.1')],
      libraries: { '@ai-sdk/anthropic': V.anthropic },
      makeModel: anthropicModel,
      server: `createUIMessageStream({originalMessages: messages, generateId, execute: ({writer}) => { writer.write({type: 'start', messageId, messageMetadata: {createdAt}}); writer.write({type: 'data-status', id: 'status-1', data: {state: 'thinking'}}); writer.write({type: 'data-status', id: 'status-1', data: {state: 'answering'}}) (replaces the part with the same id); writer.write({type: 'data-toast', data, transient: true}) (not kept in the message); writer.write({type: 'data-weather', data}); writer.merge(toUIMessageStream({stream: streamText({model: anthropic('claude-sonnet-4-5'), messages}).stream, sendStart: false, messageMetadata: ({part}) => finish: {finishReason, totalTokens}})); then writer.write({type: 'message-metadata', messageMetadata: {model}}) }}) → createUIMessageStreamResponse({stream, keepAliveMs: 60000})`,
      route,
      turns: [{ call: "chat.sendMessage({text: 'And divided by 5?'})", send: (chat) => chat.sendMessage({ text: 'And divided by 5?' }) }],
    }));
  }

  // 5. Provider-executed file search with file citations: source-document parts and the text's
  //    citations.
  results.push(await scenario({
    name: 'openai-file-search-citations',
    recordings: [sdkRecording('openai-file-search-tool.1')],
    libraries: { '@ai-sdk/openai': V.openai },
    makeModel: (fetch) => { const p = createOpenAI({ apiKey: 'sk-test', fetch }); fileSearchProvider = p; return p('gpt-5-mini'); },
    server: `streamText({model: openai('gpt-5-mini'), messages, tools: {fileSearch: openai.tools.fileSearch({vectorStoreIds: ['vs_68caad8bd5d88191ab766cf043d89a18']})}, stopWhen: stepCountIs(1)}) → toUIMessageStream({stream: result.stream, tools, sendSources: true, ...}) → createUIMessageStreamResponse`,
    route: once(() => standardRoute({ tools: { fileSearch: fileSearchProvider.tools.fileSearch({ vectorStoreIds: ['vs_68caad8bd5d88191ab766cf043d89a18'] }) }, idPrefix: 'a5-' })),
    turns: [{ call: "chat.sendMessage({text: 'What is an embedding model, according to the document?'})", send: (chat) => chat.sendMessage({ text: 'What is an embedding model, according to the document?' }) }],
  }));

  // 6. Provider-executed image generation: the image comes back as the tool's output.
  results.push(await scenario({
    name: 'openai-image-generation',
    recordings: [sdkRecording('openai-image-generation-tool.1')],
    libraries: { '@ai-sdk/openai': V.openai },
    makeModel: (fetch) => { const p = createOpenAI({ apiKey: 'sk-test', fetch }); imageProvider = p; return p('gpt-5-nano'); },
    server: `streamText({model: openai('gpt-5-nano'), messages, tools: {generateImage: openai.tools.imageGeneration({outputFormat: 'webp', quality: 'low', size: '1024x1024', partialImages: 2})}}) → toUIMessageStream(...) → createUIMessageStreamResponse`,
    route: once(() => standardRoute({ tools: { generateImage: imageProvider.tools.imageGeneration({ outputFormat: 'webp', quality: 'low', size: '1024x1024', partialImages: 2 }) }, idPrefix: 'a6-' })),
    turns: [{ call: "chat.sendMessage({text: 'Draw a small cat.'})", send: (chat) => chat.sendMessage({ text: 'Draw a small cat.' }) }],
  }));

  // 6b. Anthropic's web search, run by the provider: the search results as source-url parts
  //     after the tool part, before any text, and the texts' own citations (issue 46, class 11).
  {
    let webSearchProvider;
    results.push(await scenario({
      name: 'anthropic-web-search',
      recordings: [recordedRecording('anthropic_messages/anthropic/anthropic-web-search-tool.1.chunks.txt')],
      libraries: { '@ai-sdk/anthropic': V.anthropic },
      makeModel: (fetch) => { const p = createAnthropic({ apiKey: 'sk-ant-test', fetch }); webSearchProvider = p; return p('claude-sonnet-4-5'); },
      server: `streamText({model: anthropic('claude-sonnet-4-5'), messages, tools: {web_search: anthropic.tools.webSearch_20250305({maxUses: 3})}, stopWhen: stepCountIs(1)}) → toUIMessageStream({stream: result.stream, tools, sendSources: true, ...}) → createUIMessageStreamResponse`,
      route: once(() => standardRoute({ tools: { web_search: webSearchProvider.tools.webSearch_20250305({ maxUses: 3 }) }, idPrefix: 'a6b-' })),
      turns: [{ call: "chat.sendMessage({text: 'What is the latest tech news?'})", send: (chat) => chat.sendMessage({ text: 'What is the latest tech news?' }) }],
    }));
  }

  // 6c. An agent run: the model calls tools the server runs, then answers, in one UI message
  //     stream of two steps (issue 46, class 11).
  {
    const tools = {
      get_weather: tool({
        description: 'Current weather for a city',
        inputSchema: jsonSchema({ type: 'object', properties: { city: { type: 'string' }, unit: { type: 'string', enum: ['celsius', 'fahrenheit'] } }, required: ['city'] }),
        async execute({ city, unit }) { return { city, unit, temp_c: 18, sky: 'cloudy' }; },
      }),
      write_file: tool({
        description: 'Write a text file',
        inputSchema: jsonSchema({ type: 'object', properties: { path: { type: 'string' }, content: { type: 'string' } }, required: ['path', 'content'] }),
        async execute({ path: p, content }) { return { path: p, bytes: Buffer.byteLength(content) }; },
      }),
    };
    results.push(await scenario({
      name: 'anthropic-agent',
      recordings: [repoRecording('anthropic_messages/parallel-tool-calls.sse'), repoRecording('anthropic_messages/text-only.sse')],
      libraries: { '@ai-sdk/anthropic': V.anthropic },
      makeModel: anthropicModel,
      server: `streamText({model: anthropic('claude-sonnet-4-5'), messages: await convertToModelMessages(messages), tools: {get_weather: tool({execute}), write_file: tool({execute})}, stopWhen: stepCountIs(3)}) → toUIMessageStream({stream: result.stream, tools, sendSources: true, originalMessages: messages, generateMessageId}) → createUIMessageStreamResponse`,
      route: standardRoute({ tools, stopWhen: stepCountIs(3), idPrefix: 'a6c-' }),
      turns: [{ call: "chat.sendMessage({text: 'Weather in Paris and Berlin, and save it to a file.'})", send: (chat) => chat.sendMessage({ text: 'Weather in Paris and Berlin, and save it to a file.' }) }],
    }));
  }

  // 7. A provider error event in the middle of the text.
  results.push(await scenario({
    name: 'anthropic-error-mid-text',
    recordings: [repoRecording('anthropic_messages/error-mid-text.sse')],
    libraries: { '@ai-sdk/anthropic': V.anthropic },
    makeModel: anthropicModel,
    server: `streamText({model: anthropic('claude-sonnet-4-5'), messages}) → toUIMessageStream({stream: result.stream, ...}) → createUIMessageStreamResponse (the default onError masks the error text)`,
    route: standardRoute({ idPrefix: 'a7-' }),
    turns: [{ call: "chat.sendMessage({text: 'Ideas for the team offsite?'})", send: (chat) => chat.sendMessage({ text: 'Ideas for the team offsite?' }), note: 'the Anthropic overloaded_error arrives after some text; the stream has an error chunk and no finish, and the text part stays state "streaming"' }],
  }));

  // 8. A failed response (insufficient quota) with no content, and an onError that keeps the text.
  results.push(await scenario({
    name: 'openai-error',
    recordings: [sdkRecording('openai-error.1')],
    libraries: { '@ai-sdk/openai': V.openai },
    makeModel: openaiModel('gpt-5'),
    server: `streamText({model: openai('gpt-5'), messages}) → toUIMessageStream({stream: result.stream, onError: (error) => error.message}) → createUIMessageStreamResponse`,
    route: standardRoute({ idPrefix: 'a8-', uiOptions: { onError: (error) => (error instanceof Error ? error.message : String(error)) } }),
    turns: [{ call: "chat.sendMessage({text: 'Hello'})", send: (chat) => chat.sendMessage({ text: 'Hello' }) }],
  }));

  // 9. A tool call whose input fails the tool's schema: tool-input-error, the part in output-error.
  {
    const tools = {
      refreshIssueList: tool({
        description: 'Refresh the issue list of a project',
        inputSchema: jsonSchema(
          { type: 'object', properties: { project: { type: 'string' } }, required: ['project'] },
          { validate: (value) => (typeof value?.project === 'string' ? { success: true, value } : { success: false, error: new Error('project: expected a string, received undefined') }) },
        ),
        async execute() { return { refreshed: true }; },
      }),
    };
    results.push(await scenario({
      name: 'anthropic-invalid-tool-input',
      recordings: [repoRecording('anthropic_messages/tool-no-args.sse')],
      libraries: { '@ai-sdk/anthropic': V.anthropic },
      makeModel: anthropicModel,
      server: `streamText({model: anthropic('claude-sonnet-4-5'), messages, tools: {refreshIssueList: tool({inputSchema: jsonSchema({required: ['project']}, {validate}), execute})}, stopWhen: stepCountIs(1)}) → toUIMessageStream(...) → createUIMessageStreamResponse`,
      route: standardRoute({ tools, idPrefix: 'a9-' }),
      turns: [{ call: "chat.sendMessage({text: 'Refresh the issue list.'})", send: (chat) => chat.sendMessage({ text: 'Refresh the issue list.' }), note: 'the model calls refreshIssueList with {}, which lacks the required "project"' }],
    }));
  }

  // 10. The route aborts the call after three text deltas: an abort chunk.
  results.push(await scenario({
    name: 'anthropic-abort',
    recordings: [repoRecording('anthropic_messages/text-only.sse')],
    libraries: { '@ai-sdk/anthropic': V.anthropic },
    makeModel: anthropicModel,
    server: `streamText({model: anthropic('claude-sonnet-4-5'), messages, abortSignal: controller.signal, onChunk: after the third text delta controller.abort()}) → toUIMessageStream(...) → createUIMessageStreamResponse`,
    route: standardRoute({
      idPrefix: 'a10-',
      extra: () => {
        const controller = new AbortController();
        let deltas = 0;
        return { abortSignal: controller.signal, onChunk: ({ chunk }) => { if (chunk.type === 'text-delta' && ++deltas === 3) controller.abort('stopped by the user'); } };
      },
    }),
    turns: [{ call: "chat.sendMessage({text: 'What is the capital of France?'})", send: (chat) => chat.sendMessage({ text: 'What is the capital of France?' }) }],
  }));

  // 11. A tool without execute (run in the browser): the part waits in input-available until the
  //     client adds its output with addToolOutput.
  {
    const tools = {
      refreshIssueList: tool({
        description: 'Refresh the issue list shown in the browser',
        inputSchema: jsonSchema({ type: 'object', properties: {} }),
      }),
    };
    results.push(await scenario({
      name: 'anthropic-client-tool',
      recordings: [repoRecording('anthropic_messages/tool-no-args.sse')],
      libraries: { '@ai-sdk/anthropic': V.anthropic },
      makeModel: anthropicModel,
      server: `streamText({model: anthropic('claude-sonnet-4-5'), messages, tools: {refreshIssueList: tool({inputSchema}) (no execute: the browser runs it)}, stopWhen: stepCountIs(1)}) → toUIMessageStream(...) → createUIMessageStreamResponse`,
      route: standardRoute({ tools, idPrefix: 'a12-' }),
      turns: [{
        call: "chat.sendMessage({text: 'Refresh the issue list.'})",
        send: (chat) => chat.sendMessage({ text: 'Refresh the issue list.' }),
        after: (chat) => chat.addToolOutput({ tool: 'refreshIssueList', toolCallId: chat.messages.at(-1).parts.find((p) => p.type === 'tool-refreshIssueList').toolCallId, output: { issues: 12, refreshedAt: '2026-01-01T00:00:00.000Z' } }),
        afterCall: "chat.addToolOutput({tool: 'refreshIssueList', toolCallId, output: {issues: 12, refreshedAt}})",
        afterNote: 'the messages after the browser ran the tool; the client would send them with the next request',
      }],
    }));
  }

  // 12. Parts no small recording has: a generated file, a reasoning file, a document source, a
  //     user message with file attachments. The model is the AI SDK's MockLanguageModelV4; the UI
  //     stream and the messages are made by the same machinery as above.
  {
    const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYPj/HwADAgH/eL9GtQAAAABJRU5ErkJggg==';
    const pdf = Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n').toString('base64');
    const chunks = [
      { type: 'stream-start', warnings: [] },
      { type: 'response-metadata', id: 'resp-mock-1', modelId: 'mock-model', timestamp: new Date('2026-01-01T00:00:00Z') },
      { type: 'reasoning-start', id: 'r1' },
      { type: 'reasoning-delta', id: 'r1', delta: 'The user wants the chart redrawn.' },
      { type: 'reasoning-end', id: 'r1' },
      { type: 'reasoning-file', mediaType: 'image/png', data: { type: 'data', data: png } },
      { type: 'source', sourceType: 'document', id: 'doc-1', mediaType: 'application/pdf', title: 'Quarterly report', filename: 'report.pdf' },
      { type: 'source', sourceType: 'url', id: 'src-1', url: 'https://example.com/data', title: 'Example data' },
      { type: 'text-start', id: 't1' },
      { type: 'text-delta', id: 't1', delta: 'Here is the chart, from page 3 of the report.' },
      { type: 'text-end', id: 't1' },
      { type: 'file', mediaType: 'image/png', data: { type: 'data', data: png } },
      { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage: { inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 20, text: 20, reasoning: 0 } } },
    ];
    results.push(await scenario({
      name: 'mock-files-sources',
      recordings: [],
      libraries: {},
      makeModel: () => new MockLanguageModelV4({ doStream: async () => ({ stream: new ReadableStream({ start(c) { for (const x of chunks) c.enqueue(x); c.close(); } }) }) }),
      server: `streamText({model: new MockLanguageModelV4({doStream}) (from 'ai/test'; its stream: reasoning, a reasoning-file (image/png), a document source and a url source, text, a file (image/png)), messages}) → toUIMessageStream({stream: result.stream, sendSources: true, ...}) → createUIMessageStreamResponse`,
      route: standardRoute({ idPrefix: 'a11-' }),
      turns: [{
        call: "chat.sendMessage({text: 'Redraw the chart from this report.', files: [{type: 'file', mediaType: 'image/png', filename: 'chart.png', url: 'data:image/png;base64,...'}, {type: 'file', mediaType: 'application/pdf', filename: 'report.pdf', url: 'data:application/pdf;base64,...'}]})",
        send: (chat) => chat.sendMessage({
          text: 'Redraw the chart from this report.',
          files: [
            { type: 'file', mediaType: 'image/png', filename: 'chart.png', url: `data:image/png;base64,${png}` },
            { type: 'file', mediaType: 'application/pdf', filename: 'report.pdf', url: `data:application/pdf;base64,${pdf}` },
          ],
        }),
      }],
    }));
  }

  return results;
}
let fileSearchProvider;
let imageProvider;

// A route made on its first request (its tools need the provider that makeModel created).
function once(make) {
  let handler;
  return (model, request) => (handler ??= make())(model, request);
}

function approvalIdOf(messages) {
  for (const m of [...messages].reverse()) for (const p of m.parts) if (p.state === 'approval-requested') return p.approval.id;
  throw new Error('no approval request');
}

// ---------------------------------------------------------------------------------------------
// AI SDK 5 and 6: the same UI streams read by the v5 and v6 clients (readUIMessageStream of
// ai-v5 / ai-v6, installed as npm aliases), and every message checked with each version's
// validateUIMessages. A chunk type that the older client does not know fails its chunk schema, so
// the older reader gets the stream without those chunks; the summary lists what was dropped.

async function readWith(lib, sse, message) {
  const known = [];
  const dropped = {};
  const events = sse.split('\n').filter((l) => l.startsWith('data: ') && l !== 'data: [DONE]').map((l) => JSON.parse(l.slice(6)));
  for (const event of events) {
    const r = await validateWith(lib, event);
    if (r.success) known.push(event); else dropped[event.type] = (dropped[event.type] ?? 0) + 1;
  }
  const stream = new ReadableStream({ start(c) { for (const e of known) c.enqueue(e); c.close(); } });
  let last;
  const errors = [];
  for await (const m of lib.readUIMessageStream({ stream, message: message && structuredClone(message), onError: (e) => errors.push(String(e.message ?? e)) })) last = m;
  return { message: last, dropped, errors };
}

async function validateWith(lib, value) {
  // parseJsonEventStream validates with the chunk schema; use it on one event.
  const body = new Response(`data: ${JSON.stringify(value)}\n\n`).body;
  const reader = lib.parseJsonEventStream({ stream: body, schema: lib.uiMessageChunkSchema }).getReader();
  const { value: r } = await reader.read();
  return r;
}

async function validateMessages(lib, messages) {
  try {
    await lib.validateUIMessages({ messages });
    return 'valid';
  } catch (e) {
    // "Type validation failed: Value: <the messages>.\nError message: <why>": keep the why.
    const why = String(e.message).split('Error message:').at(-1).trim();
    return `invalid: ${why.replace(/\s+/g, ' ').slice(0, 400)}`;
  }
}

async function olderVersions() {
  const rows = [];
  const samples = {};
  for (const f of aiFixtures) {
    const row = { fixture: `${f.name}.sse`, v7_messages_valid_in: {} };
    for (const [label, lib] of [['v5', aiV5], ['v6', aiV6], ['v7', { validateUIMessages }]]) {
      row.v7_messages_valid_in[label] = await validateMessages(lib, f.messages);
    }
    for (const [label, lib] of [['v5', aiV5], ['v6', aiV6]]) {
      const { message, dropped, errors } = await readWith(lib, f.sse, f.continues);
      row[`${label}_client`] = { chunk_types_not_in_its_schema: dropped, stream_errors: errors, message_valid_in_its_own_validateUIMessages: await validateMessages(lib, [...f.messages.slice(0, -1), message]) };
      samples[`${label}:${f.name}`] = message;
    }
    rows.push(row);
  }
  return { rows, samples };
}

function emitOlderVersionFixtures({ rows, samples }) {
  const made = (label, lib) => madeBy({
    libraries: { ai: lib, note: `the ${label} client: npm alias ai-${label} of ai@${lib}` },
    call: `for each v7 UI stream above: parse its events, keep those that ai@${lib}'s uiMessageChunkSchema accepts, readUIMessageStream (ai@${lib}) over them; the message is the last snapshot`,
  });
  const pick = ['anthropic-parallel-tools', 'openai-tool-approval.2', 'openai-mcp-approval.4', 'anthropic-reasoning-data-parts', 'openai-file-search-citations', 'mock-files-sources'];
  for (const [label, lib] of [['v5', V.aiV5], ['v6', V.aiV6]]) {
    const messages = {};
    for (const name of pick) messages[name] = samples[`${label}:${name}`];
    emit(path.join(AI_DIR, `older-clients.${label}.json`), json({ made_by: made(label, lib), messages_by_fixture: messages }));
  }
  emit(path.join(AI_DIR, 'older-clients.summary.json'), json({
    made_by: madeBy({
      libraries: { ai: V.ai, 'ai-v5': `ai@${V.aiV5}`, 'ai-v6': `ai@${V.aiV6}` },
      call: 'for every .sse here: which chunk types the v5 / v6 chunk schema rejects, the v5 / v6 readUIMessageStream over the rest, and validateUIMessages of each version over the v7 chat.messages and over the older client\'s own message',
    }),
    rows,
  }));
}

// ---------------------------------------------------------------------------------------------
// Hand-written v5 and v6 histories: the shapes those versions persist (see
// docs/formats/ai-sdk-ui.md, "Versions"), checked with each version's own validateUIMessages.

async function handWrittenHistories() {
  const v5 = [
    { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Weather in Paris and Berlin?' }] },
    {
      id: 'a1', role: 'assistant', metadata: { model: 'gpt-5' },
      parts: [
        { type: 'step-start' },
        { type: 'reasoning', text: 'Two cities, two calls.', state: 'done', providerMetadata: { openai: { itemId: 'rs_1' } } },
        { type: 'tool-get_weather', toolCallId: 'call_1', state: 'output-available', input: { city: 'Paris' }, output: { temp_c: 18 } },
        { type: 'tool-get_weather', toolCallId: 'call_2', state: 'output-error', input: { city: 'Berlin' }, errorText: 'weather service unavailable' },
        { type: 'dynamic-tool', toolName: 'lookup', toolCallId: 'call_3', state: 'input-available', input: { q: 'x' } },
        { type: 'step-start' },
        { type: 'text', text: 'Paris is 18 °C; Berlin failed.', state: 'done' },
        { type: 'source-url', sourceId: 's1', url: 'https://example.com/weather', title: 'Weather' },
        { type: 'data-weather', id: 'w1', data: { city: 'Paris', temp_c: 18 } },
      ],
    },
  ];
  const v6 = [
    { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Delete the old build folder.' }] },
    {
      id: 'a1', role: 'assistant',
      parts: [
        { type: 'step-start' },
        { type: 'tool-delete_path', toolCallId: 'call_1', state: 'approval-requested', input: { path: 'build/' }, approval: { id: 'appr_1' } },
        { type: 'tool-delete_path', toolCallId: 'call_2', state: 'approval-responded', input: { path: 'dist/' }, approval: { id: 'appr_2', approved: true } },
        { type: 'tool-delete_path', toolCallId: 'call_3', state: 'output-denied', input: { path: '/' }, approval: { id: 'appr_3', approved: false, reason: 'never' } },
        { type: 'tool-delete_path', toolCallId: 'call_4', state: 'output-available', input: { path: 'tmp/' }, output: { deleted: 3 }, approval: { id: 'appr_4', approved: true } },
        { type: 'dynamic-tool', toolName: 'mcp.search', toolCallId: 'call_5', state: 'output-available', input: { q: 'x' }, output: { hits: 1 }, providerExecuted: true, title: 'Search' },
      ],
    },
  ];
  const results = {};
  for (const [name, messages] of [['v5', v5], ['v6', v6]]) {
    results[name] = {};
    for (const [label, lib] of [['v5', aiV5], ['v6', aiV6], ['v7', { validateUIMessages }]]) results[name][label] = await validateMessages(lib, messages);
    emit(path.join(AI_DIR, `hand-written.${name}.json`), json({
      made_by: madeBy({
        libraries: { 'ai-v5': `ai@${V.aiV5}`, 'ai-v6': `ai@${V.aiV6}`, ai: V.ai },
        call: `written by hand in the ${name} types (ai@${name === 'v5' ? V.aiV5 : V.aiV6}); validateUIMessages of each version: ${JSON.stringify(results[name])}`,
      }),
      validation: results[name],
      messages,
    }));
  }
  return results;
}

// ---------------------------------------------------------------------------------------------
// LangChain.js: messages built with @langchain/core's classes, and their stored forms.

function lcMade(call) {
  return madeBy({ libraries: { '@langchain/core': V.langchain }, call });
}

function langchainConversations() {
  // A conversation in LangChain's classic shape: string and block content, tool_calls, results.
  const weather = [
    new SystemMessage({ content: 'You are a weather assistant.', id: 'sys-1' }),
    new HumanMessage({ content: "What's the weather in Paris and Berlin?", id: 'human-1' }),
    new AIMessage({
      id: 'run-ai-1',
      content: 'Let me check both cities.',
      tool_calls: [
        { id: 'call_paris', name: 'get_weather', args: { city: 'Paris' }, type: 'tool_call' },
        { id: 'call_berlin', name: 'get_weather', args: { city: 'Berlin' }, type: 'tool_call' },
      ],
      usage_metadata: { input_tokens: 50, output_tokens: 30, total_tokens: 80 },
      response_metadata: { model_name: 'gpt-4o', finish_reason: 'tool_calls' },
    }),
    new ToolMessage({ content: '{"temp_c":18,"sky":"cloudy"}', tool_call_id: 'call_paris', name: 'get_weather', status: 'success', id: 'tool-1' }),
    new ToolMessage({ content: 'Error: weather service unavailable', tool_call_id: 'call_berlin', name: 'get_weather', status: 'error', artifact: { code: 503 }, id: 'tool-2' }),
    new AIMessage({ content: "Paris is 18 °C and cloudy; I couldn't get Berlin's weather.", id: 'run-ai-2' }),
  ];

  // Content blocks: a user message with an image and a file, v1 standard blocks (made with
  // `contentBlocks`), Anthropic-native blocks, a streamed answer (AIMessageChunk concat), an
  // invalid tool call, a notification, an OpenAI Responses-style answer with annotations.
  const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYPj/HwADAgH/eL9GtQAAAABJRU5ErkJggg==';
  const chunks = [
    new AIMessageChunk({ id: 'run-ai-stream', content: 'The ', response_metadata: { model_provider: 'openai' } }),
    new AIMessageChunk({ content: 'chart shows ', tool_call_chunks: [{ id: 'call_zoom', name: 'zoom', args: '{"fac', index: 0, type: 'tool_call_chunk' }] }),
    new AIMessageChunk({ content: 'growth.', tool_call_chunks: [{ args: 'tor": 2}', index: 0, type: 'tool_call_chunk' }], usage_metadata: { input_tokens: 10, output_tokens: 5, total_tokens: 15 } }),
  ];
  const streamed = chunks.reduce((a, b) => a.concat(b));
  const blocks = [
    new HumanMessage({
      id: 'human-2',
      content: [
        { type: 'text', text: 'What does this chart show? The report is attached.' },
        { type: 'image', mimeType: 'image/png', data: png },
        { type: 'file', mimeType: 'application/pdf', url: 'https://example.com/report.pdf', metadata: { filename: 'report.pdf' } },
        { type: 'image_url', image_url: { url: 'https://example.com/chart.png' } },
      ],
    }),
    new AIMessage({
      id: 'run-ai-v1',
      contentBlocks: [
        { type: 'reasoning', reasoning: 'The chart is a bar chart of revenue.' },
        { type: 'text', text: 'Revenue grew 12% [1].', annotations: [{ type: 'citation', url: 'https://example.com/report.pdf', title: 'Report', startIndex: 0, endIndex: 20, citedText: 'revenue grew by 12%' }] },
        { type: 'tool_call', id: 'call_plot', name: 'plot', args: { kind: 'bar' } },
      ],
    }),
    new ToolMessage({ id: 'tool-3', tool_call_id: 'call_plot', content: [{ type: 'text', text: 'plotted' }, { type: 'image', mimeType: 'image/png', data: png }], status: 'success' }),
    new AIMessage({
      id: 'msg_anthropic_1',
      content: [
        { type: 'thinking', thinking: 'Check the page first.', signature: 'sig_abc' },
        { type: 'text', text: 'Page 3 says 12%.', citations: [{ type: 'page_location', cited_text: 'revenue grew by 12%', document_index: 0, document_title: 'Report', start_page_number: 3, end_page_number: 4 }] },
        { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'revenue 2025' } },
        { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_1', content: [{ type: 'web_search_result', url: 'https://example.com/revenue', title: 'Revenue 2025', encrypted_content: 'EqQBCioIAhgB', page_age: null }] },
        { type: 'tool_use', id: 'toolu_1', name: 'plot', input: { kind: 'line' } },
      ],
      tool_calls: [{ id: 'toolu_1', name: 'plot', args: { kind: 'line' }, type: 'tool_call' }],
      response_metadata: { model_provider: 'anthropic', model_name: 'claude-sonnet-4-5', stop_reason: 'tool_use' },
    }),
    // The OpenAI Responses shape that @langchain/core's openai translator reads
    // (convertToV1FromResponses): text blocks with annotations in content, the reasoning summary
    // in additional_kwargs.reasoning.
    new AIMessage({
      id: 'resp_openai_1',
      content: [
        { type: 'text', text: 'It rained in Paris [1].', annotations: [{ type: 'url_citation', url: 'https://example.com/paris', title: 'Paris weather', start_index: 20, end_index: 23 }] },
      ],
      additional_kwargs: { reasoning: { id: 'rs_1', type: 'reasoning', summary: [{ type: 'summary_text', text: 'Search, then answer.' }] } },
      response_metadata: { model_provider: 'openai', model_name: 'gpt-5' },
    }),
    streamed,
    new AIMessage({ id: 'run-ai-bad', content: '', invalid_tool_calls: [{ id: 'call_bad', name: 'get_weather', args: '{"city": "Par', error: 'Malformed args.', type: 'invalid_tool_call' }] }),
    addNotificationMetadata(new HumanMessage({ id: 'human-note', content: 'Background task t_42 finished.' }), { source: 'async_subagent', data: { task_id: 't_42', status: 'success' } }),
  ];
  return { weather, blocks, chunks };
}

// What a class instance holds, for comparing what a stored form reads back as.
function describeInstance(m) {
  const out = { class: m.constructor.name, type: m.type, id: m.id ?? null, content: m.content };
  if (m.tool_calls?.length) out.tool_calls = m.tool_calls;
  if (m.invalid_tool_calls?.length) out.invalid_tool_calls = m.invalid_tool_calls;
  if (m.tool_call_id != null) out.tool_call_id = m.tool_call_id;
  if (m.status != null) out.status = m.status;
  if (m.name != null) out.name = m.name;
  out.contentBlocks = m.contentBlocks;
  out.text = m.text;
  return out;
}

const toPlain = (value) => JSON.parse(JSON.stringify(value));

async function langchainFixtures() {
  const { weather, blocks, chunks } = langchainConversations();
  const summary = {};
  for (const [name, messages, what] of [
    ['weather', weather, 'SystemMessage, HumanMessage, AIMessage with tool_calls and usage_metadata, ToolMessage status "success", ToolMessage status "error" with an artifact, AIMessage'],
    ['content-blocks', blocks, 'HumanMessage with text / image (base64) / file (url) / image_url blocks; AIMessage made with `contentBlocks` (v1 standard reasoning, text with a citation annotation, tool_call); ToolMessage with text and image blocks; AIMessage with Anthropic-native thinking / text with citations / server_tool_use / web_search_tool_result / tool_use and model_provider "anthropic"; AIMessage in the OpenAI Responses shape (text with url_citation annotations, additional_kwargs.reasoning) and model_provider "openai"; the concat of three AIMessageChunks (text and tool_call_chunks); AIMessage with invalid_tool_calls; HumanMessage marked with addNotificationMetadata'],
  ]) {
    const serialized = toPlain(messages.map((m) => m.toJSON()));
    emit(path.join(LC_DIR, `${name}.serialized.json`), json({ made_by: lcMade(`[${what}].map((m) => m.toJSON()), then JSON.stringify`), messages: serialized }));

    const stored = toPlain(mapChatMessagesToStoredMessages(messages));
    emit(path.join(LC_DIR, `${name}.stored.json`), json({ made_by: lcMade(`mapChatMessagesToStoredMessages([${what}]), then JSON.stringify`), messages: stored }));

    // What LangChain itself reads back from each stored form (the instances, described).
    const fromStored = mapStoredMessagesToChatMessages(stored).map(describeInstance);
    const fromSerialized = serialized.map((s) => describeInstance(coerceMessageLikeToMessage(s)));
    const fromLoad = (await load(JSON.stringify(serialized))).map(describeInstance);
    const original = messages.map(describeInstance);
    emit(path.join(LC_DIR, `${name}.read-back.json`), json({
      made_by: lcMade("for each message: the instance as built; mapStoredMessagesToChatMessages(<the .stored.json messages>); coerceMessageLikeToMessage(<each .serialized.json message>); load(<the .serialized.json messages as JSON text>) from '@langchain/core/load'; each described as {class, type, id, content, tool_calls, invalid_tool_calls, tool_call_id, status, name, contentBlocks, text}"),
      original: toPlain(original),
      from_stored: toPlain(fromStored),
      from_serialized_coerce: toPlain(fromSerialized),
      from_serialized_load: toPlain(fromLoad),
    }));
    const differs = (other) => original.map((o, i) => (JSON.stringify(toPlain(o)) !== JSON.stringify(toPlain(other[i])) ? i : null)).filter((i) => i != null);
    summary[name] = { stored_read_back_differs: differs(fromStored), coerce_read_back_differs: differs(fromSerialized), load_read_back_differs: differs(fromLoad) };
  }

  // The chunks themselves, serialized (what a stream of AIMessageChunks stores).
  emit(path.join(LC_DIR, 'chunks.serialized.json'), json({
    made_by: lcMade('three AIMessageChunks (text and tool_call_chunks, the last with usage_metadata) .map((c) => c.toJSON()), and their concat a.concat(b).concat(c).toJSON()'),
    chunks: toPlain(chunks.map((c) => c.toJSON())),
    concat: toPlain(chunks.reduce((a, b) => a.concat(b)).toJSON()),
  }));

  // Plain objects, as apps and LangGraph APIs send them: which ones coerceMessageLikeToMessage
  // accepts, and what it makes of them.
  const plain = [
    { type: 'system', content: 'You are a weather assistant.' },
    { type: 'human', content: "What's the weather in Paris?", id: 'h1' },
    { type: 'ai', content: '', id: 'a1', tool_calls: [{ id: 'call_paris', name: 'get_weather', args: { city: 'Paris' } }] },
    { type: 'tool', content: '{"temp_c":18}', tool_call_id: 'call_paris', name: 'get_weather', status: 'success' },
    { type: 'tool', content: 'Error: timeout', tool_call_id: 'call_x', status: 'error' },
    { type: 'ai', content: [{ type: 'text', text: 'It is 18 °C.' }], id: 'a2' },
    { role: 'user', content: 'Thanks!' },
    { role: 'assistant', content: 'You are welcome.', tool_calls: [{ id: 'call_openai', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Rome"}' } }] },
    { role: 'tool', content: '{"temp_c":25}', tool_call_id: 'call_openai' },
    { role: 'developer', content: 'Answer briefly.' },
    { role: 'system', content: 'Be kind.' },
    { type: 'user', content: 'type "user" is accepted too' },
    { type: 'assistant', content: 'and type "assistant"' },
    { type: 'tool', content: 'a tool message without tool_call_id' },
    { type: 'AIMessageChunk', content: 'a chunk type name' },
    { type: 'generic', role: 'narrator', content: 'a ChatMessage' },
    { role: 'function', name: 'f', content: 'legacy function message' },
    { type: 'remove', id: 'h1' },
    ['human', 'a [type, content] tuple'],
    ['ai', 'an ai tuple'],
  ];
  const coerced = plain.map((p) => {
    try {
      const m = coerceMessageLikeToMessage(p);
      return { input: p, accepted: true, result: toPlain(describeInstance(m)), serialized: toPlain(m.toJSON()) };
    } catch (e) {
      return { input: p, accepted: false, error: String(e.message).split('\n')[0] };
    }
  });
  emit(path.join(LC_DIR, 'plain.json'), json({
    made_by: lcMade('plain objects (type / role variants, OpenAI-style tool_calls, tuples) passed one by one to coerceMessageLikeToMessage; accepted ones described and serialized again with toJSON(); the first six form a plain-object conversation'),
    messages: plain.slice(0, 6),
    coerced,
  }));

  // The trap: an AIMessage made with `contentBlocks` serializes as `content_blocks` with no
  // `content`, and the stored form reads back empty.
  const trap = new AIMessage({ id: 'run-trap', contentBlocks: [{ type: 'text', text: 'Made with contentBlocks.' }, { type: 'tool_call', id: 'call_t', name: 'noop', args: {} }] });
  const trapSerialized = toPlain(trap.toJSON());
  const trapStored = toPlain(mapChatMessagesToStoredMessages([trap]));
  const trapBack = mapStoredMessagesToChatMessages(trapStored)[0];
  const trapCoerced = coerceMessageLikeToMessage(trapSerialized);
  const trapLoaded = await load(JSON.stringify(trapSerialized));
  emit(path.join(LC_DIR, 'content-blocks-trap.json'), json({
    made_by: lcMade("new AIMessage({id: 'run-trap', contentBlocks: [text, tool_call]}); its toJSON(), mapChatMessagesToStoredMessages, and what mapStoredMessagesToChatMessages, coerceMessageLikeToMessage and load (from '@langchain/core/load') read back"),
    instance: toPlain(describeInstance(trap)),
    serialized: trapSerialized,
    stored: trapStored,
    stored_read_back: toPlain(describeInstance(trapBack)),
    serialized_read_back_coerce: toPlain(describeInstance(trapCoerced)),
    serialized_read_back_load: toPlain(describeInstance(trapLoaded)),
  }));
  summary.trap = {
    serialized_kwargs_keys: Object.keys(trapSerialized.kwargs),
    stored_data_keys: Object.keys(trapStored[0].data),
    stored_read_back_content: toPlain(trapBack.content),
    stored_read_back_tool_calls: toPlain(trapBack.tool_calls),
    serialized_coerce_read_back_content: toPlain(trapCoerced.content),
    serialized_load_read_back_content: toPlain(trapLoaded.content),
  };
  return summary;
}

// ---------------------------------------------------------------------------------------------

function notice() {
  return `The files in recordings/ are copies of test fixtures from the Vercel AI SDK,
https://github.com/vercel/ai, recorded by its authors from the real provider APIs:

  recordings/openai-mcp-tool-approval.{1,2,3,4}.chunks.txt
      packages/openai/src/responses/__fixtures__/openai-mcp-tool-approval.{1,2,3,4}.chunks.txt
  recordings/openai-image-generation-tool.1.chunks.txt
      packages/openai/src/responses/__fixtures__/openai-image-generation-tool.1.chunks.txt
  recordings/openai-error.1.chunks.txt
      packages/openai/src/responses/__fixtures__/openai-error.1.chunks.txt
  recordings/openai-file-search-tool.1.chunks.txt
      packages/openai/src/responses/__fixtures__/openai-file-search-tool.1.chunks.txt
  recordings/anthropic-clear-thinking.1.chunks.txt
      packages/anthropic/src/__fixtures__/anthropic-clear-thinking.1.chunks.txt

copied unchanged from the repository at commit ed857f50f112e23930b0c2dd8d532cc8bebbc911
(the "Version Packages" commit of ai 7.0.77).

Copyright 2023 Vercel, Inc. Licensed under the Apache License, Version 2.0 (the "License"); you
may not use these files except in compliance with the License. You may obtain a copy of the
License at http://www.apache.org/licenses/LICENSE-2.0. Unless required by applicable law or
agreed to in writing, software distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the
specific language governing permissions and limitations under the License.

The other files in this folder (.sse, .json) are output of the AI SDK (ai, @ai-sdk/anthropic,
@ai-sdk/openai; Apache-2.0) run by tests/tools/js-inputs.mjs over these recordings and over this
repository's own provider streams (tests/fixtures/streams/); each says in its first line or its
"made_by" field how it was made.
`;
}

async function main() {
  const aiResults = await aiSdkScenarios();
  emitOlderVersionFixtures(await olderVersions());
  const handWritten = await handWrittenHistories();
  const lcSummary = await langchainFixtures();
  emit(path.join(AI_DIR, 'NOTICE'), notice());

  let changed = 0;
  for (const [file, text] of outputs) {
    const old = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : null;
    if (old === text) continue;
    changed++;
    if (CHECK) console.error(`differs: ${rel(file)}`);
    else { fs.mkdirSync(path.dirname(file), { recursive: true }); fs.writeFileSync(file, text); }
  }
  const known = new Set(outputs.keys());
  for (const dir of [AI_DIR, LC_DIR]) {
    for (const f of fs.readdirSync(dir)) {
      const full = path.join(dir, f);
      if (fs.statSync(full).isFile() && !known.has(full)) console.error(`not made by this script: ${rel(full)}`);
    }
  }
  console.log(JSON.stringify({ versions: V, scenarios: aiResults.map((r) => ({ name: r.name, files: r.written.length, requests: r.requests, chat_errors: r.errors })), handWritten, langchain: lcSummary }, null, 2));
  console.log(`${outputs.size} files, ${changed} ${CHECK ? 'differ' : 'written'}`);
  if (CHECK && changed > 0) process.exit(1);
}

await main();
