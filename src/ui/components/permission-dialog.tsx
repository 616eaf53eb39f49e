/**
 * The question a tool call asks before it runs: what it wants to do (the command in a box, a diff, a path,
 * a URL, an MCP call), why it needs approval, and the answers the broker offers (permission.requested's
 * `options`: yes · yes for this session · yes always in this directory · no, with a message for the agent).
 * Digits pick an answer, ↑/↓ and Enter too; Esc denies and stops the turn. While shown it takes every key.
 *
 * It fits in `maxHeight` rows (the room the app has below the history): the title, the question and the
 * choices always show; the command, diff or arguments are cut to what is left, and PgUp/PgDn scroll them.
 */
import { NumberedChoices, TextAnswer } from "./numbered-choices.js";
import { Box, Text } from "ink";
import { useState, useRef } from "react";
import type { PermissionOption, PermissionRequest } from "../../protocol/events/index.js";
import { offeredOptions, optionReply, type PermissionReply } from "../../protocol/interactions.js";
import type { Theme } from "../theme.js";
import type { Key } from "../terminal/keys.js";
import { choiceKey, editedText, useDialogInput } from "./dialog-keys.js";
import { wrapText } from "../markdown/wrap.js";

export interface PermissionDialogProps {
  request: PermissionRequest;
  /** The answers offered (permission.requested's `options`); without them, yes once and no. */
  options?: readonly PermissionOption[] | undefined;
  theme: Theme;
  width: number;
  /** How many more requests wait behind this one. */
  queued: number;
  onAnswer: (reply: PermissionReply, options?: { stop: boolean }) => void;
  /** Rows the dialog may take; without it, the body is capped by its own limits only. */
  maxHeight?: number;
  /** The subagent asking, when it is not the main agent. */
  agent?: string;
}

export interface DialogChoice {
  label: string;
  /** `deny` opens the message input instead of answering at once. */
  reply: PermissionReply;
}

const COMMAND_LINES = 12;
const DIFF_LINES = 20;
const ARGS_LINES = 10;

/**
 * The answers the broker offers (the event's list), as this dialog shows them: "No" opens the message input,
 * and says so, and Esc stops the turn.
 */
export function dialogChoices(offered: readonly PermissionOption[]): DialogChoice[] {
  return offered.map((option) => ({
    label: option.kind === "reject_once" ? `${option.label}, and tell agent what to do differently (Esc to stop)` : option.label,
    reply: optionReply(option),
  }));
}

/** Whether a write creates the file (its diff adds a whole file), rather than editing one. */
export function isNewFile(request: Extract<PermissionRequest, { kind: "write" }>): boolean {
  if (/^--- \/dev\/null$/m.test(request.diff) || /^@@ -0,0 \+/m.test(request.diff)) return true;
  return request.diff.trim() === "" && /^create\b/i.test(request.intention);
}

/** The part of the body shown: `max` rows from `offset` (clamped), and how many rows are hidden. */
export interface BodyWindow {
  max: number;
  offset: number;
}

const ALL: BodyWindow = { max: Number.MAX_SAFE_INTEGER, offset: 0 };

function capLines(lines: string[], max: number, window: BodyWindow = ALL): { shown: string[]; more: number } {
  const room = Math.max(1, Math.min(max, window.max));
  if (lines.length <= room) return { shown: lines, more: 0 };
  // When the screen is what limits, the "… more" line must fit in it too.
  const rows = window.max < max ? Math.max(1, room - 1) : room;
  const offset = Math.min(Math.max(0, window.offset), lines.length - rows);
  return { shown: lines.slice(offset, offset + rows), more: lines.length - rows };
}

function More({ count, theme }: { count: number; theme: Theme }) {
  return count > 0 ? (
    <Text color={theme.muted}>
      … {count} more line{count === 1 ? "" : "s"} (PgUp/PgDn to scroll)
    </Text>
  ) : null;
}

function CommandBox({ command, theme, width, window }: { command: string; theme: Theme; width: number; window: BodyWindow }) {
  // Wrapped here, so a long one-line command counts as the rows it takes.
  const lines = command
    .replace(/\t/g, "  ")
    .split("\n")
    .flatMap((line) => wrapText(line, Math.max(1, width - 4)));
  const { shown, more } = capLines(lines, COMMAND_LINES, { ...window, max: window.max - 2 });
  return (
    <Box flexDirection="column" width={width} borderStyle="round" borderColor={theme.border} paddingX={1}>
      <Text>{shown.join("\n")}</Text>
      <More count={more} theme={theme} />
    </Box>
  );
}

function DiffPreview({ diff, theme, width, window }: { diff: string; theme: Theme; width: number; window: BodyWindow }) {
  const body = diff.split("\n").filter((line) => !/^(Index: |={3,}$|--- |\+\+\+ )/.test(line));
  while (body.length > 0 && body.at(-1) === "") body.pop();
  if (body.length === 0) return <Text color={theme.muted}>(no preview)</Text>;
  const { shown, more } = capLines(body, DIFF_LINES, window);
  const color = (line: string) => (line.startsWith("+") ? theme.success : line.startsWith("-") ? theme.error : theme.muted);
  return (
    <Box flexDirection="column" width={width}>
      {shown.map((line, index) => (
        <Text key={index} color={color(line)} dimColor={line.startsWith("@@")} wrap="truncate-end">
          {line.replace(/\t/g, "  ") || " "}
        </Text>
      ))}
      <More count={more} theme={theme} />
    </Box>
  );
}

/** A few lines about the call, then its arguments as JSON (capped). */
function Details({ lines, args, theme, width, window }: { lines: string[]; args?: unknown; theme: Theme; width: number; window: BodyWindow }) {
  const text = args === undefined ? "" : typeof args === "string" ? args : (JSON.stringify(args, null, 2) ?? String(args));
  const { shown, more } = capLines(text === "" ? [] : text.split("\n"), ARGS_LINES, { ...window, max: window.max - lines.length });
  return (
    <Box flexDirection="column" width={width}>
      {lines.map((line, index) => (
        <Text key={`l${index}`} wrap="truncate-end">
          {line}
        </Text>
      ))}
      {shown.map((line, index) => (
        <Text key={`a${index}`} color={theme.muted} wrap="truncate-end">
          {line || " "}
        </Text>
      ))}
      <More count={more} theme={theme} />
    </Box>
  );
}

/** Title, body and question of each kind of request. */
function describe(request: PermissionRequest, theme: Theme, width: number, window: BodyWindow) {
  switch (request.kind) {
    case "shell":
      return {
        title: request.intention,
        body: <CommandBox command={request.fullCommandText} theme={theme} width={width} window={window} />,
        question: "Do you want to run this command?",
      };
    case "write":
      return {
        title: request.intention,
        body: <DiffPreview diff={request.diff} theme={theme} width={width} window={window} />,
        question: `Do you want to ${isNewFile(request) ? "create" : "edit"} ${request.fileName}?`,
      };
    case "read":
      return { title: request.intention, body: null, question: `Allow reading ${request.path}? It is outside the allowed directories.` };
    case "url":
      return { title: request.intention, body: null, question: `agent is attempting to access the following URL: ${request.url}` };
    case "mcp":
      return {
        title: request.toolTitle || request.toolName,
        body: (
          <Details
            lines={[`MCP server ${request.serverName} · tool ${request.toolName}${request.readOnly ? " (read-only)" : ""}`]}
            args={request.args}
            theme={theme}
            width={width}
            window={window}
          />
        ),
        question: `Allow ${request.toolName} from ${request.serverName}?`,
      };
    case "custom-tool":
      return {
        title: request.toolName,
        body: (
          <Details
            lines={request.toolDescription ? [request.toolDescription.split("\n")[0] ?? ""] : []}
            args={request.args}
            theme={theme}
            width={width}
            window={window}
          />
        ),
        question: `Allow the tool ${request.toolName}?`,
      };
    case "memory": {
      const action = request.action ?? "store";
      return {
        title: `${action === "store" ? "Remember" : action === "confirm" ? "Confirm" : "Retire"}: ${request.subject}`,
        body: <Details lines={[request.fact, ...(request.citations ? [request.citations] : [])]} theme={theme} width={width} window={window} />,
        question: `Do you want to ${action} this memory?`,
      };
    }
  }
}

interface View {
  request: PermissionRequest;
  selected: number;
  /** The message being typed after choosing "No"; undefined while choosing. */
  message: string | undefined;
  answered: boolean;
  /** First body row shown when the body is cut to fit. */
  scroll: number;
}

const freshView = (request: PermissionRequest): View => ({ request, selected: 0, message: undefined, answered: false, scroll: 0 });

/** Rows `text` takes wrapped to `width`. */
const rowsOf = (text: string, width: number) => wrapText(text, Math.max(1, width)).length;

export function PermissionDialog({ request, options: offered, theme, width, queued, onAnswer, maxHeight, agent }: PermissionDialogProps) {
  const options = dialogChoices(offeredOptions({ options: offered ? [...offered] : undefined }));
  const [stateView, setView] = useState<View>(() => freshView(request));
  // Keys arrive in bursts before React re-renders: the handler reads and writes this ref, never stale state.
  const viewRef = useRef<View>(stateView);
  if (viewRef.current.request !== request) viewRef.current = freshView(request);
  const view = viewRef.current;

  const update = (next: Partial<View>) => {
    viewRef.current = { ...viewRef.current, ...next };
    setView(viewRef.current);
  };
  const answer = (reply: PermissionReply, stop = false) => {
    update({ answered: true });
    if (stop) onAnswer(reply, { stop: true });
    else onAnswer(reply);
  };
  const choose = (index: number) => {
    const option = options[index];
    if (!option) return;
    if (option.reply.kind === "deny") update({ selected: index, message: "" });
    else answer(option.reply);
  };

  const onKey = (key: Key): void => {
    const current = viewRef.current;
    if (current.answered) return;
    if (current.message !== undefined) {
      if (key.name === "escape") update({ message: undefined });
      else if (key.name === "enter") {
        const text = current.message.trim();
        answer(text === "" ? { kind: "deny" } : { kind: "deny", message: text });
      } else if (key.ctrl && key.char === "c") update({ message: current.message === "" ? undefined : "" });
      else {
        const edited = editedText(key, current.message);
        if (edited !== undefined) update({ message: edited });
      }
      return;
    }
    if (key.name === "pageup" || key.name === "pagedown") {
      const step = Math.max(1, bodyRoom - 2);
      update({ scroll: Math.max(0, current.scroll + (key.name === "pageup" ? -step : step)) });
      return;
    }
    if (key.name === "escape" || (key.ctrl && key.char === "c")) return answer({ kind: "deny" }, true);
    const move = choiceKey(key, current.selected, options.length);
    if (move && "select" in move) update({ selected: move.select });
    else if (move) choose(move.pick);
  };
  useDialogInput(onKey, (line) => {
    const current = viewRef.current;
    if (current.message !== undefined && !current.answered) update({ message: current.message + line });
  });

  const inner = Math.max(10, width - 4);
  const outside = request.outsidePaths ?? [];
  const question = describe(request, theme, inner, ALL).question;
  // Everything but the body, in rows: borders, title, reason, outside paths, question, choices, message, hint.
  const reasonRows = request.reason ? rowsOf(request.reason, inner) : 0;
  const fixed =
    2 +
    1 +
    reasonRows +
    (outside.length > 0 ? 1 + Math.min(5, outside.length) + (outside.length > 5 ? 1 : 0) : 0) +
    1 +
    rowsOf(question, inner) +
    options.reduce((sum, option) => sum + rowsOf(option.label, inner - 5), 0) +
    (view.message !== undefined ? 2 + rowsOf(`❯ ${view.message} `, inner) : 0) +
    1;
  // On a small screen the reason gets one row and the blank row before the question goes.
  const tight = maxHeight !== undefined && maxHeight - fixed < 4;
  const fixedRows = tight ? fixed - 1 - Math.max(0, reasonRows - 1) : fixed;
  const bodyRoom = maxHeight === undefined ? Number.MAX_SAFE_INTEGER : Math.max(3, maxHeight - fixedRows);
  const { title, body } = describe(request, theme, inner, { max: bodyRoom, offset: view.scroll });
  return (
    <Box flexDirection="column" width={width} borderStyle="round" borderColor={theme.warning} paddingX={1}>
      <Text bold wrap="truncate-end">
        {agent ? <Text color={theme.accent}>{`[agent ${agent}] `}</Text> : null}
        {title}
      </Text>
      {body}
      {request.reason ? (
        <Text color={theme.muted} wrap={tight ? "truncate-end" : "wrap"}>
          {request.reason}
        </Text>
      ) : null}
      {outside.length > 0 ? (
        <Box flexDirection="column" width={inner}>
          <Text color={theme.warning}>Outside the allowed directories:</Text>
          {outside.slice(0, 5).map((entry) => (
            <Text key={entry} wrap="truncate-start">
              {"  "}
              {entry}
            </Text>
          ))}
          <More count={Math.max(0, outside.length - 5)} theme={theme} />
        </Box>
      ) : null}
      <Box marginTop={tight ? 0 : 1}>
        <Text bold wrap="wrap">
          {question}
        </Text>
      </Box>
      <NumberedChoices labels={options.map((option) => option.label)} selected={view.selected} theme={theme} width={inner} />
      {view.message !== undefined ? (
        <TextAnswer prompt="Tell agent what to do differently (Enter to send, Esc to go back):" text={view.message} theme={theme} width={inner} />
      ) : null}
      <Text color={theme.muted} wrap="truncate-end">
        {[queued > 0 ? `${queued} more waiting` : "", view.message === undefined ? "↑↓ to select · Enter to confirm · Esc to stop" : ""]
          .filter((part) => part)
          .join(" · ") || " "}
      </Text>
    </Box>
  );
}
