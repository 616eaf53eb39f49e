/**
 * Ink's `widestLine` with a memory of the short texts it has measured. Ink measures every text node again at every
 * render (render-node-to-output.js), and `string-width` walks each line's graphemes with an emoji test per
 * cluster: with ten agents starting, the same few hundred labels and rows were measured at every frame (~14 ms of a
 * 46 ms key wait, docs/benchmarks.md). The build gives this module to Ink's files in place of `widest-line`
 * (scripts/build.mjs); its answer is the package's own, remembered. Long texts (an answer as it streams) change at
 * every render and are measured each time.
 */
import widestLine from "widest-line";

/** Texts longer than this are not remembered: they are seldom measured twice, and would hold memory. */
const LONGEST_REMEMBERED = 512;
/** The memory is emptied when it holds this many texts (a long session shows many more than a frame does). */
const MOST_REMEMBERED = 4096;

const widths = new Map<string, number>();

export default function rememberedWidestLine(text: string): number {
  if (text.length > LONGEST_REMEMBERED) return widestLine(text);
  const known = widths.get(text);
  if (known !== undefined) return known;
  const width = widestLine(text);
  if (widths.size >= MOST_REMEMBERED) widths.clear();
  widths.set(text, width);
  return width;
}
