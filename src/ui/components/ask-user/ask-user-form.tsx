/**
 * The agent's question (ask_user) as a form, one field at a time: free text and numbers are typed; yes/no,
 * one choice and several choices are picked from a list (Space ticks several), and every list ends with
 * "Other" to answer in your own words. Enter goes to the next field; after the last the answers go back.
 * Ctrl+D declines to answer, Esc cancels. It fits in `maxHeight` rows: the message is cut first.
 */
import { Box, Text } from "ink";
import { useRef, useState } from "react";
import type { ElicitationReply } from "../../../protocol/interactions.js";
import { wrapText } from "../../markdown/wrap.js";
import { isKey, type Key } from "../../terminal/keys.js";
import type { Theme } from "../../theme.js";
import { editedText, useDialogInput } from "../dialog-keys.js";
import { formFields, typedAnswer, type FormField } from "./form-fields.js";

export interface AskUserFormProps {
  message: string;
  properties: Record<string, unknown>;
  required?: string[];
  /** Who asks, when it is not the main agent. */
  agentId?: string;
  /** The MCP server asking (an elicitation), named in the header. */
  server?: string;
  theme: Theme;
  width: number;
  maxHeight?: number;
  onAnswer(reply: ElicitationReply): void;
}

interface View {
  field: number;
  values: Record<string, unknown>;
  cursor: number;
  ticked: string[];
  /** The words being typed: always for text and numbers, after "Other" for lists. */
  text: string | undefined;
  answered: boolean;
}

const startOf = (field: FormField | undefined): Pick<View, "cursor" | "ticked" | "text"> => ({
  cursor: 0,
  ticked: [],
  text: field && (field.kind === "text" || field.kind === "number") ? "" : undefined,
});

export function AskUserForm({ message, properties, required, agentId, server, theme, width, maxHeight, onAnswer }: AskUserFormProps) {
  const fields = formFields(properties, required);
  const initial: View = { field: 0, values: {}, answered: false, ...startOf(fields[0]) };
  const [, setView] = useState<View>(initial);
  const viewRef = useRef<View>(initial);
  const view = viewRef.current;
  const update = (next: Partial<View>) => {
    viewRef.current = { ...viewRef.current, ...next };
    setView(viewRef.current);
  };
  const finish = (reply: ElicitationReply) => {
    update({ answered: true });
    onAnswer(reply);
  };
  /** Records the current field's answer (undefined: left empty) and moves on. */
  const next = (value: unknown) => {
    const current = viewRef.current;
    const field = fields[current.field];
    if (!field) return;
    const empty = value === undefined || value === "" || (Array.isArray(value) && value.length === 0);
    if (empty && field.required) return;
    const values = empty ? current.values : { ...current.values, [field.name]: value };
    const following = current.field + 1;
    if (following >= fields.length) finish({ action: "accept", content: values });
    else update({ field: following, values, ...startOf(fields[following]) });
  };

  const onKey = (key: Key): void => {
    const current = viewRef.current;
    const field = fields[current.field];
    if (current.answered || !field) return;
    if (isKey(key, "ctrl+d")) return finish({ action: "decline" });
    const listed = field.kind === "boolean" || field.kind === "single" || field.kind === "multi";
    if (current.text !== undefined) {
      if (key.name === "escape") {
        if (listed) update({ text: undefined });
        else finish({ action: "cancel" });
      } else if (key.name === "enter") next(typedAnswer(field, current.text));
      else {
        const edited = editedText(key, current.text);
        if (edited !== undefined) update({ text: edited });
      }
      return;
    }
    const rows = field.choices.length + 1; // the last row is "Other"
    const pick = (index: number) => {
      if (index === field.choices.length) return update({ cursor: index, text: "" });
      const choice = field.choices[index];
      if (!choice) return;
      if (field.kind === "multi") {
        const ticked = current.ticked.length > 0 ? current.ticked : [choice.value];
        return next(field.choices.filter((item) => ticked.includes(item.value)).map((item) => item.value));
      }
      next(field.kind === "boolean" ? choice.value === "true" : choice.value);
    };
    if (key.name === "escape") finish({ action: "cancel" });
    else if (key.name === "up") update({ cursor: (current.cursor - 1 + rows) % rows });
    else if (key.name === "down" || key.name === "tab") update({ cursor: (current.cursor + 1) % rows });
    else if (key.name === "enter") pick(current.cursor);
    else if (key.name === "char" && key.char === " " && field.kind === "multi") {
      const value = field.choices[current.cursor]?.value;
      if (value !== undefined)
        update({ ticked: current.ticked.includes(value) ? current.ticked.filter((item) => item !== value) : [...current.ticked, value] });
    } else if (key.name === "char" && !key.ctrl && !key.meta && /^[1-9]$/.test(key.char) && Number(key.char) <= rows) {
      if (field.kind === "multi" && Number(key.char) <= field.choices.length) {
        const value = field.choices[Number(key.char) - 1]?.value ?? "";
        update({
          cursor: Number(key.char) - 1,
          ticked: current.ticked.includes(value) ? current.ticked.filter((item) => item !== value) : [...current.ticked, value],
        });
      } else pick(Number(key.char) - 1);
    }
  };
  useDialogInput(onKey, (line) => {
    const current = viewRef.current;
    if (current.text !== undefined && !current.answered) update({ text: current.text + line });
  });

  const field = fields[view.field];
  const inner = Math.max(10, width - 4);
  const listed = field !== undefined && view.text === undefined;
  const fieldRows = field ? 1 + (field.description ? wrapText(field.description, inner).length : 0) + (listed ? field.choices.length + 1 : 1) : 0;
  const fixed = 2 + 1 + 1 + fieldRows + 1;
  const lines = message
    .trim()
    .split("\n")
    .flatMap((line) => wrapText(line, inner));
  const room = maxHeight === undefined ? lines.length : Math.max(1, maxHeight - fixed);
  const shown = lines.length <= room ? lines : [...lines.slice(0, Math.max(0, room - 1)), "…"];
  const kindHint = field?.kind === "multi" && listed ? "Space to tick · " : "";
  return (
    <Box flexDirection="column" width={width} borderStyle="round" borderColor={theme.accent} paddingX={1}>
      <Text bold wrap="truncate-end">
        {server ? `MCP server ${server} asks${agentId ? ` (for ${agentId})` : ""}` : agentId ? `Question from ${agentId}` : "The agent asks"}
        {fields.length > 1 ? ` (${view.field + 1} of ${fields.length})` : ""}
      </Text>
      <Text>{shown.join("\n")}</Text>
      {field ? (
        <Box flexDirection="column" marginTop={1} width={inner}>
          <Text bold>
            {field.title}
            {field.required ? " *" : ""}
          </Text>
          {field.description ? <Text color={theme.muted}>{field.description}</Text> : null}
          {listed ? (
            [...field.choices.map((choice) => choice.label), "Other (answer in your own words)"].map((label, index) => {
              const selected = index === view.cursor;
              const value = field.choices[index]?.value;
              const box = field.kind === "multi" && value !== undefined ? (view.ticked.includes(value) ? "[x] " : "[ ] ") : "";
              return (
                <Text key={`${index}:${label}`} color={selected ? theme.accent : undefined} wrap="truncate-end">
                  {selected ? "❯ " : "  "}
                  {index + 1}. {box}
                  {label}
                </Text>
              );
            })
          ) : (
            <Text color={theme.accent} wrap="wrap">
              ❯ {view.text}
              <Text inverse> </Text>
            </Text>
          )}
        </Box>
      ) : null}
      <Text color={theme.muted} wrap="truncate-end">
        {kindHint}Enter to {view.field + 1 >= fields.length ? "send" : "go on"} · Ctrl+D to decline · Esc to cancel
      </Text>
    </Box>
  );
}
