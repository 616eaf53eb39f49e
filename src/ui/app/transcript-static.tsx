/**
 * The finished history in Ink's <Static>, re-rendered only when its entries (or how they look) change.
 *
 * Why it is memoised: Ink marks its static output dirty whenever the <Static> box is committed with new
 * props, and a dirty static box makes Ink paint the whole screen at once, bypassing its frame throttle. An
 * unmemoised <Static> inside the app is re-rendered by every store update (a token count, a background
 * agent's intent, a spinner's frame in the app), so every such update cost an immediate full repaint; with
 * ten background agents starting, those repaints (and their garbage) held the keyboard for 100–460 ms.
 * Memoised, only new history items repaint at once; the rest go through Ink's throttle (one frame per
 * ~33 ms, however many updates arrive).
 */
import { Box, Static, Text } from "ink";
import { memo, useCallback } from "react";
import { HistoryItem } from "../components/history-item.js";
import { headerLines } from "../first-frame.js";
import type { TranscriptItem } from "../state/transcript-types.js";
import type { Theme } from "../theme.js";

export type StaticEntry = { kind: "header"; id: string } | TranscriptItem;

export interface TranscriptStaticProps {
  entries: StaticEntry[];
  width: number;
  theme: Theme;
  showReasoning: boolean;
  version: string;
  model: string;
  cwd: string;
}

export const TranscriptStatic = memo(function TranscriptStatic({ entries, width, theme, showReasoning, version, model, cwd }: TranscriptStaticProps) {
  const renderEntry = useCallback(
    (entry: StaticEntry) =>
      entry.kind === "header" ? (
        <Box key="header" flexDirection="column" marginBottom={1}>
          <Text color={theme.accent} bold>
            {headerLines(version, model, cwd)[0]}
          </Text>
          <Text color={theme.muted}>{headerLines(version, model, cwd)[1]}</Text>
        </Box>
      ) : (
        <Box key={entry.id} marginBottom={entry.kind === "reasoning" ? 0 : 1}>
          <HistoryItem item={entry} width={width} theme={theme} showReasoning={showReasoning} />
        </Box>
      ),
    [width, theme, showReasoning, version, model, cwd],
  );
  return <Static items={entries}>{renderEntry}</Static>;
});
