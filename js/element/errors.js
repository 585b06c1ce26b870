// The ChatDisplayError the element makes on the JavaScript side, for the element and its module
// loader (input.js, the reader `load` fetches as a chunk of its own, has its own copy).

/** A ChatDisplayError made on the JavaScript side, shaped as the module's own. */
export function chatDisplayError(code, path, message) {
  const error = new Error(message);
  error.name = "ChatDisplayError";
  error.code = code;
  error.path = path;
  return error;
}
