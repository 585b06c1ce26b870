import { createApp } from "vue";
import App from "./App";
import "./index.css";

createApp(App).mount("#app");
