/**
 * Ink's `widestLine` with a memory of the short texts it has measured. Ink measures every text node again at every
 * render (render-node-to-output.js), and `string-width` walks each line's graphemes with an emoji test per
 * cluster: with ten agents starting, the same few hundred labels and rows were measured at every frame (~14 ms of a
 * 46 ms key wait, docs/benchmarks.md). The build gives this module to Ink's files in place of `widest-line`
 * (scripts/build.mjs); its answer is the package's own, remembered (remembered-by-text.ts).
 */
import widestLine from "widest-line";
import { rememberedByText } from "./remembered-by-text.js";

export default rememberedByText(widestLine);
