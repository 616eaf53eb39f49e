/**
 * A unified diff as the transcript shows it under an edit or a create: file headers dropped, hunk headers
 * dim, added lines green and removed lines red, each with its line number (new file; old file for removed
 * lines), lines cut to the width, and at most `maxLines` rows.
 */
import type { Theme } from "../theme.js";
import { stylesFor } from "./styles.js";
import { expandTabs, truncateToWidth } from "./wrap.js";

export interface RenderDiffOptions {
  width: number;
  theme: Theme;
  /** Rows shown before "… N more lines"; 40 by default. */
  maxLines?: number;
}

type Row = { kind: "hunk"; text: string } | { kind: "add" | "remove" | "context"; number: number; text: string } | { kind: "note"; text: string };

const HUNK = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@(.*)$/;
const FILE_HEADER = /^(--- |\+\+\+ |Index: |={3,}|diff --git |new file mode |deleted file mode |index [0-9a-f]+\.\.|similarity index |rename (from|to) )/;

function parse(diff: string): Row[] {
  const rows: Row[] = [];
  let oldLine = 0;
  let newLine = 0;
  let oldLeft = 0; // lines of the current hunk still to come, so "--- x" inside a hunk is content
  let newLeft = 0;
  const lines = diff.replace(/\r\n/g, "\n").split("\n");
  if (lines.at(-1) === "") lines.pop();
  for (const line of lines) {
    if (oldLeft > 0 || newLeft > 0) {
      const sign = line[0];
      const text = line.slice(1);
      if (sign === "+") {
        rows.push({ kind: "add", number: newLine++, text });
        newLeft--;
        continue;
      }
      if (sign === "-") {
        rows.push({ kind: "remove", number: oldLine++, text });
        oldLeft--;
        continue;
      }
      if (sign === " " || line === "") {
        rows.push({ kind: "context", number: newLine, text });
        oldLine++;
        newLine++;
        oldLeft--;
        newLeft--;
        continue;
      }
      if (sign === "\\") {
        rows.push({ kind: "note", text: line });
        continue;
      }
      oldLeft = 0; // a malformed hunk: fall through to headers
      newLeft = 0;
    }
    const hunk = HUNK.exec(line);
    if (hunk) {
      oldLine = Number(hunk[1]);
      newLine = Number(hunk[3]);
      oldLeft = hunk[2] === undefined ? 1 : Number(hunk[2]);
      newLeft = hunk[4] === undefined ? 1 : Number(hunk[4]);
      rows.push({ kind: "hunk", text: line });
      continue;
    }
    if (FILE_HEADER.test(line) || line.trim() === "") continue;
    rows.push({ kind: "note", text: line });
  }
  return rows;
}

export function renderDiff(unifiedDiff: string, options: RenderDiffOptions): string {
  const styles = stylesFor(options.theme);
  const maxLines = Math.max(1, options.maxLines ?? 40);
  const width = Math.max(8, Math.floor(options.width));
  const rows = parse(unifiedDiff);
  if (rows.length === 0) return "";
  const shown = rows.slice(0, maxLines);
  const largest = shown.reduce((max, row) => ("number" in row ? Math.max(max, row.number) : max), 0);
  const gutter = String(largest).length;
  const textWidth = Math.max(1, width - gutter - 3);
  const out = shown.map((row) => {
    if (row.kind === "hunk" || row.kind === "note") return styles.muted(truncateToWidth(row.text, width));
    const number = String(row.number).padStart(gutter);
    const text = truncateToWidth(expandTabs(row.text), textWidth);
    if (row.kind === "add") return styles.success(`${number} + ${text}`);
    if (row.kind === "remove") return styles.error(`${number} - ${text}`);
    return `${styles.muted(number)}   ${text}`;
  });
  const more = rows.length - shown.length;
  if (more > 0) out.push(styles.muted(`… ${more} more line${more === 1 ? "" : "s"} (ctrl+o to expand)`));
  return out.join("\n");
}
