/**
 * One finished transcript item, as it goes into Ink's <Static>: rendered once, so no state and no timers.
 * All styling goes through the theme's chalk (see markdown/styles.ts), so a plain theme prints no ANSI code;
 * lines are wrapped here to `width`, so Ink has nothing left to wrap.
 */
import { Box, Text } from "ink";
import type { TranscriptItem } from "../state/transcript-types.js";
import type { Theme } from "../theme.js";
import { historyItemLines } from "./history-item-lines.js";

export { formatDuration, historyItemLines, SHELL_OUTPUT_LINES } from "./history-item-lines.js";

export interface HistoryItemProps {
  item: TranscriptItem;
  width: number;
  theme: Theme;
  /** ctrl+t: show reasoning in full instead of one collapsed line. */
  showReasoning: boolean;
}

export function HistoryItem({ item, width, theme, showReasoning }: HistoryItemProps) {
  return (
    <Box flexDirection="column" width={width}>
      <Text>{historyItemLines(item, width, theme, showReasoning).join("\n")}</Text>
    </Box>
  );
}
