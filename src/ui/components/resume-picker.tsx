/**
 * `agent --resume` and /resume: past sessions, this directory's first and the most recent first. Tab
 * switches between this directory and all of them; typing filters by name, first prompt or id prefix;
 * ↑/↓ and Enter choose, Esc cancels.
 */
import { Box, Text } from "ink";
import path from "node:path";
import { useRef, useState } from "react";
import stringWidth from "string-width";
import type { SessionMetadata } from "../../session/session-metadata.js";
import type { Theme } from "../theme.js";
import { Priority } from "../terminal/input-bus.js";
import { useKeys, usePaste } from "../terminal/input-context.js";
import { shortenPath } from "./footer.js";
import { pastedFilter, pickerAction, windowStart } from "./list-picker.js";
import { VISIBLE_ROWS } from "./model-picker.js";

export interface ResumePickerProps {
  sessions: SessionMetadata[];
  cwd: string;
  theme: Theme;
  width: number;
  onSelect: (id: string) => void;
  onCancel: () => void;
  /** The clock for "3 min ago" (tests pin it); Date.now() otherwise. */
  now?: number;
}

export type ResumeScope = "here" | "all";

const ID_PREFIX = 8;
/** Columns kept for a session's title before its details are dropped. */
const MIN_TITLE = 16;

const sameDir = (a: string, b: string) => path.resolve(a) === path.resolve(b);

function updatedAt(session: SessionMetadata): number {
  const time = Date.parse(session.updatedAt);
  return Number.isNaN(time) ? 0 : time;
}

/** The rows in order: this directory's sessions (newest first), then, for "all", the others (newest first). */
export function orderSessions(sessions: readonly SessionMetadata[], cwd: string, scope: ResumeScope, filter: string): SessionMetadata[] {
  const newest = (a: SessionMetadata, b: SessionMetadata) => updatedAt(b) - updatedAt(a);
  const here = sessions.filter((session) => sameDir(session.cwd, cwd)).sort(newest);
  const others = scope === "all" ? sessions.filter((session) => !sameDir(session.cwd, cwd)).sort(newest) : [];
  const needle = filter.trim().toLowerCase();
  if (needle === "") return [...here, ...others];
  return [...here, ...others].filter(
    (session) =>
      session.id.toLowerCase().startsWith(needle) ||
      (session.name ?? "").toLowerCase().includes(needle) ||
      (session.firstPrompt ?? "").toLowerCase().includes(needle),
  );
}

/** "just now", "3 min ago", "2 hours ago", "yesterday", "5 days ago", then the date. */
export function relativeTime(iso: string, now: number): string {
  const time = Date.parse(iso);
  if (Number.isNaN(time)) return "unknown";
  const seconds = Math.max(0, Math.round((now - time) / 1000));
  if (seconds < 45) return "just now";
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} hour${hours === 1 ? "" : "s"} ago`;
  const days = Math.floor(hours / 24);
  if (days === 1) return "yesterday";
  if (days < 30) return `${days} days ago`;
  return new Date(time).toISOString().slice(0, 10);
}

export function sessionTitle(session: SessionMetadata): string {
  const text =
    session.name?.trim() ||
    session.firstPrompt
      ?.split("\n")
      .find((line) => line.trim() !== "")
      ?.trim() ||
    "(no prompt)";
  return text.replace(/\s+/g, " ");
}

/** " 3 min ago · 42 events · abcdef12 · ~/other": the parts that fit beside at least a short title. */
function rowMeta(session: SessionMetadata, cwd: string, now: number, width: number): string {
  const parts = [relativeTime(session.updatedAt, now), `${session.eventCount} events`, session.id.slice(0, ID_PREFIX)];
  if (!sameDir(session.cwd, cwd)) parts.push(shortenPath(session.cwd));
  const room = Math.max(0, width - MIN_TITLE);
  while (parts.length > 1 && stringWidth(` ${parts.join(" · ")}`) > room) parts.pop();
  const meta = ` ${parts.join(" · ")}`;
  return stringWidth(meta) > room ? "" : meta;
}

interface View {
  scope: ResumeScope;
  filter: string;
  /** The highlighted session by id, so it survives filtering and toggling. */
  selected: string | undefined;
}

export function ResumePicker({ sessions, cwd, theme, width, onSelect, onCancel, now }: ResumePickerProps) {
  const initial = (): View => ({ scope: sessions.some((session) => sameDir(session.cwd, cwd)) ? "here" : "all", filter: "", selected: undefined });
  const [, setView] = useState<View>(initial);
  const viewRef = useRef<View | undefined>(undefined);
  viewRef.current ??= initial();
  const done = useRef(false);
  const latest = useRef({ sessions, cwd });
  latest.current = { sessions, cwd };

  const rowsFor = (view: View) => orderSessions(latest.current.sessions, latest.current.cwd, view.scope, view.filter);
  const indexIn = (view: View, rows: SessionMetadata[]) =>
    Math.max(
      0,
      rows.findIndex((session) => session.id === view.selected),
    );
  const update = (next: View) => {
    viewRef.current = next;
    setView(next);
  };

  useKeys((key) => {
    const view = viewRef.current;
    if (done.current || !view) return true;
    const rows = rowsFor(view);
    const index = indexIn(view, rows);
    if (key.name === "tab") {
      update({ ...view, scope: view.scope === "here" ? "all" : "here" });
      return true;
    }
    const action = pickerAction(key, index, rows.length, view.filter);
    if (action.kind === "cancel") {
      done.current = true;
      onCancel();
    } else if (action.kind === "select" && rows[index]) {
      done.current = true;
      onSelect(rows[index].id);
    } else if (action.kind === "move") update({ ...view, selected: rows[action.index]?.id });
    else if (action.kind === "filter") update({ ...view, filter: action.text });
    return true;
  }, Priority.dialog);
  usePaste((text) => {
    const view = viewRef.current;
    if (view) update({ ...view, filter: pastedFilter(view.filter, text) });
    return true;
  }, Priority.dialog);

  const view = viewRef.current;
  const rows = rowsFor(view);
  const index = indexIn(view, rows);
  const start = windowStart(index, rows.length, VISIBLE_ROWS);
  const clock = now ?? Date.now();
  const inner = Math.max(10, width - 4);
  const tab = (scope: ResumeScope, label: string) => (
    <Text color={view.scope === scope ? theme.accent : theme.muted} bold={view.scope === scope} inverse={view.scope === scope && !theme.color}>
      {view.scope === scope ? `[${label}]` : ` ${label} `}
    </Text>
  );
  const empty =
    sessions.length === 0
      ? "No sessions yet."
      : view.filter.trim() !== ""
        ? `No sessions match "${view.filter.trim()}".`
        : "No sessions in this directory. Press Tab to show all.";
  return (
    <Box flexDirection="column" width={width} borderStyle="round" borderColor={theme.border} paddingX={1}>
      <Text bold>Resume a session</Text>
      <Text wrap="truncate-end">
        {tab("here", "This directory")} {tab("all", "All")}
        <Text color={theme.muted}> (Tab to switch)</Text>
      </Text>
      <Text wrap="truncate-end">
        <Text color={theme.muted}>Search: </Text>
        {view.filter}
        <Text inverse> </Text>
      </Text>
      {rows.length === 0 ? <Text color={theme.muted}>{empty}</Text> : null}
      {start > 0 ? <Text color={theme.muted}> ↑ {start} more</Text> : null}
      {rows.slice(start, start + VISIBLE_ROWS).map((session, offset) => {
        const selected = start + offset === index;
        const meta = rowMeta(session, cwd, clock, inner);
        return (
          <Box key={session.id} width={inner}>
            <Box flexGrow={1} flexShrink={1}>
              <Text color={selected ? theme.accent : undefined} wrap="truncate-end">
                {selected ? "❯ " : "  "}
                {sessionTitle(session)}
              </Text>
            </Box>
            <Box flexShrink={0}>
              <Text color={theme.muted} wrap="truncate-end">
                {meta}
              </Text>
            </Box>
          </Box>
        );
      })}
      {start + VISIBLE_ROWS < rows.length ? <Text color={theme.muted}> ↓ {rows.length - start - VISIBLE_ROWS} more</Text> : null}
      <Text color={theme.muted} wrap="truncate-end">
        Type to search · ↑↓ select · Enter resume · Esc cancel
      </Text>
    </Box>
  );
}
