/**
 * "Plan ready for review": the model called exit_plan_mode. It shows the plan's summary and the answers,
 * the recommended one first: accept and continue in autopilot · in autopilot + /fleet (when offered) ·
 * accept and continue interactively (manual approval) · exit plan mode without running it · suggest
 * changes (typed, sent back to the model). Digits,
 * ↑/↓ and Enter choose; Ctrl+Y shows the whole plan; Esc leaves the plan unapproved and stops the turn.
 * It fits in `maxHeight` rows: the summary is cut to what the title and the choices leave.
 */
import { NumberedChoices, TextAnswer } from "./numbered-choices.js";
import { Box, Text } from "ink";
import { useRef, useState } from "react";
import type { PlanAction, PlanApprovalReply } from "../../protocol/interactions.js";
import { wrapText } from "../markdown/wrap.js";
import { isKey, type Key } from "../terminal/keys.js";
import { choiceKey, editedText, useDialogInput } from "./dialog-keys.js";
import type { Theme } from "../theme.js";

export interface PlanReviewProps {
  summary: string;
  recommendedAction: string;
  /** The actions the request offers (the default three when absent). */
  actions?: readonly string[];
  theme: Theme;
  width: number;
  maxHeight?: number;
  onAnswer(reply: PlanApprovalReply, options?: { stop: boolean }): void;
  /** Ctrl+Y: show the plan file's text. */
  onShowPlan(): void;
}

export interface PlanChoice {
  label: string;
  /** undefined: "suggest changes", which opens the feedback input. */
  action: PlanAction | undefined;
}

const LABELS: Record<PlanAction, string> = {
  autopilot: "Accept plan and continue in autopilot",
  autopilot_fleet: "Accept plan and continue in autopilot + /fleet (parallel agents)",
  interactive: "Accept plan and continue interactively (manual approval)",
  exit_only: "Exit plan mode without running the plan",
};

/**
 * The answers in the order shown: the recommended one first, marked; "suggest changes" last. `offered` is
 * what the request lists (autopilot + /fleet only when the model offered it).
 */
export function planChoices(recommended: string, offered: readonly string[] = ["autopilot", "interactive", "exit_only"]): PlanChoice[] {
  const order = (Object.keys(LABELS) as PlanAction[]).filter((action) => offered.includes(action));
  const first = order.find((action) => action === recommended) ?? order[0] ?? "autopilot";
  const sorted = [first, ...order.filter((action) => action !== first)];
  return [
    ...sorted.map((action) => ({ label: action === first ? `${LABELS[action]} (recommended)` : LABELS[action], action })),
    { label: "Suggest changes (tell the agent what to change)", action: undefined },
  ];
}

interface View {
  selected: number;
  /** The feedback being typed after "suggest changes"; undefined while choosing. */
  feedback: string | undefined;
  answered: boolean;
}

export function PlanReviewDialog({ summary, recommendedAction, actions, theme, width, maxHeight, onAnswer, onShowPlan }: PlanReviewProps) {
  const choices = planChoices(recommendedAction, actions);
  const [, setView] = useState<View>({ selected: 0, feedback: undefined, answered: false });
  const viewRef = useRef<View>({ selected: 0, feedback: undefined, answered: false });
  const view = viewRef.current;
  const update = (next: Partial<View>) => {
    viewRef.current = { ...viewRef.current, ...next };
    setView(viewRef.current);
  };
  const answer = (reply: PlanApprovalReply, stop = false) => {
    update({ answered: true });
    onAnswer(reply, stop ? { stop: true } : undefined);
  };
  const choose = (index: number) => {
    const choice = choices[index];
    if (!choice) return;
    if (choice.action === undefined) update({ selected: index, feedback: "" });
    else answer({ approved: true, selectedAction: choice.action });
  };

  const onKey = (key: Key): void => {
    const current = viewRef.current;
    if (current.answered) return;
    if (isKey(key, "ctrl+y")) {
      onShowPlan();
      return;
    }
    if (current.feedback !== undefined) {
      if (key.name === "escape") update({ feedback: undefined });
      else if (key.name === "enter") {
        const text = current.feedback.trim();
        if (text !== "") answer({ approved: false, feedback: text });
      } else {
        const edited = editedText(key, current.feedback);
        if (edited !== undefined) update({ feedback: edited });
      }
      return;
    }
    if (key.name === "escape" || isKey(key, "ctrl+c")) return answer({ approved: false }, true);
    const move = choiceKey(key, current.selected, choices.length);
    if (move && "select" in move) update({ selected: move.select });
    else if (move) choose(move.pick);
  };
  useDialogInput(onKey, (line) => {
    const current = viewRef.current;
    if (current.feedback !== undefined && !current.answered) update({ feedback: current.feedback + line });
  });

  const inner = Math.max(10, width - 4);
  const rowsOf = (text: string, room: number) => wrapText(text, Math.max(1, room)).length;
  // Borders, title, the margin and question, the choices, the hint; the feedback input when open.
  const fixed =
    2 +
    1 +
    2 +
    choices.reduce((sum, choice) => sum + rowsOf(choice.label, inner - 5), 0) +
    1 +
    (view.feedback !== undefined ? 2 + rowsOf(`❯ ${view.feedback} `, inner) : 0);
  const lines = summary
    .trim()
    .split("\n")
    .flatMap((line) => wrapText(line, inner));
  const room = maxHeight === undefined ? lines.length : Math.max(1, maxHeight - fixed);
  const shown = lines.length <= room ? lines : lines.slice(0, Math.max(1, room - 1));
  const hidden = lines.length - shown.length;
  return (
    <Box flexDirection="column" width={width} borderStyle="round" borderColor={theme.accent} paddingX={1}>
      <Text bold wrap="truncate-end">
        Plan ready for review
      </Text>
      <Text>{shown.join("\n")}</Text>
      {hidden > 0 ? (
        <Text color={theme.muted}>
          … {hidden} more line{hidden === 1 ? "" : "s"} (Ctrl+Y shows the whole plan)
        </Text>
      ) : null}
      <Box marginTop={1}>
        <Text bold>How do you want to go on?</Text>
      </Box>
      <NumberedChoices labels={choices.map((choice) => choice.label)} selected={view.selected} theme={theme} width={inner} />
      {view.feedback !== undefined ? (
        <TextAnswer prompt="What should change? (Enter to send, Esc to go back):" text={view.feedback} theme={theme} width={inner} />
      ) : null}
      <Text color={theme.muted} wrap="truncate-end">
        {view.feedback === undefined ? "↑↓ to select · Enter to confirm · Ctrl+Y to view the plan · Esc to stop" : "Ctrl+Y to view the plan"}
      </Text>
    </Box>
  );
}
