/**
 * The tools that are running now: a spinner, the title, the elapsed time and the tail of their output.
 * One interval drives every spinner, and only while something runs: an empty list renders nothing and
 * starts no timer, so an idle screen costs no CPU and writes nothing.
 */
import { Box, Text } from "ink";
import { useEffect, useState } from "react";
import { neutraliseTerminalText } from "../../util/terminal-text.js";
import type { Theme } from "../theme.js";
import type { RunningTool } from "../state/transcript-types.js";
import { formatAgentUse } from "./agent-use.js";

export const SPINNER_FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"] as const;
export const SPINNER_INTERVAL_MS = 100;
const TAIL_LINES = 4;

/** A counter that goes up every `intervalMs` while `active`; no timer exists while inactive. */
export function useTicker(active: boolean, intervalMs: number): number {
  const [tick, setTick] = useState(0);
  useEffect(() => {
    if (!active) return undefined;
    const timer = setInterval(() => setTick((value) => value + 1), intervalMs);
    return () => clearInterval(timer);
  }, [active, intervalMs]);
  return tick;
}

/** "4s", "1m 05s", "1h 02m". */
export function formatElapsed(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m ${String(seconds % 60).padStart(2, "0")}s`;
  return `${Math.floor(minutes / 60)}h ${String(minutes % 60).padStart(2, "0")}m`;
}

/** Terminal output made safe to print inside our layout: no escapes, no carriage-return redraws, no tabs. */
export function cleanOutputLine(line: string): string {
  const lastFrame =
    line
      .split("\r")
      .filter((part) => part !== "")
      .at(-1) ?? "";
  return neutraliseTerminalText(lastFrame.replace(/\t/g, "  ")).replace(/\n/g, " ");
}

/** The last `count` non-empty lines of some output, cleaned. */
export function outputTail(output: string, count: number): string[] {
  const lines = output.replace(/\r\n/g, "\n").split("\n").map(cleanOutputLine);
  while (lines.length > 0 && (lines.at(-1) ?? "").trim() === "") lines.pop();
  return lines.slice(-count);
}

export interface SpinnerProps {
  theme: Theme;
  /** Show this frame (the parent drives the animation); without it the spinner runs its own timer. */
  frame?: number;
  /** Whether the self-driven spinner animates (default true); ignored when `frame` is given. */
  active?: boolean;
}

export function Spinner({ theme, frame, active = true }: SpinnerProps) {
  const own = useTicker(frame === undefined && active, SPINNER_INTERVAL_MS);
  const index = (frame ?? own) % SPINNER_FRAMES.length;
  return <Text color={theme.accent}>{SPINNER_FRAMES[index]}</Text>;
}

export interface RunningToolsProps {
  tools: RunningTool[];
  theme: Theme;
  width: number;
  /** The clock for elapsed times (tests pin it); Date.now() at each render otherwise. */
  now?: number;
  /** Rows of output under each tool (default 4; fewer when the screen is small). */
  outputLines?: number;
}

export function RunningTools({ tools, theme, width, now, outputLines = TAIL_LINES }: RunningToolsProps) {
  const tick = useTicker(tools.length > 0, SPINNER_INTERVAL_MS);
  if (tools.length === 0) return null;
  const clock = now ?? Date.now();
  return (
    <Box flexDirection="column" width={width}>
      {tools.map((tool) => (
        <Box key={tool.toolCallId} flexDirection="column" width={width}>
          <Box width={width}>
            <Text wrap="truncate-end">
              <Spinner theme={theme} frame={tick} /> {tool.agent ? <Text color={theme.accent}>{tool.agent.name} · </Text> : null}
              <Text bold>{tool.title || tool.name}</Text>
              <Text color={theme.muted}>
                {" "}
                ({formatElapsed(clock - tool.startedAt)}){tool.progress ? ` ${cleanOutputLine(tool.progress)}` : ""}
                {tool.agent ? ` · ${tool.agent.toolCalls} tool call${tool.agent.toolCalls === 1 ? "" : "s"}` : ""}
                {tool.agent?.use ? ` · ${formatAgentUse(tool.agent.use, clock - tool.startedAt)}` : ""}
              </Text>
            </Text>
          </Box>
          {tool.agent?.intent ? (
            <Box width={width} paddingLeft={4}>
              <Text color={theme.muted} wrap="truncate-end">
                ↳ {cleanOutputLine(tool.agent.intent)}
              </Text>
            </Box>
          ) : null}
          {(outputLines > 0 ? outputTail(tool.output, outputLines) : []).map((line, index) => (
            <Box key={index} width={width} paddingLeft={4}>
              <Text dimColor wrap="truncate-end">
                {line === "" ? " " : line}
              </Text>
            </Box>
          ))}
        </Box>
      ))}
    </Box>
  );
}
