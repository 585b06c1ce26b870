import "chat-display/element";
import { records } from "./records.js";

export default function App() {
  return <chat-transcript records={records} />;
}
