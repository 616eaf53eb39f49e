/**
 * Where a streaming Markdown text can be cut so the part before never changes again: after a blank line
 * that is outside a code fence. The finished part moves to <Static>; only the tail is re-rendered per delta.
 */
export function findSafeSplit(text: string): number {
  let inFence = false;
  let fence = "";
  let split = 0;
  let offset = 0;
  const lines = text.split("\n");
  for (let index = 0; index < lines.length - 1; index++) {
    const line = lines[index] as string;
    offset += line.length + 1;
    const marker = /^\s{0,3}(```+|~~~+)/.exec(line)?.[1];
    if (marker) {
      if (!inFence) {
        inFence = true;
        fence = marker;
      } else if (marker.startsWith(fence[0] as string) && marker.length >= fence.length) {
        inFence = false;
      }
      continue;
    }
    // A blank line that ends a paragraph (and is followed by at least the start of the next line).
    if (!inFence && line.trim() === "" && index > 0) split = offset;
  }
  return split;
}
