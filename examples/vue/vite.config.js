import { defineConfig } from "vite";
import vue from "@vitejs/plugin-vue";

// The app renders <chat-transcript> with h() (src/App.ts); isCustomElement is what a .vue template
// using it needs, so that Vue leaves the tag to the browser instead of resolving a component.
export default defineConfig({
  plugins: [vue({ template: { compilerOptions: { isCustomElement: (tag) => tag === "chat-transcript" } } })],
});
