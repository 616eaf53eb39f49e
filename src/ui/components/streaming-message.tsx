/**
 * The live area's text: the unfinished tail of the streaming answer (its finished paragraphs have already
 * moved to <Static>, so this stays a few paragraphs long) and the reasoning being streamed.
 */
import { Box, Text } from "ink";
import { useMemo } from "react";
import { renderMarkdown } from "../markdown/render-markdown.js";
import { stylesFor } from "../markdown/styles.js";
import { displayWidth, truncateToWidth, wrapText } from "../markdown/wrap.js";
import type { Theme } from "../theme.js";

/** The last `maxLines` rendered rows of the unfinished answer (the rest is in <Static> or comes later). */
export function StreamingMessage({ text, width, theme, maxLines }: { text: string; width: number; theme: Theme; maxLines?: number }) {
  const rendered = useMemo(() => {
    const all = renderMarkdown(text, { width: Math.max(4, width), theme });
    if (maxLines === undefined) return all;
    const lines = all.split("\n");
    return lines.length <= maxLines ? all : lines.slice(-Math.max(1, maxLines)).join("\n");
  }, [text, width, theme, maxLines]);
  if (rendered === "") return null;
  return (
    <Box flexDirection="column" width={width}>
      <Text>{rendered}</Text>
    </Box>
  );
}

/** The last line of a text that has something on it. */
export function lastNonEmptyLine(text: string): string {
  const lines = text.split("\n");
  for (let index = lines.length - 1; index >= 0; index--) {
    const line = (lines[index] as string).trim();
    if (line !== "") return line;
  }
  return "";
}

const LEAD = "∴ Thinking…";

export function liveReasoningLines(text: string, width: number, theme: Theme, expanded: boolean): string[] {
  const styles = stylesFor(theme);
  const columns = Math.max(4, Math.floor(width));
  if (!expanded) {
    const last = lastNonEmptyLine(text);
    const room = columns - displayWidth(LEAD) - 1;
    if (last === "" || room < 4) return [styles.muted(LEAD)];
    return [`${styles.muted(LEAD)} ${styles.dim(truncateToWidth(last, room))}`];
  }
  const body = wrapText(text.trim(), Math.max(1, columns - 2), (line) => styles.dim(styles.italic(line)));
  return [styles.muted(LEAD), ...body.map((line) => (line === "" ? "" : `  ${line}`))];
}

export function LiveReasoning({ text, width, theme, expanded, maxLines }: { text: string; width: number; theme: Theme; expanded: boolean; maxLines?: number }) {
  const lines = useMemo(() => {
    const all = liveReasoningLines(text, width, theme, expanded);
    // Expanded, the head line stays and the latest thoughts fill the rest.
    return maxLines === undefined || all.length <= maxLines ? all : [all[0] as string, ...all.slice(-Math.max(1, maxLines - 1))];
  }, [text, width, theme, expanded, maxLines]);
  return (
    <Box flexDirection="column" width={width}>
      <Text>{lines.join("\n")}</Text>
    </Box>
  );
}
