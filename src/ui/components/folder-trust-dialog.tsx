/**
 * Asked once, before the session opens, when the TUI starts where the repository brings programs folder trust
 * holds back (hooks, MCP servers, agent files' servers): they run code written by whoever wrote the repository.
 * Names the folder and what would run; trust this time, always (remembered in config.json), or not (the
 * repository's hooks and servers stay off). Esc is "not".
 */
import { Box, Text } from "ink";
import { useRef, useState } from "react";
import { neutraliseTerminalText } from "../../util/terminal-text.js";
import { Priority } from "../terminal/input-bus.js";
import { useKeys } from "../terminal/input-context.js";
import type { Theme } from "../theme.js";

export type FolderTrustAnswer = "once" | "always" | "no";

export interface FolderTrustDialogProps {
  folder: string;
  /** What would run: "preToolUse: ./check.sh (.github/hooks/guard.json)", "MCP server db: node db.js (.mcp.json)". */
  commands: readonly string[];
  theme: Theme;
  width: number;
  onAnswer(answer: FolderTrustAnswer): void;
}

const CHOICES: { answer: FolderTrustAnswer; label: string }[] = [
  { answer: "once", label: "Yes, trust this folder for this session" },
  { answer: "always", label: "Yes, and remember this folder" },
  { answer: "no", label: "No, start without the repository's hooks and servers" },
];

const SHOWN = 8;

export function FolderTrustDialog({ folder, commands, theme, width, onAnswer }: FolderTrustDialogProps) {
  const [selected, setSelected] = useState(0);
  const current = useRef(0);
  const done = useRef(false);
  const choose = (index: number) => {
    const choice = CHOICES[index];
    if (!choice || done.current) return;
    done.current = true;
    onAnswer(choice.answer);
  };
  const move = (index: number) => {
    current.current = index;
    setSelected(index);
  };
  useKeys((key) => {
    if (key.name === "escape" || (key.ctrl && key.char === "c")) choose(2);
    else if (key.name === "up") move((current.current - 1 + CHOICES.length) % CHOICES.length);
    else if (key.name === "down" || key.name === "tab") move((current.current + 1) % CHOICES.length);
    else if (key.name === "enter") choose(current.current);
    else if (key.name === "char" && /^[1-3]$/.test(key.char)) choose(Number(key.char) - 1);
    return true;
  }, Priority.dialog);
  return (
    <Box flexDirection="column" width={width} borderStyle="round" borderColor={theme.warning} paddingX={1}>
      <Text bold>Do you trust the files in this folder?</Text>
      <Text wrap="truncate-start">{neutraliseTerminalText(folder)}</Text>
      <Box marginTop={1} flexDirection="column">
        <Text>Its repository would run these commands on your machine:</Text>
        {commands.slice(0, SHOWN).map((command, index) => (
          <Text key={`${index}-${command}`} color={theme.accent} wrap="truncate-end">
            {"  "}
            {neutraliseTerminalText(command)}
          </Text>
        ))}
        {commands.length > SHOWN ? <Text color={theme.muted}>{`  … and ${commands.length - SHOWN} more`}</Text> : null}
      </Box>
      <Box marginTop={1} flexDirection="column">
        {CHOICES.map((choice, index) => (
          <Text key={choice.answer} color={index === selected ? theme.accent : undefined}>
            {index === selected ? "❯ " : "  "}
            {index + 1}. {choice.label}
          </Text>
        ))}
      </Box>
      <Text color={theme.muted}>↑↓ to select · Enter to confirm · Esc for no</Text>
    </Box>
  );
}
