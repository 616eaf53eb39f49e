/**
 * What runs in the background: sub-agents (name, type, status, elapsed, latest intent) and a count of
 * background shells. Hidden when there is nothing to show. Finished tasks are rendered with ✓ or ✗ for as
 * long as the app keeps them in the list. The elapsed times tick once a second, and only while a task is
 * running.
 */
import { Box, Text } from "ink";
import type { Theme } from "../theme.js";
import type { BackgroundTask } from "../state/transcript-types.js";
import { formatAgentUse } from "./agent-use.js";
import { cleanOutputLine, formatElapsed, useTicker } from "./running-tools.js";

export interface BackgroundStatusProps {
  tasks: BackgroundTask[];
  /** Background shells still running (from session.idle's backgroundTasks). */
  shells: number;
  theme: Theme;
  width: number;
  /** The clock for elapsed times (tests pin it); Date.now() at each render otherwise. */
  now?: number;
}

export const BACKGROUND_TICK_MS = 1000;

function statusMark(status: BackgroundTask["status"], theme: Theme): { mark: string; color: string | undefined } {
  switch (status) {
    case "running":
      return { mark: "●", color: theme.accent };
    case "idle":
      return { mark: "○", color: theme.muted };
    case "completed":
      return { mark: "✓", color: theme.success };
    case "failed":
      return { mark: "✗", color: theme.error };
    case "cancelled":
      return { mark: "✗", color: theme.muted };
  }
}

function summary(tasks: BackgroundTask[], shells: number): string {
  const count = (status: BackgroundTask["status"]) => tasks.filter((task) => task.status === status).length;
  const parts: string[] = [];
  const running = count("running");
  if (running > 0) parts.push(`${running} running`);
  if (count("idle") > 0) parts.push(`${count("idle")} idle`);
  if (count("completed") > 0) parts.push(`${count("completed")} done`);
  if (count("failed") > 0) parts.push(`${count("failed")} failed`);
  if (count("cancelled") > 0) parts.push(`${count("cancelled")} cancelled`);
  if (shells > 0) parts.push(`${shells} shell${shells === 1 ? "" : "s"}`);
  return parts.join(" · ");
}

function TaskRow({ task, theme, width, clock }: { task: BackgroundTask; theme: Theme; width: number; clock: number }) {
  const { mark, color } = statusMark(task.status, theme);
  const live = task.status === "running" || task.status === "idle";
  const intent = task.intent ? cleanOutputLine(task.intent.split("\n")[0] ?? "") : "";
  return (
    <Box width={width} paddingLeft={2}>
      <Text wrap="truncate-end">
        <Text color={color}>{mark}</Text> <Text bold>{task.name}</Text>
        <Text color={theme.muted}> ({task.type})</Text> <Text color={color}>{task.status}</Text>
        {live ? <Text color={theme.muted}> {formatElapsed(clock - task.startedAt)}</Text> : null}
        {live && task.use ? <Text color={theme.muted}> · {formatAgentUse(task.use, clock - task.startedAt)}</Text> : null}
        {intent ? <Text color={theme.muted}> — {intent}</Text> : null}
      </Text>
    </Box>
  );
}

export function BackgroundStatus({ tasks, shells, theme, width, now }: BackgroundStatusProps) {
  const running = tasks.some((task) => task.status === "running");
  useTicker(running, BACKGROUND_TICK_MS);
  if (tasks.length === 0 && shells <= 0) return null;
  const clock = now ?? Date.now();
  return (
    <Box flexDirection="column" width={width}>
      <Box width={width}>
        <Text wrap="truncate-end">
          <Text color={theme.accent} bold>
            Background
          </Text>
          <Text color={theme.muted}> · {summary(tasks, shells)}</Text>
        </Text>
      </Box>
      {tasks.map((task) => (
        <TaskRow key={task.id} task={task} theme={theme} width={width} clock={clock} />
      ))}
    </Box>
  );
}
