/**
 * /model: the endpoint's models, filtered as you type (↑/↓ to move, Enter to choose, Esc to cancel), the
 * current one marked. Only listed models can be chosen: typed text filters, it never becomes a model name
 * (also while the list is still loading). Only when the endpoint could not list its models (an error, or
 * an empty list) does the picker say so and accept a typed name. ←/→ choose the reasoning effort sent with
 * the chosen model (Copilot's /model effort choice); the first choice keeps the session's current effort.
 */
import { Box, Text } from "ink";
import { useRef, useState } from "react";
import type { Theme } from "../theme.js";
import { Priority } from "../terminal/input-bus.js";
import { useKeys, usePaste } from "../terminal/input-context.js";
import { pastedFilter, pickerAction, windowStart } from "./list-picker.js";

/** The efforts /model offers after "keep the current one" (the wire sends each in its own way). */
export const EFFORT_CHOICES = [undefined, "none", "minimal", "low", "medium", "high", "xhigh"] as const;
export type EffortChoice = (typeof EFFORT_CHOICES)[number];

export interface ModelPickerProps {
  /** undefined while the list is loading. */
  models: string[] | undefined;
  current: string;
  error?: string;
  theme: Theme;
  width: number;
  /** `effort` is undefined when the current effort is kept. */
  onSelect: (model: string, effort?: EffortChoice) => void;
  onCancel: () => void;
}

export const VISIBLE_ROWS = 10;

interface Row {
  model: string;
  custom: boolean;
}

export function modelRows(models: readonly string[] | undefined, filter: string, allowCustom: boolean): Row[] {
  const needle = filter.trim().toLowerCase();
  const rows: Row[] = (models ?? []).filter((model) => model.toLowerCase().includes(needle)).map((model) => ({ model, custom: false }));
  if (allowCustom && needle !== "" && !(models ?? []).includes(filter.trim())) rows.push({ model: filter.trim(), custom: true });
  return rows;
}

/** A typed name is accepted only when the endpoint could not list its models. */
export function acceptsTypedName(models: readonly string[] | undefined, error: string | undefined): boolean {
  return error !== undefined || models?.length === 0;
}

interface View {
  filter: string;
  /** The highlighted model by name, so it survives the list loading and the filter changing. */
  selected: string | undefined;
  /** Index into EFFORT_CHOICES. */
  effort: number;
}

export function ModelPicker({ models, current, error, theme, width, onSelect, onCancel }: ModelPickerProps) {
  const [, setView] = useState<View>({ filter: "", selected: undefined, effort: 0 });
  const viewRef = useRef<View>({ filter: "", selected: undefined, effort: 0 });
  const done = useRef(false);
  const modelsRef = useRef(models);
  modelsRef.current = models;
  const allowCustom = acceptsTypedName(models, error);
  const allowCustomRef = useRef(allowCustom);
  allowCustomRef.current = allowCustom;

  const rowsFor = (view: View) => modelRows(modelsRef.current, view.filter, allowCustomRef.current);
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
    if (key.name === "left" || key.name === "right") {
      const step = key.name === "left" ? -1 : 1;
      update({ ...view, effort: (view.effort + step + EFFORT_CHOICES.length) % EFFORT_CHOICES.length });
      return true;
    }
    const action = pickerAction(key, index, rows.length, view.filter);
    if (action.kind === "cancel") {
      done.current = true;
      onCancel();
    } else if (action.kind === "select" && rows[index]) {
      done.current = true;
      onSelect((rows[index] as Row).model, EFFORT_CHOICES[view.effort]);
    } else if (action.kind === "move") update({ ...view, selected: rows[action.index]?.model });
    else if (action.kind === "filter") update({ ...view, filter: action.text });
    return true;
  }, Priority.dialog);
  usePaste((text) => {
    const view = viewRef.current;
    update({ ...view, filter: pastedFilter(view.filter, text) });
    return true;
  }, Priority.dialog);

  const view = viewRef.current;
  const rows = modelRows(models, view.filter, allowCustom);
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
          Could not list models: {error}. Type a model name to use it.
        </Text>
      ) : null}
      {models === undefined ? <Text color={theme.muted}>Loading models…</Text> : null}
      {models !== undefined && rows.every((row) => row.custom) ? (
        <Text color={theme.muted}>{models.length === 0 ? "The endpoint listed no models: type a name." : view.filter.trim() ? "No models match." : null}</Text>
      ) : null}
      {start > 0 ? <Text color={theme.muted}> ↑ {start} more</Text> : null}
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
      {start + VISIBLE_ROWS < rows.length ? <Text color={theme.muted}> ↓ {rows.length - start - VISIBLE_ROWS} more</Text> : null}
      <Text wrap="truncate-end">
        <Text color={theme.muted}>Reasoning effort: </Text>‹ {EFFORT_CHOICES[view.effort] ?? "keep current"} ›
      </Text>
      <Text color={theme.muted} wrap="truncate-end">
        Type to filter · ↑↓ select · ←→ effort · Enter choose · Esc cancel
      </Text>
    </Box>
  );
}
