/**
 * /model: the endpoint's models, filtered as you type (↑/↓ to move, Enter to choose, Esc to cancel), the
 * current one marked. A name that is not in the list can still be chosen by typing it in full: some
 * OpenAI-compatible servers list no models, or not all of them.
 */
import { Box, Text } from "ink";
import { useRef, useState } from "react";
import type { Theme } from "../theme.js";
import { Priority } from "../terminal/input-bus.js";
import { useKeys, usePaste } from "../terminal/input-context.js";
import type { Key } from "../terminal/keys.js";

export interface ModelPickerProps {
  /** undefined while the list is loading. */
  models: string[] | undefined;
  current: string;
  error?: string;
  theme: Theme;
  width: number;
  onSelect: (model: string) => void;
  onCancel: () => void;
}

export const VISIBLE_ROWS = 10;

/** The first row to show so that `selected` is visible in a window of `size` rows. */
export function windowStart(selected: number, count: number, size: number): number {
  if (count <= size) return 0;
  return Math.min(Math.max(0, selected - Math.floor(size / 2)), count - size);
}

/** Editing keys shared by the pickers' filter line; returns the new text, or undefined for other keys. */
export function editFilter(text: string, key: Key): string | undefined {
  if (key.name === "backspace") return Array.from(text).slice(0, -1).join("");
  if (key.ctrl && key.char === "u") return "";
  if (key.name === "char" && !key.ctrl && !key.meta && key.char !== "") return text + key.char;
  return undefined;
}

interface Row {
  model: string;
  custom: boolean;
}

export function modelRows(models: readonly string[] | undefined, filter: string): Row[] {
  const needle = filter.trim().toLowerCase();
  const rows: Row[] = (models ?? []).filter((model) => model.toLowerCase().includes(needle)).map((model) => ({ model, custom: false }));
  if (needle !== "" && !(models ?? []).includes(filter.trim())) rows.push({ model: filter.trim(), custom: true });
  return rows;
}

interface View {
  filter: string;
  /** The highlighted model by name, so it survives the list loading and the filter changing. */
  selected: string | undefined;
}

export function ModelPicker({ models, current, error, theme, width, onSelect, onCancel }: ModelPickerProps) {
  const [, setView] = useState<View>({ filter: "", selected: undefined });
  const viewRef = useRef<View>({ filter: "", selected: undefined });
  const done = useRef(false);
  const modelsRef = useRef(models);
  modelsRef.current = models;

  const rowsFor = (view: View) => modelRows(modelsRef.current, view.filter);
  const selectedIndex = (view: View, rows: Row[]) => {
    const wanted = view.selected ?? current;
    const index = rows.findIndex((row) => row.model === wanted);
    return index >= 0 ? index : 0;
  };
  const update = (next: View) => {
    viewRef.current = next;
    setView(next);
  };

  useKeys((key) => {
    if (done.current) return true;
    const view = viewRef.current;
    const rows = rowsFor(view);
    const index = selectedIndex(view, rows);
    if (key.name === "escape" || (key.ctrl && key.char === "c")) {
      done.current = true;
      onCancel();
    } else if (key.name === "enter") {
      const row = rows[index];
      if (row) {
        done.current = true;
        onSelect(row.model);
      }
    } else if (key.name === "up" || key.name === "down") {
      if (rows.length > 0) {
        const next = (index + (key.name === "up" ? -1 : 1) + rows.length) % rows.length;
        update({ ...view, selected: rows[next]?.model });
      }
    } else {
      const filter = editFilter(view.filter, key);
      if (filter !== undefined) update({ filter, selected: view.selected });
    }
    return true;
  }, Priority.dialog);
  usePaste((text) => {
    const view = viewRef.current;
    update({ ...view, filter: view.filter + text.replace(/\s+/g, " ").trim() });
    return true;
  }, Priority.dialog);

  const view = viewRef.current;
  const rows = modelRows(models, view.filter);
  const index = selectedIndex(view, rows);
  const start = windowStart(index, rows.length, VISIBLE_ROWS);
  const shown = rows.slice(start, start + VISIBLE_ROWS);
  const inner = Math.max(10, width - 4);
  return (
    <Box flexDirection="column" width={width} borderStyle="round" borderColor={theme.border} paddingX={1}>
      <Text bold>Select a model</Text>
      <Text wrap="truncate-end">
        <Text color={theme.muted}>Filter: </Text>
        {view.filter}
        <Text inverse> </Text>
      </Text>
      {error ? (
        <Text color={theme.error} wrap="wrap">
          Could not list models: {error}
        </Text>
      ) : null}
      {models === undefined ? <Text color={theme.muted}>Loading models…</Text> : null}
      {models !== undefined && rows.every((row) => row.custom) ? <Text color={theme.muted}>{view.filter.trim() ? "No models match." : "The endpoint listed no models: type a name."}</Text> : null}
      {start > 0 ? <Text color={theme.muted}>  ↑ {start} more</Text> : null}
      {shown.map((row, offset) => {
        const selected = start + offset === index;
        return (
          <Box key={`${row.custom ? "custom:" : ""}${row.model}`} width={inner}>
            <Text color={selected ? theme.accent : undefined} wrap="truncate-end">
              {selected ? "❯ " : "  "}
              {row.custom ? `Use "${row.model}"` : row.model}
              {row.model === current && !row.custom ? <Text color={theme.success}> ✓ current</Text> : null}
            </Text>
          </Box>
        );
      })}
      {start + VISIBLE_ROWS < rows.length ? <Text color={theme.muted}>  ↓ {rows.length - start - VISIBLE_ROWS} more</Text> : null}
      <Text color={theme.muted} wrap="truncate-end">
        Type to filter · ↑↓ select · Enter choose · Esc cancel
      </Text>
    </Box>
  );
}
