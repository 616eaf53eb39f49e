/**
 * `?` on an empty prompt: the keys, in two columns when there is room. Any key closes it, and that key
 * goes no further; a paste closes it and still reaches the composer.
 */
import { Box, Text } from "ink";
import type { Theme } from "../theme.js";
import { Priority } from "../terminal/input-bus.js";
import { useKeys, usePaste } from "../terminal/input-context.js";

export interface KeyHelp {
  keys: string;
  action: string;
}

/** The keys of the prompt, shared with the /help overlay. */
export const KEY_HELP: readonly KeyHelp[] = [
  { keys: "Enter", action: "send the prompt" },
  { keys: "Shift+Enter · Ctrl+J · \\ Enter", action: "new line" },
  { keys: "↑ / ↓", action: "prompt history" },
  { keys: "Ctrl+R", action: "search history" },
  { keys: "@", action: "mention files" },
  { keys: "/", action: "commands" },
  { keys: "!", action: "run a shell command" },
  { keys: "?", action: "this help" },
  { keys: "Shift+Tab", action: "cycle mode (Interactive, Plan, Autopilot)" },
  { keys: "Esc", action: "interrupt the agent" },
  { keys: "Esc Esc", action: "rewind (empty prompt)" },
  { keys: "Ctrl+C", action: "clear input, stop, or exit (twice)" },
  { keys: "Ctrl+D", action: "exit (empty prompt)" },
  { keys: "Ctrl+T", action: "show or hide reasoning" },
  { keys: "Ctrl+O", action: "full output of the last tool" },
  { keys: "Ctrl+X B", action: "move a running agent to the background" },
];

/** The key list as rows; two columns side by side when `width` allows. */
export function KeyTable({ entries, theme, width }: { entries: readonly KeyHelp[]; theme: Theme; width: number }) {
  const keyWidth = Math.max(...entries.map((entry) => entry.keys.length)) + 2;
  const columns = width >= 2 * (keyWidth + 32) ? 2 : 1;
  const perColumn = Math.ceil(entries.length / columns);
  const columnWidth = Math.floor(width / columns);
  const groups = Array.from({ length: columns }, (_, index) => entries.slice(index * perColumn, (index + 1) * perColumn));
  return (
    <Box flexDirection="row" width={width}>
      {groups.map((group, column) => (
        <Box key={column} flexDirection="column" width={columnWidth}>
          {group.map((entry) => (
            <Box key={entry.keys} width={columnWidth}>
              <Box width={keyWidth} flexShrink={0}>
                <Text color={theme.accent} wrap="truncate-end">
                  {entry.keys}
                </Text>
              </Box>
              <Box flexShrink={1}>
                <Text wrap="wrap">{entry.action}</Text>
              </Box>
            </Box>
          ))}
        </Box>
      ))}
    </Box>
  );
}

/** Any key closes an overlay (and is used up); a paste closes it too but goes on to the composer, so pasted text is never lost. */
export function useCloseOnInput(onClose: () => void): void {
  useKeys(() => {
    onClose();
    return true;
  }, Priority.dialog);
  usePaste(() => {
    onClose();
    return false;
  }, Priority.dialog);
}

export interface QuickHelpProps {
  theme: Theme;
  width: number;
  onClose: () => void;
}

export function QuickHelp({ theme, width, onClose }: QuickHelpProps) {
  useCloseOnInput(onClose);
  return (
    <Box flexDirection="column" width={width} borderStyle="round" borderColor={theme.border} paddingX={1}>
      <Text bold>Quick help</Text>
      <KeyTable entries={KEY_HELP} theme={theme} width={Math.max(10, width - 4)} />
      <Text color={theme.muted}>Press any key to close · /help for commands</Text>
    </Box>
  );
}
