/**
 * What is still happening: reasoning, the streaming answer's unfinished tail, running tools, a working line.
 * Its height is capped below the terminal's, because Ink repaints the whole screen (scrollback included)
 * when its live output is taller than the terminal.
 */
import { Box, Text } from "ink";
import { LiveReasoning, StreamingMessage } from "../components/streaming-message.js";
import { RunningTools, Spinner } from "../components/running-tools.js";
import type { TranscriptState } from "../state/transcript-types.js";
import type { Theme } from "../theme.js";

/** The last `maxLines` lines of a text, with a marker when lines were cut. */
export function tailLines(text: string, maxLines: number): string {
  const lines = text.split("\n");
  if (lines.length <= maxLines) return text;
  return lines.slice(-maxLines).join("\n");
}

export function LiveArea(props: { state: TranscriptState; theme: Theme; width: number; maxLines: number; showReasoning: boolean }) {
  const { state, theme, width, maxLines, showReasoning } = props;
  const idleWork = state.busy && !state.live && state.running.length === 0 && state.permissions.length === 0;
  return (
    <Box flexDirection="column">
      {state.liveReasoning && <LiveReasoning text={state.liveReasoning.text} width={width} theme={theme} expanded={showReasoning} />}
      {state.live && state.live.text.trim() !== "" && <StreamingMessage text={tailLines(state.live.text, maxLines)} width={width} theme={theme} />}
      {state.running.length > 0 && <RunningTools tools={state.running} theme={theme} width={width} />}
      {idleWork && (
        <Box>
          <Spinner theme={theme} />
          <Text color={theme.muted}> {state.intent ?? "Working"}… (esc to interrupt)</Text>
        </Box>
      )}
    </Box>
  );
}
