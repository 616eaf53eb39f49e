/**
 * What every question dialog shares: its numbered choices (the selected one marked) and the line where a
 * free-text answer is typed.
 */
import { Box, Text } from "ink";
import type { Theme } from "../theme.js";

export function NumberedChoices({ labels, selected, theme, width }: { labels: readonly string[]; selected: number; theme: Theme; width: number }) {
  return (
    <>
      {labels.map((label, index) => {
        const isSelected = index === selected;
        return (
          <Box key={label} width={width}>
            <Box flexShrink={0}>
              <Text color={isSelected ? theme.accent : undefined}>
                {isSelected ? "❯ " : "  "}
                {index + 1}.{" "}
              </Text>
            </Box>
            <Text color={isSelected ? theme.accent : undefined} wrap="wrap">
              {label}
            </Text>
          </Box>
        );
      })}
    </>
  );
}

export function TextAnswer({ prompt, text, theme, width }: { prompt: string; text: string; theme: Theme; width: number }) {
  return (
    <Box flexDirection="column" marginTop={1} width={width}>
      <Text>{prompt}</Text>
      <Text color={theme.accent} wrap="wrap">
        ❯ {text}
        <Text inverse> </Text>
      </Text>
    </Box>
  );
}
