/**
 * /agent: the agents one can run the session as (custom ones first), then "Default agent" to go back.
 * ↑/↓ move, Enter chooses, Esc cancels; typing filters by name.
 */
import { Box, Text } from "ink";
import { useRef, useState } from "react";
import type { Theme } from "../theme.js";
import { Priority } from "../terminal/input-bus.js";
import { useKeys } from "../terminal/input-context.js";
import { pickerAction, windowStart } from "./list-picker.js";

export interface AgentChoice {
  name: string;
  source: "builtin" | "user" | "repo";
  description: string;
}

export interface AgentPickerProps {
  agents: readonly AgentChoice[];
  /** The selected agent's name; undefined for the default agent. */
  current: string | undefined;
  theme: Theme;
  width: number;
  /** null: the default agent. */
  onSelect(name: string | null): void;
  onCancel(): void;
}

const VISIBLE_ROWS = 10;

/** The first sentence: enough to choose by, on one line. */
function firstSentence(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  const end = flat.search(/[.!?](\s|$)/);
  return end >= 0 ? flat.slice(0, end + 1) : flat;
}

type Row = { name: string | null; label: string; detail: string };

export function agentRows(agents: readonly AgentChoice[], filter: string): Row[] {
  const needle = filter.trim().toLowerCase();
  const rows: Row[] = agents
    .filter((agent) => agent.name.toLowerCase().includes(needle))
    .map((agent) => ({
      name: agent.name,
      label: agent.name,
      detail: `${agent.source === "builtin" ? "built-in" : agent.source} · ${firstSentence(agent.description)}`,
    }));
  if (needle === "") rows.push({ name: null, label: "Default agent", detail: "no custom agent: every tool, the standard prompt" });
  return rows;
}

export function AgentPicker({ agents, current, theme, width, onSelect, onCancel }: AgentPickerProps) {
  const [view, setView] = useState({ filter: "", index: -1 });
  const viewRef = useRef(view);
  const done = useRef(false);
  const indexIn = (rows: Row[], index: number) => {
    if (index >= 0 && index < rows.length) return index;
    const at = rows.findIndex((row) => row.name === (current ?? null));
    return at >= 0 ? at : 0;
  };
  const update = (next: { filter: string; index: number }) => {
    viewRef.current = next;
    setView(next);
  };

  useKeys((key) => {
    if (done.current) return true;
    const now = viewRef.current;
    const rows = agentRows(agents, now.filter);
    const index = indexIn(rows, now.index);
    const action = pickerAction(key, index, rows.length, now.filter);
    if (action.kind === "cancel") {
      done.current = true;
      onCancel();
    } else if (action.kind === "select" && rows[index]) {
      done.current = true;
      onSelect((rows[index] as Row).name);
    } else if (action.kind === "move") update({ ...now, index: action.index });
    else if (action.kind === "filter") update({ filter: action.text, index: -1 });
    return true;
  }, Priority.dialog);

  const rows = agentRows(agents, view.filter);
  const index = indexIn(rows, view.index);
  const start = windowStart(index, rows.length, VISIBLE_ROWS);
  const inner = Math.max(10, width - 4);
  return (
    <Box flexDirection="column" width={width} borderStyle="round" borderColor={theme.border} paddingX={1}>
      <Text bold>Run this session as an agent</Text>
      {view.filter !== "" ? (
        <Text wrap="truncate-end">
          <Text color={theme.muted}>Filter: </Text>
          {view.filter}
        </Text>
      ) : null}
      {rows.length === 0 ? <Text color={theme.muted}>No agents match.</Text> : null}
      {start > 0 ? <Text color={theme.muted}> ↑ {start} more</Text> : null}
      {rows.slice(start, start + VISIBLE_ROWS).map((row, offset) => {
        const selected = start + offset === index;
        return (
          <Box key={row.name ?? "(default)"} width={inner}>
            <Text color={selected ? theme.accent : undefined} wrap="truncate-end">
              {selected ? "❯ " : "  "}
              {row.label}
              {row.name === (current ?? null) ? <Text color={theme.success}> ✓ current</Text> : null}
              <Text color={theme.muted}> {row.detail}</Text>
            </Text>
          </Box>
        );
      })}
      {start + VISIBLE_ROWS < rows.length ? <Text color={theme.muted}> ↓ {rows.length - start - VISIBLE_ROWS} more</Text> : null}
      <Text color={theme.muted} wrap="truncate-end">
        ↑↓ select · Enter choose · Esc cancel · custom agents: $AGENT_HOME/agents, .github/agents
      </Text>
    </Box>
  );
}
