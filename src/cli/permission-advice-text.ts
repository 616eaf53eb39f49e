/** The CLI's words for the engine's permission advice: its flags, written as they would be typed. */
import type { FlagSuggestion, PermissionAdvice } from "../core/index.js";

/** Quotes a word for a POSIX shell when it needs it. */
export function shellWord(word: string): string {
  return /^[A-Za-z0-9_./:@%+=,-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

export function flagText(suggestion: FlagSuggestion): string {
  return "value" in suggestion ? `${suggestion.flag} ${shellWord(suggestion.value)}` : suggestion.flag;
}

/** The advice as a sentence for the model and the user, flags written as they would be typed. */
export function adviceText(advice: PermissionAdvice): string {
  switch (advice.kind) {
    case "ask-rule":
      return `No flag allows this: the rule \`${advice.rule}\` (${advice.source}) asks every time, so it can only run where a person can approve it.`;
    case "person-only":
      return "No flag allows this: it needs a person to approve it, or a simpler command the analysis can follow.";
    case "flags": {
      const narrow = advice.narrow.map(flagText).join(" ");
      const broad = advice.broad.map(flagText).join(" ");
      return `To allow it in a non-interactive run, add ${narrow}${broad !== narrow ? ` (or ${broad}, or --yolo)` : " (or --yolo)"}.`;
    }
  }
}
