/**
 * /rewind (and Esc Esc on an empty prompt): pick a point (a prompt, with the files changed from it on, or
 * an earlier rewind to undo it), then what goes back (conversation and files, conversation only, files
 * only), then a preview of what changes and a confirmation. Files changed since the agent's last change are
 * named in the preview and kept unless the person chooses to overwrite them.
 */
import { Box, Text } from "ink";
import { useEffect, useReducer, useRef } from "react";
import { SCOPE_LABELS, describePoint, shownPath } from "../../core/rewind/rewind-text.js";
import type { RewindPoint, RewindPreview, RewindScope } from "../../protocol/rewind.js";
import { neutraliseTerminalText } from "../../util/terminal-text.js";
import type { Theme } from "../theme.js";
import { choiceKey, useDialogInput } from "./dialog-keys.js";
import { windowStart } from "./list-picker.js";
import { NumberedChoices } from "./numbered-choices.js";

export interface RewindDialogProps {
  points: readonly RewindPoint[];
  cwd: string;
  theme: Theme;
  width: number;
  preview(eventId: string, scope: RewindScope): Promise<RewindPreview | string>;
  /** `overwrite`: also put back files changed since the agent's last change. */
  onRewind(eventId: string, scope: RewindScope, overwrite: boolean): void;
  onCancel(): void;
}

type Stage =
  | { kind: "pick"; index: number }
  | { kind: "scope"; index: number; choice: number }
  | { kind: "preview"; index: number; scope: RewindScope; preview?: RewindPreview | string; choice: number };

const SCOPES: RewindScope[] = ["conversation-and-files", "conversation", "files"];
const VISIBLE_ROWS = 10;

function confirmLabels(preview: RewindPreview): string[] {
  const changed = preview.files.filter((file) => file.changedSince).length;
  if (changed === 0) return ["Rewind", "Cancel"];
  return [`Rewind, and keep the ${changed} file${changed === 1 ? "" : "s"} changed since as they are`, "Rewind, and overwrite those changes too", "Cancel"];
}

function PreviewBody({ preview, cwd, theme }: { preview: RewindPreview; cwd: string; theme: Theme }) {
  const safe = (text: string) => neutraliseTerminalText(text);
  return (
    <Box flexDirection="column" marginBottom={1}>
      {preview.scope !== "files" && <Text>Conversation: {preview.eventsRemoved} events after this point are hidden from the model (kept in the log).</Text>}
      {preview.scope !== "conversation" &&
        (preview.files.length === 0 ? (
          <Text>Files: nothing to restore.</Text>
        ) : (
          preview.files.map((file) => (
            <Text key={file.path} {...(file.changedSince ? { color: theme.warning } : {})}>
              {"  "}
              {file.change === "delete" ? "delete  " : file.change === "recreate" ? "recreate" : "restore "} {safe(shownPath(file.path, cwd))}
              {file.linesAdded + file.linesRemoved > 0 ? ` (+${file.linesAdded} −${file.linesRemoved})` : ""}
              {file.changedSince ? "  changed since the agent's last change" : ""}
            </Text>
          ))
        ))}
      {preview.incomplete.map((reason) => (
        <Text key={reason} color={theme.warning}>
          Not restorable: {safe(reason)}
        </Text>
      ))}
    </Box>
  );
}

export function RewindDialog(props: RewindDialogProps) {
  const { points, theme, width, cwd } = props;
  // Keys can arrive faster than renders (Up then Enter in one read): each key sees the stage the last one left.
  const current = useRef<Stage>({ kind: "pick", index: Math.max(0, points.length - 1) });
  const [, rerender] = useReducer((count: number) => count + 1, 0);
  const setStage = (next: Stage | ((stage: Stage) => Stage)) => {
    current.current = typeof next === "function" ? next(current.current) : next;
    rerender();
  };
  const stage = current.current;

  // The preview is asked for once per point and scope.
  const previewKey = stage.kind === "preview" ? `${stage.index}:${stage.scope}` : undefined;
  useEffect(() => {
    if (stage.kind !== "preview" || stage.preview !== undefined) return;
    let live = true;
    const point = points[stage.index] as RewindPoint;
    props
      .preview(point.eventId, stage.scope)
      .then((preview) => live && setStage((current) => (current.kind === "preview" ? { ...current, preview } : current)))
      .catch((error: unknown) => live && setStage((current) => (current.kind === "preview" ? { ...current, preview: (error as Error).message } : current)));
    return () => {
      live = false;
    };
  }, [previewKey]);

  useDialogInput(
    (key) => {
      const stage = current.current;
      const cancel = key.name === "escape" || (key.ctrl && key.char === "c");
      if (stage.kind === "pick") {
        if (cancel || points.length === 0) return props.onCancel();
        if (key.name === "up" || key.name === "down") {
          const index = (stage.index + (key.name === "up" ? -1 : 1) + points.length) % points.length;
          return setStage({ kind: "pick", index });
        }
        if (key.name === "enter") return setStage({ kind: "scope", index: stage.index, choice: 0 });
        return;
      }
      if (stage.kind === "scope") {
        if (cancel) return setStage({ kind: "pick", index: stage.index });
        const chosen = choiceKey(key, stage.choice, SCOPES.length);
        if (chosen && "select" in chosen) return setStage({ ...stage, choice: chosen.select });
        if (chosen && "pick" in chosen && chosen.pick < SCOPES.length) {
          return setStage({ kind: "preview", index: stage.index, scope: SCOPES[chosen.pick] as RewindScope, choice: 0 });
        }
        return;
      }
      if (cancel) return setStage({ kind: "scope", index: stage.index, choice: SCOPES.indexOf(stage.scope) });
      const preview = stage.preview;
      if (preview === undefined) return;
      if (typeof preview === "string") return key.name === "enter" ? props.onCancel() : undefined;
      const labels = confirmLabels(preview);
      const chosen = choiceKey(key, stage.choice, labels.length);
      if (chosen && "select" in chosen) return setStage({ ...stage, choice: chosen.select });
      if (!chosen || !("pick" in chosen) || chosen.pick >= labels.length) return;
      if (chosen.pick === labels.length - 1) return props.onCancel();
      props.onRewind((points[stage.index] as RewindPoint).eventId, stage.scope, chosen.pick === 1);
    },
    () => undefined,
  );

  if (points.length === 0) {
    return (
      <Box flexDirection="column" borderStyle="round" borderColor={theme.border} paddingX={1} width={width}>
        <Text>Nothing to rewind to yet: no prompt was sent in this session.</Text>
        <Text color={theme.muted}>Esc to close</Text>
      </Box>
    );
  }
  const point = points[stage.index] as RewindPoint;
  const start = windowStart(stage.index, points.length, VISIBLE_ROWS);
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={theme.border} paddingX={1} width={width}>
      <Text bold>Rewind</Text>
      {stage.kind === "pick" && (
        <>
          <Text color={theme.muted}>Go back to before which point? The files listed are those the agent changed from there on.</Text>
          {points.slice(start, start + VISIBLE_ROWS).map((candidate, offset) => {
            const selected = start + offset === stage.index;
            return (
              <Text key={candidate.eventId} color={selected ? theme.accent : undefined} wrap="truncate-end">
                {selected ? "❯ " : "  "}
                {neutraliseTerminalText(describePoint(candidate, cwd))}
              </Text>
            );
          })}
          <Text color={theme.muted}>↑↓ select · Enter choose · Esc cancel</Text>
        </>
      )}
      {stage.kind !== "pick" && <Text wrap="truncate-end">Back to before: {neutraliseTerminalText(describePoint(point, cwd))}</Text>}
      {stage.kind === "scope" && (
        <>
          <Text>What goes back?</Text>
          <NumberedChoices labels={SCOPES.map((scope) => SCOPE_LABELS[scope])} selected={stage.choice} theme={theme} width={width - 4} />
          <Text color={theme.muted}>Enter choose · Esc back</Text>
        </>
      )}
      {stage.kind === "preview" &&
        (stage.preview === undefined ? (
          <Text color={theme.muted}>Working out what changes…</Text>
        ) : typeof stage.preview === "string" ? (
          <>
            <Text color={theme.error}>{neutraliseTerminalText(stage.preview)}</Text>
            <Text color={theme.muted}>Enter or Esc to close</Text>
          </>
        ) : (
          <>
            <Text>{SCOPE_LABELS[stage.scope]}:</Text>
            <PreviewBody preview={stage.preview} cwd={cwd} theme={theme} />
            <NumberedChoices labels={confirmLabels(stage.preview)} selected={stage.choice} theme={theme} width={width - 4} />
          </>
        ))}
    </Box>
  );
}
