/**
 * /tasks: the session's background agents and shells (status, elapsed time, description). ↑/↓ pick one;
 * Enter prints an agent's transcript into the history; m writes it a message (Enter sends, Esc goes back);
 * c or x cancels it (a shell: stops its processes); Esc closes.
 */
import { Box, Text } from "ink";
import { useRef, useState } from "react";
import { neutraliseTerminalText } from "../../util/terminal-text.js";
import { Priority } from "../terminal/input-bus.js";
import { useKeys } from "../terminal/input-context.js";
import type { Theme } from "../theme.js";
import { editedText } from "./dialog-keys.js";
import { windowStart } from "./list-picker.js";
import { formatElapsed, useTicker } from "./running-tools.js";

export interface TaskAgentView {
  id: string;
  agentType: string;
  status: "running" | "idle" | "completed" | "failed" | "cancelled";
  description: string;
  startedAt: number;
  endedAt?: number;
}

export interface TasksDialogProps {
  /** Read at every render: the records change in place as agents work. */
  agents(): readonly TaskAgentView[];
  shells(): readonly { shellId: string; description?: string }[];
  theme: Theme;
  width: number;
  /** Prints the agent's transcript; the dialog closes. */
  onView(id: string): void;
  /** Sends a follow-up; returns why it was refused, or undefined. */
  onMessage(id: string, text: string): string | undefined;
  /** Cancels the agent; false when it was not running. */
  onCancel(id: string): boolean;
  /** Stops the shell; resolves false when it was not running. */
  onStopShell(shellId: string): Promise<boolean>;
  onClose(): void;
  /** The clock (tests pin it). */
  now?: () => number;
}

type Row = { kind: "agent"; agent: TaskAgentView } | { kind: "shell"; shellId: string; description: string };

const VISIBLE_ROWS = 10;
const live = (status: TaskAgentView["status"]) => status === "running" || status === "idle";
const MARKS: Record<TaskAgentView["status"], string> = { running: "●", idle: "○", completed: "✓", failed: "✗", cancelled: "✗" };

function rowsOf(props: TasksDialogProps): Row[] {
  return [
    ...props.agents().map((agent): Row => ({ kind: "agent", agent })),
    ...props.shells().map((shell): Row => ({ kind: "shell", shellId: shell.shellId, description: shell.description ?? "" })),
  ];
}

export function TasksDialog(props: TasksDialogProps) {
  const { theme, width } = props;
  const [state, setStateValue] = useState<{ index: number; draft?: string; notice?: string }>({ index: 0 });
  const stateRef = useRef(state);
  const setState = (next: typeof state) => {
    stateRef.current = next;
    setStateValue(next);
  };
  const closed = useRef(false);
  useTicker(true, 1000);

  useKeys((key) => {
    if (closed.current) return true;
    const now = stateRef.current;
    const rows = rowsOf(props);
    const index = Math.min(now.index, Math.max(0, rows.length - 1));
    const row = rows[index];
    const agent = row?.kind === "agent" ? row.agent : undefined;
    if (now.draft !== undefined) {
      // Writing a message to the selected agent.
      if (key.name === "escape") setState({ index });
      else if (key.name === "enter" && agent) {
        if (now.draft.trim() === "") return true;
        const refused = props.onMessage(agent.id, now.draft.trim());
        setState({ index, notice: refused ?? `Sent to ${agent.id}.` });
      } else {
        const text = editedText(key, now.draft);
        if (text !== undefined) setState({ index, draft: text });
      }
      return true;
    }
    if (key.name === "escape" || (key.ctrl && key.char === "c")) {
      closed.current = true;
      props.onClose();
    } else if ((key.name === "up" || key.name === "down") && rows.length > 0) {
      setState({ index: (index + (key.name === "up" ? -1 : 1) + rows.length) % rows.length });
    } else if (key.name === "enter" && agent) {
      closed.current = true;
      props.onView(agent.id);
    } else if (key.name === "char" && !key.ctrl && !key.meta) {
      const letter = key.char.toLowerCase();
      if (letter === "m" && agent) {
        setState(live(agent.status) ? { index, draft: "" } : { index, notice: `${agent.id} has ${agent.status}; it takes no more messages.` });
      } else if ((letter === "c" || letter === "x") && agent) {
        // An idle agent has answered already: stopping it ends its wait for follow-ups, its answer stands.
        const stopped = agent.status === "idle" ? `Stopped ${agent.id}; its answer stands.` : `Cancelled ${agent.id}.`;
        setState({ index, notice: props.onCancel(agent.id) ? stopped : `${agent.id} is not running.` });
      } else if ((letter === "c" || letter === "x") && row?.kind === "shell") {
        const { shellId } = row;
        setState({ index, notice: `Stopping shell ${shellId}…` });
        void props.onStopShell(shellId).then((stopped) => {
          if (!closed.current) setState({ ...stateRef.current, notice: stopped ? `Stopped shell ${shellId}.` : `Shell ${shellId} is not running.` });
        });
      } else if (letter === "m" && row?.kind === "shell") {
        setState({ index, notice: "A shell takes no messages." });
      }
    }
    return true;
  }, Priority.dialog);

  const clock = props.now?.() ?? Date.now();
  const rows = rowsOf(props);
  const index = Math.min(state.index, Math.max(0, rows.length - 1));
  const start = windowStart(index, rows.length, VISIBLE_ROWS);
  const inner = Math.max(10, width - 4);
  const selected = rows[index];
  return (
    <Box flexDirection="column" width={width} borderStyle="round" borderColor={theme.border} paddingX={1}>
      <Text bold>Background tasks</Text>
      {rows.length === 0 ? <Text color={theme.muted}>No background agents or shells.</Text> : null}
      {start > 0 ? <Text color={theme.muted}> ↑ {start} more</Text> : null}
      {rows.slice(start, start + VISIBLE_ROWS).map((row, offset) => {
        const chosen = start + offset === index;
        const pointer = chosen ? "❯ " : "  ";
        if (row.kind === "shell")
          return (
            <Box key={`shell-${row.shellId}`} width={inner}>
              <Text color={chosen ? theme.accent : undefined} wrap="truncate-end">
                {pointer}● shell {row.shellId} <Text color={theme.accent}>running</Text>
                <Text color={theme.muted}> {neutraliseTerminalText(row.description)}</Text>
              </Text>
            </Box>
          );
        const { agent } = row;
        return (
          <Box key={agent.id} width={inner}>
            <Text color={chosen ? theme.accent : undefined} wrap="truncate-end">
              {pointer}
              {MARKS[agent.status]} {agent.id} <Text color={theme.muted}>({agent.agentType})</Text> {agent.status}
              <Text color={theme.muted}>
                {" "}
                {formatElapsed((agent.endedAt ?? clock) - agent.startedAt)} · {neutraliseTerminalText(agent.description)}
              </Text>
            </Text>
          </Box>
        );
      })}
      {start + VISIBLE_ROWS < rows.length ? <Text color={theme.muted}> ↓ {rows.length - start - VISIBLE_ROWS} more</Text> : null}
      {state.draft !== undefined && selected?.kind === "agent" ? (
        <Text wrap="truncate-start">
          <Text color={theme.accent}>Message to {selected.agent.id}: </Text>
          {state.draft}
          <Text inverse> </Text>
        </Text>
      ) : null}
      {state.notice ? (
        <Text color={theme.muted} wrap="truncate-end">
          {state.notice}
        </Text>
      ) : null}
      <Text color={theme.muted} wrap="truncate-end">
        {state.draft !== undefined ? "Enter send · Esc back" : "↑↓ select · Enter view transcript · m message · c cancel · Esc close"}
      </Text>
    </Box>
  );
}
