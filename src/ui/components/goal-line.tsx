/**
 * Autopilot's goal: one line above the composer while autopilot is on and has an objective
 * (`/autopilot <objective>`), so the person sees what the agent is working toward. Long objectives are cut
 * to the width; the objective is the model's and the user's text, so it is neutralised before it is shown.
 */
import { Text } from "ink";
import { neutraliseTerminalText } from "../../util/terminal-text.js";
import type { Theme } from "../theme.js";

export interface GoalLineProps {
  objective: string | undefined;
  autopilot: boolean;
  theme: Theme;
  width: number;
}

export function GoalLine({ objective, autopilot, theme, width }: GoalLineProps) {
  if (!autopilot || !objective) return null;
  const label = "◎ Goal: ";
  const oneLine = neutraliseTerminalText(objective).replace(/\s+/g, " ").trim();
  const room = Math.max(8, width - label.length - 1);
  const shown = oneLine.length > room ? `${oneLine.slice(0, room - 1)}…` : oneLine;
  return (
    <Text>
      <Text color={theme.accent} bold>
        {label}
      </Text>
      <Text>{shown}</Text>
    </Text>
  );
}
