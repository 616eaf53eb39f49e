/**
 * /help: the keys, the slash commands (with aliases and argument hints) and the instruction files that
 * were loaded for this session. Any key closes it. Long descriptions and paths wrap: nothing is cut off.
 */
import { Box, Text } from "ink";
import type { SlashCommand } from "../../core/index.js";
import type { Theme } from "../theme.js";
import { KEY_HELP, KeyTable, useCloseOnInput } from "./quick-help.js";

export type HelpCommand = Pick<SlashCommand, "name" | "aliases" | "description" | "argsHint">;

export interface HelpOverlayProps {
  commands: readonly HelpCommand[];
  instructionFiles: readonly string[];
  theme: Theme;
  width: number;
  onClose: () => void;
}

/** "/model [name]": the name and its argument hint. */
export function commandLabel(command: HelpCommand): string {
  return `/${command.name}${command.argsHint ? ` ${command.argsHint}` : ""}`;
}

export function HelpOverlay({ commands, instructionFiles, theme, width, onClose }: HelpOverlayProps) {
  useCloseOnInput(onClose);
  const inner = Math.max(10, width - 4);
  const sorted = [...commands].sort((a, b) => a.name.localeCompare(b.name));
  const labelWidth = Math.min(Math.floor(inner / 2), Math.max(0, ...sorted.map((command) => commandLabel(command).length)) + 2);
  return (
    <Box flexDirection="column" width={width} borderStyle="round" borderColor={theme.border} paddingX={1}>
      <Text bold>Help</Text>
      <Text color={theme.muted}>Keys</Text>
      <KeyTable entries={KEY_HELP} theme={theme} width={inner} />
      <Box marginTop={1}>
        <Text color={theme.muted}>Commands</Text>
      </Box>
      {sorted.length === 0 ? <Text color={theme.muted}>(none)</Text> : null}
      {sorted.map((command) => (
        <Box key={command.name} width={inner}>
          <Box width={labelWidth} flexShrink={0}>
            <Text color={theme.accent} wrap="truncate-end">
              {commandLabel(command)}
            </Text>
          </Box>
          <Box flexShrink={1}>
            <Text wrap="wrap">
              {command.description}
              {command.aliases && command.aliases.length > 0 ? (
                <Text color={theme.muted}> (also {command.aliases.map((alias) => `/${alias}`).join(", ")})</Text>
              ) : null}
            </Text>
          </Box>
        </Box>
      ))}
      <Box marginTop={1}>
        <Text color={theme.muted}>Instruction files</Text>
      </Box>
      {instructionFiles.length === 0 ? <Text color={theme.muted}>none loaded</Text> : null}
      {instructionFiles.map((file) => (
        <Box key={file} width={inner}>
          <Text wrap="wrap">{file}</Text>
        </Box>
      ))}
      <Box marginTop={1}>
        <Text color={theme.muted}>Press any key to close</Text>
      </Box>
    </Box>
  );
}
