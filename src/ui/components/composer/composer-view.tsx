/**
 * What the composer draws: the prompt rows (wrapped, cursor shown inverse, chips in the accent colour, at most
 * `maxRows` around the cursor with "… N more lines" above and below), the popup list and the hint line.
 * Pure presentation: everything arrives in props.
 */
import { Box, Text } from "ink";
import { useRef } from "react";
import type { Theme } from "../../theme.js";
import type { EditorState } from "./editor-state.js";
import { nextGraphemeEnd } from "./graphemes.js";
import { chipsIn, type ChipRange } from "./paste-chips.js";
import { layoutEditor, type Row } from "./text-layout.js";

/** The prompt marker and the one column kept free so an end-of-row cursor never wraps. */
const MARKER_WIDTH = 2;
const CURSOR_GUARD = 1;

interface Segment {
  text: string;
  chip: boolean;
  cursor: boolean;
}

/** Control characters are drawn as one visible cell (they were measured as one). */
function visible(text: string): string {
  return text.replace(/\t/g, " ").replace(/[\x00-\x1f\x7f]/g, "·");
}

function rowSegments(text: string, row: Row, chips: readonly ChipRange[], cursor: number | undefined): Segment[] {
  const cuts = new Set<number>([row.start, row.end]);
  for (const chip of chips) for (const edge of [chip.start, chip.end]) if (edge > row.start && edge < row.end) cuts.add(edge);
  let cursorEnd = -1;
  if (cursor !== undefined && cursor < row.end) {
    cursorEnd = nextGraphemeEnd(text, cursor);
    cuts.add(cursor).add(Math.min(cursorEnd, row.end));
  }
  const points = [...cuts].sort((a, b) => a - b);
  const segments: Segment[] = [];
  for (let index = 0; index < points.length - 1; index++) {
    const from = points[index] as number;
    const to = points[index + 1] as number;
    if (to <= from) continue;
    const chip = chips.some((range) => range.start <= from && to <= range.end);
    segments.push({ text: visible(text.slice(from, to)), chip, cursor: from === cursor });
  }
  if (cursor !== undefined && cursor >= row.end) segments.push({ text: " ", chip: false, cursor: true });
  return segments;
}

export interface EditorViewProps {
  editor: EditorState;
  theme: Theme;
  width: number;
  maxRows: number;
  placeholder: string;
  /** Draw the cursor (false while another part of the composer has the focus). */
  showCursor: boolean;
  /** The text starts with `!` (a shell command): the marker takes the warning colour. */
  shell: boolean;
}

export function EditorView({ editor, theme, width, maxRows, placeholder, showCursor, shell }: EditorViewProps) {
  // The first row shown last time, so the view only scrolls when the cursor leaves it.
  const anchor = useRef<number | undefined>(undefined);
  const marker = "› ";
  const markerColor = shell ? theme.warning : theme.accent;
  if (editor.text === "") {
    const [first = " ", ...rest] = Array.from(placeholder);
    return (
      <Text wrap="truncate-end">
        <Text color={markerColor}>{marker}</Text>
        <Text inverse={showCursor} color={theme.muted}>
          {first}
        </Text>
        <Text color={theme.muted}>{rest.join("")}</Text>
      </Text>
    );
  }
  const columns = Math.max(1, width - MARKER_WIDTH - CURSOR_GUARD);
  const layout = layoutEditor(editor.text, editor.cursor, columns, maxRows, anchor.current);
  anchor.current = layout.rows[0]?.start;
  const first = layout.rows[0] as Row;
  const last = layout.rows[layout.rows.length - 1] as Row;
  const chips = editor.pasteCounter > 0 ? chipsIn(editor.text, editor.pastes, first.start, Math.max(last.end, first.start + 1)) : [];
  const plural = (count: number) => `${count} more line${count === 1 ? "" : "s"}`;
  return (
    <Box flexDirection="column">
      {layout.hiddenAbove > 0 && <Text color={theme.muted}>{`  … ${plural(layout.hiddenAbove)} above`}</Text>}
      {layout.rows.map((row, index) => {
        const segments = rowSegments(editor.text, row, chips, showCursor && index === layout.cursorRow ? editor.cursor : undefined);
        const lead = index === 0 && layout.hiddenAbove === 0 ? marker : "  ";
        return (
          <Text key={`${index}:${row.start}`} wrap="truncate-end">
            <Text color={markerColor}>{lead}</Text>
            {segments.map((segment, part) => (
              <Text key={part} inverse={segment.cursor} color={segment.chip ? theme.accent : undefined}>
                {segment.text}
              </Text>
            ))}
          </Text>
        );
      })}
      {layout.hiddenBelow > 0 && <Text color={theme.muted}>{`  … ${plural(layout.hiddenBelow)} below`}</Text>}
    </Box>
  );
}

export interface PopupItem {
  label: string;
  detail?: string;
}

export const POPUP_ROWS = 8;

/** A list of up to POPUP_ROWS items, scrolled to keep the selection visible. */
export function PopupList({ items, selected, theme, width }: { items: readonly PopupItem[]; selected: number; theme: Theme; width: number }) {
  const start = Math.max(0, Math.min(selected - POPUP_ROWS + 1, items.length - POPUP_ROWS));
  const shown = items.slice(start, start + POPUP_ROWS);
  const labelWidth = Math.min(Math.max(...shown.map((item) => item.label.length)) + 2, Math.floor(width * 0.6));
  // A label longer than the column still keeps two spaces before its detail.
  const cell = (label: string) => (label.length + 2 > labelWidth ? `${label}  ` : label.padEnd(labelWidth));
  return (
    <Box flexDirection="column" width={width}>
      {shown.map((item, offset) => {
        const isSelected = start + offset === selected;
        return (
          <Text key={`${start + offset}:${item.label}`} wrap="truncate-end">
            <Text color={isSelected ? theme.accent : undefined} bold={isSelected}>
              {`${isSelected ? "❯ " : "  "}${cell(item.label)}`}
            </Text>
            {item.detail !== undefined && <Text color={theme.muted}>{item.detail}</Text>}
          </Text>
        );
      })}
      {items.length > POPUP_ROWS && <Text color={theme.muted}>{`  ${selected + 1}/${items.length}`}</Text>}
    </Box>
  );
}

export function Rule({ theme, width }: { theme: Theme; width: number }) {
  return <Text color={theme.border}>{"─".repeat(Math.max(1, width))}</Text>;
}
