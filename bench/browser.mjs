// The Chromium side of `npm run bench`: runs the cases with the browser build and hands the rows to
// the Node runner, which drives this page through playwright-core.
import init, * as cd from "chat-display";
import { Bench } from "tinybench";
import { objectApiRatio, runAll } from "./cases.mjs";

window.runBench = async (options) => {
  await init();
  return runAll(cd, Bench, options);
};
window.objectApiRatio = async (options) => {
  await init();
  return objectApiRatio(cd, options);
};
window.benchReady = true;
