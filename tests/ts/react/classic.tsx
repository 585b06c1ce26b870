/** @jsxRuntime classic */
/** @jsx React.createElement */
// The classic JSX transform looks up React.JSX through React.createElement rather than through
// react/jsx-runtime: <chat-transcript> is typed there too.
import * as React from "react";
import "chat-display/element";

export const shown = <chat-transcript theme="light" oncd-toggle={(event) => console.log(event.detail.open)} />;
// @ts-expect-error: no such theme
export const wrong = <chat-transcript theme="sepia" />;
