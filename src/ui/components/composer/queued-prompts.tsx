/**
 * The prompts typed while the agent works, waiting to be sent when it is idle (the engine keeps the queue).
 * Each shows on one line; ↑ on an empty prompt takes the last one back into the composer to edit or cancel.
 * After an interrupt the queue is held: Enter on an empty prompt sends it.
 */
import { Box, Text } from "ink";
import type { Theme } from "../../theme.js";

export interface QueuedPromptsProps {
  /** Oldest first. */
  items: readonly string[];
  /** Held after an interrupt until the user sends it. */
  paused?: boolean;
  theme: Theme;
  width: number;
}

/** Only this much of a prompt is looked at for its one-line preview (a queued prompt can be megabytes). */
const PREVIEW_CHARS = 400;

export function queuedPreview(text: string): string {
  const head = text.slice(0, PREVIEW_CHARS).trim();
  const lines = head.split("\n").filter((line) => line.trim() !== "");
  const first = (lines[0] ?? "").replace(/[\x00-\x1f\x7f]/g, " ").trim();
  return lines.length > 1 || text.length > PREVIEW_CHARS ? `${first} …` : first;
}

export function QueuedPrompts({ items, paused, theme, width }: QueuedPromptsProps) {
  if (items.length === 0) return null;
  return (
    <Box flexDirection="column" width={width}>
      <Text color={theme.muted} wrap="truncate-end">
        {paused ? `Queued (${items.length}), held after the interrupt · Enter to send · ↑ to edit` : `Queued (${items.length}) · ↑ to edit`}
      </Text>
      {items.map((item, index) => (
        <Text key={index} wrap="truncate-end">
          <Text color={theme.muted}>{"  ↳ "}</Text>
          {queuedPreview(item)}
        </Text>
      ))}
    </Box>
  );
}
