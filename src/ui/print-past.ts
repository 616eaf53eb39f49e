/**
 * A resumed session's past, printed straight into the terminal's scrollback instead of through Ink's
 * <Static>. Static lays every item out with yoga and rebuilds it cell by cell (~0.6 ms per item, ~250 ms
 * for the 400-item tail of a long session, measured with --cpu-prof); the items are already wrapped to the
 * width by historyItemLines, so writing their lines is all that is needed (~0.15 ms per item). The lines
 * are built in slices with a yield between them so keys typed meanwhile reach the composer.
 */
import type { AgentMode, SessionEvent } from "../protocol/events/index.js";
import { historyItemLines } from "./components/history-item-lines.js";
import { MarkedNotLoadedError, preloadMarkdown, withoutMarked } from "./markdown/render-markdown.js";
import { DisplayWidthsNotLoadedError, loadDisplayWidths } from "./markdown/wrap.js";
import { transcriptFromLog } from "./state/history-from-log.js";
import { initialTranscript, type TranscriptItem } from "./state/transcript-types.js";
import type { Theme } from "./theme.js";

const SLICE = 25;

const nextTick = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The text <Static> would print for one item: its lines, then a blank line (none after reasoning). */
function itemText(item: TranscriptItem, width: number, theme: Theme): string {
  return `${historyItemLines(item, width, theme, false).join("\n")}\n${item.kind === "reasoning" ? "" : "\n"}`;
}

/** The text <Static> would print for these items, built in slices with a yield between them. */
export async function renderPast(items: readonly TranscriptItem[], width: number, theme: Theme): Promise<string> {
  const parts: string[] = [];
  for (let start = 0; start < items.length; start += SLICE) {
    if (start > 0) await nextTick();
    for (const item of items.slice(start, start + SLICE)) parts.push(itemText(item, width, theme));
  }
  return parts.join("");
}

/** Where the last exchange starts (its prompt), or the end when there is none. */
export function lastExchangeStart(items: readonly TranscriptItem[]): number {
  for (let index = items.length - 1; index >= 0; index--) if (items[index]?.kind === "user") return index;
  return items.length;
}

/** The last `maxLines` lines of these items as <Static> would print them, for a preview above the prompt. */
export function previewText(items: readonly TranscriptItem[], width: number, theme: Theme, maxLines: number): string {
  const wanted = Math.max(1, maxLines);
  // From the last item back, until the items rendered hold the lines wanted: each item's text ends a line, so
  // the last lines of these items are the last lines of all of them, and the items above need no rendering.
  const texts: string[] = [];
  let lineCount = 0;
  for (let index = items.length - 1; index >= 0 && lineCount < wanted; index--) {
    const text = itemText(items[index] as TranscriptItem, width, theme);
    texts.push(text);
    for (let at = text.indexOf("\n"); at >= 0; at = text.indexOf("\n", at + 1)) lineCount++;
  }
  const lines = texts.reverse().join("").replace(/\n$/, "").split("\n");
  return lines.slice(-wanted).join("\n");
}

/** Where the last exchange starts in a log: a prompt of the person's (not one a command or hook sent). */
export const isPromptOfThePerson = (event: SessionEvent): boolean => event.type === "user.message" && event.data.source === undefined;

/**
 * A resumed session's last exchange, from the log's tail, as shown above the prompt while the session opens:
 * its last lines (rows − 10 of them, at least 3). Undefined when the tail has no prompt of the person's.
 */
export function previewOfTail(
  tail: readonly SessionEvent[],
  initial: { mode: AgentMode; model: string },
  width: number,
  rows: number,
  theme: Theme,
): string | undefined {
  const from = tail.findLastIndex(isPromptOfThePerson);
  if (from < 0) return undefined;
  const items = transcriptFromLog(tail.slice(from), initialTranscript(initial)).items;
  if (items.length === 0) return undefined;
  return previewText(items, width, theme, Math.max(3, rows - 10));
}

/**
 * previewOfTail for the early frame, drawn before string-width (src/ui/markdown/wrap.ts) and marked are
 * loaded: each is loaded only when the exchange needs it (text other than printable ASCII to measure;
 * Markdown beyond what markdown/simple-lexer.ts takes), and the lines are the same either way.
 */
export async function earlyPreviewOfTail(...args: Parameters<typeof previewOfTail>): Promise<string | undefined> {
  for (let attempt = 0; ; attempt++) {
    try {
      return withoutMarked(() => previewOfTail(...args));
    } catch (error) {
      // Each error loads what it lacks, so neither comes twice: a third is a bug to report, not to loop on.
      if (attempt < 2 && error instanceof DisplayWidthsNotLoadedError) await loadDisplayWidths();
      else if (attempt < 2 && error instanceof MarkedNotLoadedError) await preloadMarkdown({ displayWidths: false });
      else throw error;
    }
  }
}
