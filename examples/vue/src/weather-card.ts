// The app's own card for a get_weather call and its result: <chat-transcript> shows it in place of
// its default tool row (renderers["tool:get_weather"] in App.ts). The element inserts the Node as
// given, so every string taken from a record (the model's arguments, the tool's output) goes in as
// textContent, never as HTML.
import type { RecordOf, RenderContext } from "chat-display/element";

export function weatherCard(record: RecordOf<"tool_call">, { results, streaming }: RenderContext): HTMLElement {
  const args = record.content.arguments;
  const city = typeof args === "object" && args !== null && !Array.isArray(args) && typeof args.city === "string" ? args.city : "…";
  const result = results.find((r) => r.content_type === "tool_result");

  const card = document.createElement("section");
  card.className = "weather-card";
  // Inside the element's shadow root: the page styles it as chat-transcript::part(weather-card).
  card.setAttribute("part", "weather-card");
  const title = document.createElement("strong");
  title.textContent = `Weather in ${city}`;
  const body = document.createElement("p");
  body.textContent = result ? result.content.content : streaming ? "Asking…" : "No answer yet.";
  card.append(title, body);
  return card;
}
