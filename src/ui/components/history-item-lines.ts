/**
 * One finished transcript item as lines of text: wrapped to the width, styled through the theme's chalk (see
 * markdown/styles.ts), so a plain theme prints no ANSI code. Without Ink: the <HistoryItem> component
 * (history-item.tsx) shows them in <Static>, and what is printed straight to the terminal (a resumed
 * session's past, its last exchange in the first frame) uses them as they are.
 */
import { renderDiff } from "../markdown/render-diff.js";
import { renderMarkdown } from "../markdown/render-markdown.js";
import { stylesFor, type MarkdownStyles } from "../markdown/styles.js";
import { displayWidth, truncateToWidth, wrapText, type Style } from "../markdown/wrap.js";
import type { TranscriptItem } from "../state/transcript-types.js";
import type { Theme } from "../theme.js";
import { contextGridLines } from "./context-grid.js";

type ItemOf<K extends TranscriptItem["kind"]> = Extract<TranscriptItem, { kind: K }>;

/** "20ms", "1.2s", "45.0s", "2m 05s". */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.max(0, Math.round(ms))}ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)}s`;
  const seconds = Math.round(ms / 1000);
  return `${Math.floor(seconds / 60)}m ${String(seconds % 60).padStart(2, "0")}s`;
}

/** Prefixes the first line with `lead` and the others with as many spaces (a hanging indent). */
function hang(lead: string, leadWidth: number, lines: readonly string[]): string[] {
  const indent = " ".repeat(leadWidth);
  return lines.map((line, index) => (index === 0 ? lead + line : line === "" ? "" : indent + line));
}

/** Wraps text to the width left after a lead, then hangs it on the lead. */
function led(lead: string, leadWidth: number, text: string, width: number, style?: Style): string[] {
  return hang(lead, leadWidth, wrapText(text, Math.max(1, width - leadWidth), style));
}

function lineCount(text: string): number {
  const trimmed = text.trim();
  return trimmed === "" ? 0 : trimmed.split("\n").length;
}

function userLines(item: ItemOf<"user">, width: number, styles: MarkdownStyles): string[] {
  if (item.shell) return led(`${styles.warning("!")} `, 2, item.text, width);
  return led(`${styles.user("›")} `, 2, item.text, width);
}

function reasoningLines(item: ItemOf<"reasoning">, width: number, styles: MarkdownStyles, expanded: boolean): string[] {
  const count = lineCount(item.text);
  if (!expanded) return [styles.dim(truncateToWidth(`∴ Thought (${count} line${count === 1 ? "" : "s"}) · ctrl+t to show`, width))];
  const body = wrapText(item.text.trim(), Math.max(1, width - 2), (text) => styles.dim(styles.italic(text)));
  return [styles.dim("∴ Thought"), ...hang("  ", 2, body)];
}

/** Lines of a `!cmd`'s output shown in the transcript; Ctrl+O prints all of it. */
export const SHELL_OUTPUT_LINES = 20;

/** A `!cmd`'s output under its title: the first lines, each cut to the width, then how many more there are. */
function shellOutputLines(output: string, width: number, failed: boolean, styles: MarkdownStyles): string[] {
  const all = output.replace(/\s+$/, "").split("\n");
  if (all.length === 1 && all[0] === "") return [];
  const shown = all.slice(0, SHELL_OUTPUT_LINES);
  const lines = shown.map((line, index) => {
    const text = truncateToWidth(line.replace(/\t/g, "  "), Math.max(1, width - 4));
    return `${styles.muted(index === 0 ? "  └ " : "    ")}${failed ? styles.error(text) : text}`;
  });
  const more = all.length - shown.length;
  if (more > 0) lines.push(styles.muted(truncateToWidth(`    … ${more} more line${more === 1 ? "" : "s"} (ctrl+o shows all)`, width)));
  return lines;
}

function toolLines(item: ItemOf<"tool">, width: number, theme: Theme, styles: MarkdownStyles): string[] {
  const failed = item.status === "failure";
  const glyph = failed ? styles.error("✗") : styles.success("✓");
  const duration = item.durationMs > 0 ? ` (${formatDuration(item.durationMs)})` : "";
  const title = truncateToWidth(item.title.replace(/\s*\n\s*/g, " "), Math.max(1, width - 2 - displayWidth(duration)));
  const lines = [`${glyph} ${styles.bold(title)}${styles.muted(duration)}`];
  if (item.userRequested) return [...lines, ...shellOutputLines(item.output, width, failed, styles)];
  const summary = item.summary.trim();
  if (summary !== "") {
    const text = truncateToWidth(summary.split("\n")[0] ?? "", Math.max(1, width - 4));
    lines.push(`${styles.muted("  └ ")}${failed ? styles.error(text) : styles.muted(text)}`);
  }
  if (item.diff) {
    const diff = renderDiff(item.diff, { width: Math.max(8, width - 4), theme });
    if (diff !== "") lines.push(...diff.split("\n").map((line) => `    ${line}`));
  }
  return lines;
}

function noticeLines(item: ItemOf<"notice">, width: number, styles: MarkdownStyles): string[] {
  if (item.level === "error") return led(styles.error("✗ "), 2, item.text, width, styles.error);
  return wrapText(item.text, width, item.level === "warning" ? styles.warning : styles.muted);
}

function taskCompleteLines(item: ItemOf<"task-complete">, width: number, theme: Theme, styles: MarkdownStyles): string[] {
  const header = styles.success(styles.bold("✓ Task complete"));
  const body = renderMarkdown(item.summary, { width: Math.max(1, width - 2), theme });
  return body === "" ? [header] : [header, ...hang("  ", 2, body.split("\n"))];
}

function subagentLines(item: ItemOf<"subagent">, width: number, styles: MarkdownStyles): string[] {
  const failed = item.status === "failed";
  const glyph = failed ? styles.error("●") : styles.success("●");
  const detail = item.detail.trim() === "" ? "" : ` · ${item.detail.trim()}`;
  const [first = "", ...rest] = wrapText(`${item.name} ${item.status}${detail}`, Math.max(1, width - 2));
  // Bold the name where it starts the first line (it may have been wrapped inside the name; then leave it).
  const head = first.startsWith(item.name) ? styles.bold(item.name) + first.slice(item.name.length) : first;
  return hang(`${glyph} `, 2, [head, ...rest]);
}

/** Rows of one file's diff at most: /diff is asked for, so it shows nearly everything. */
const MAX_DIFF_ROWS_PER_FILE = 400;

/** /diff: a header per file (renderDiff drops the file headers), then its hunks in colour. */
function workingTreeDiffLines(item: ItemOf<"diff">, width: number, theme: Theme, styles: MarkdownStyles): string[] {
  const lines = [styles.bold(truncateToWidth(item.summary, width))];
  for (const file of item.patch.split(/^(?=diff --git )/m)) {
    const name = /^diff --git a\/(.*?) b\/(.*)$/m.exec(file)?.[2] ?? /^\+\+\+ b\/(.*)$/m.exec(file)?.[1];
    if (name === undefined) continue;
    const status = /^new file mode/m.test(file) ? " (new)" : /^deleted file mode/m.test(file) ? " (deleted)" : "";
    lines.push("", styles.accent(truncateToWidth(`${name}${status}`, width)));
    const body = renderDiff(file, { width: Math.max(8, width - 2), theme, maxLines: MAX_DIFF_ROWS_PER_FILE });
    if (body !== "") lines.push(...body.split("\n").map((line) => `  ${line}`));
    else if (/^Binary files/m.test(file)) lines.push(styles.muted("  (binary)"));
  }
  return lines;
}

export function historyItemLines(item: TranscriptItem, width: number, theme: Theme, showReasoning: boolean): string[] {
  const styles = stylesFor(theme);
  const columns = Math.max(4, Math.floor(width));
  switch (item.kind) {
    case "user":
      return userLines(item, columns, styles);
    case "assistant":
      return renderMarkdown(item.markdown, { width: columns, theme }).split("\n");
    case "reasoning":
      return reasoningLines(item, columns, styles, showReasoning);
    case "tool":
      return toolLines(item, columns, theme, styles);
    case "notice":
      return noticeLines(item, columns, styles);
    case "fleet":
      return wrapText(`◆ ${item.text}`, columns, (text) => styles.accent(styles.bold(text)));
    case "task-complete":
      return taskCompleteLines(item, columns, theme, styles);
    case "subagent":
      return subagentLines(item, columns, styles);
    case "diff":
      return workingTreeDiffLines(item, columns, theme, styles);
    case "context":
      return contextGridLines(item.usage, item.model, item.footnote, columns, styles);
    case "output":
      return [
        styles.muted(`── output of ${item.title} ──`),
        ...item.text.split("\n").flatMap((line) => wrapText(line, columns)),
        styles.muted("── end of output ──"),
      ];
  }
}
