/**
 * Ink's `sanitizeAnsi` (which keeps a text's SGR and OSC sequences and drops the rest) with a memory of the short
 * texts it has cleaned. Ink cleans every text node at every render and layout, once per level of nested <Text>
 * (squash-text-nodes.js), and a styled label is tokenized each time: with ten agents starting, the same rows again
 * at every frame. The build gives this module to Ink's squash-text-nodes.js in place of its own (scripts/build.mjs);
 * its answer is Ink's, remembered (remembered-by-text.ts).
 */
import sanitizeAnsi from "../../../node_modules/ink/build/sanitize-ansi.js";
import { rememberedByText } from "./remembered-by-text.js";

export default rememberedByText(sanitizeAnsi);
