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

/** How the live area's rows are shared: running tools first (with less output each when many run), then the answer. */
export function liveBudget(maxRows: number, runningCount: number, reasoningRows: number): { tools: number; toolOutput: number; answer: number } {
  let left = Math.max(1, maxRows - reasoningRows);
  // Each tool takes a title row and up to four rows of output; with little room, fewer rows of output.
  const toolOutput = runningCount === 0 ? 0 : Math.max(0, Math.min(4, Math.floor(left / 2 / runningCount) - 1));
  const perTool = 1 + toolOutput;
  // A row stays for the answer's tail, and one for "… N more running" when not all tools fit.
  const room = left - 1;
  const tools = runningCount * perTool <= room ? runningCount : Math.max(1, Math.floor((room - 1) / perTool));
  left -= runningCount === 0 ? 0 : tools * perTool + (tools < runningCount ? 1 : 0);
  return { tools, toolOutput, answer: Math.max(1, left) };
}

export function LiveArea(props: { state: TranscriptState; theme: Theme; width: number; maxLines: number; showReasoning: boolean }) {
  const { state, theme, width, maxLines, showReasoning } = props;
  const idleWork = (state.busy || state.compacting === true) && !state.live && state.running.length === 0 && state.permissions.length === 0;
  // The whole area stays within `maxLines` rows: Ink redraws the entire screen when its output is taller.
  const reasoningRows = !state.liveReasoning ? 0 : showReasoning ? Math.max(1, Math.floor(maxLines / 2)) : 1;
  const budget = liveBudget(maxLines - (idleWork ? 1 : 0), state.running.length, reasoningRows);
  const shownTools = state.running.slice(-budget.tools);
  const hiddenTools = state.running.length - shownTools.length;
  return (
    <Box flexDirection="column">
      {state.liveReasoning && <LiveReasoning text={state.liveReasoning.text} width={width} theme={theme} expanded={showReasoning} maxLines={reasoningRows} />}
      {state.live && state.live.text.trim() !== "" && <StreamingMessage text={state.live.text} width={width} theme={theme} maxLines={budget.answer} />}
      {hiddenTools > 0 && <Text color={theme.muted}>… {hiddenTools} more running</Text>}
      {state.running.length > 0 && <RunningTools tools={shownTools} theme={theme} width={width} outputLines={budget.toolOutput} />}
      {idleWork && (
        <Box>
          <Spinner theme={theme} />
          <Text color={theme.muted}> {state.compacting ? "Compacting the conversation" : (state.intent ?? "Working")}… (esc to interrupt)</Text>
        </Box>
      )}
    </Box>
  );
}
