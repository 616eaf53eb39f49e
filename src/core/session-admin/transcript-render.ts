/**
 * A transcript as a Markdown file or a self-contained HTML page (inline style, no script, nothing fetched).
 * Tool calls are collapsed in <details>. In the page every piece of text from the conversation is
 * HTML-escaped: a model's answer or a tool's output is shown, never interpreted as markup.
 */
import type { Transcript, TranscriptEntry } from "./transcript.js";

/** A code fence longer than any run of backticks in the text, so the text cannot close it. */
function fence(text: string, info = ""): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((match) => match[0].length));
  const marks = "`".repeat(longest + 1);
  return `${marks}${info}\n${text.replace(/\n$/, "")}\n${marks}`;
}

const STATUS_MARK: Record<Extract<TranscriptEntry, { kind: "tool" }>["status"], string> = { success: "✓", failure: "✗", unfinished: "…" };

/** Text for a <summary> line in Markdown: one line, with the characters that would start markup escaped. */
function summaryText(text: string): string {
  return escapeHtml(text.replace(/\s*\n\s*/g, " "));
}

function header(transcript: Transcript): string[] {
  return [
    `Session ${transcript.sessionId}`,
    ...(transcript.startedAt ? [`started ${transcript.startedAt}`] : []),
    ...(transcript.cwd ? [`in ${transcript.cwd}`] : []),
  ];
}

export function transcriptMarkdown(transcript: Transcript): string {
  const parts = [`# ${transcript.title.replace(/\n/g, " ")}`, `_${header(transcript).join(" · ")}_`];
  for (const entry of transcript.entries) {
    switch (entry.kind) {
      case "user":
        if (entry.command !== undefined) {
          const sent = ["<details>", `<summary>The prompt /${summaryText(entry.command)} sent</summary>`, "", fence(entry.text), "", "</details>"];
          parts.push(`## User\n\n\`${(entry.typed ?? `/${entry.command}`).replace(/\s*\n\s*/g, " ")}\`\n\n${sent.join("\n")}`);
        } else parts.push(entry.shell ? `## User (shell)\n\n${fence(entry.text, "sh")}` : `## User\n\n${entry.text}`);
        break;
      case "assistant":
        parts.push(`## Agent\n\n${entry.text}`);
        break;
      case "tool":
        parts.push(
          [
            "<details>",
            `<summary>${STATUS_MARK[entry.status]} ${summaryText(entry.title)} (${summaryText(entry.name)})</summary>`,
            "",
            ...(entry.arguments !== "" ? ["Arguments:", "", fence(entry.arguments, "json"), ""] : []),
            ...(entry.output !== "" ? [entry.status === "failure" ? "Error:" : "Result:", "", fence(entry.output), ""] : []),
            "</details>",
          ].join("\n"),
        );
        break;
      case "note":
        parts.push(`> ${entry.text.replace(/\n/g, "\n> ")}`);
        break;
    }
  }
  return `${parts.join("\n\n")}\n`;
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[char] as string);
}

const STYLE = `
body { font: 15px/1.5 system-ui, sans-serif; max-width: 52rem; margin: 2rem auto; padding: 0 1rem; color: #1f2328; background: #fff; }
header p { color: #59636e; margin-top: 0; }
section { margin: 1.25rem 0; }
h2 { font-size: 0.85rem; text-transform: uppercase; letter-spacing: 0.05em; color: #59636e; margin: 0 0 0.25rem; }
.text { white-space: pre-wrap; overflow-wrap: anywhere; }
.user .text { background: #f6f8fa; border-left: 3px solid #0969da; padding: 0.5rem 0.75rem; }
details { border: 1px solid #d1d9e0; border-radius: 6px; padding: 0.25rem 0.75rem; margin: 0.5rem 0; }
summary { cursor: pointer; font-family: ui-monospace, monospace; font-size: 0.9rem; }
.failure summary { color: #cf222e; }
pre { background: #f6f8fa; padding: 0.5rem; overflow-x: auto; white-space: pre-wrap; overflow-wrap: anywhere; font-size: 0.85rem; }
.note { color: #59636e; font-style: italic; }
`;

function htmlEntry(entry: TranscriptEntry): string {
  switch (entry.kind) {
    case "user":
      if (entry.command !== undefined)
        return `<section class="user"><h2>User</h2><div class="text">${escapeHtml(entry.typed ?? `/${entry.command}`)}</div><details><summary>The prompt /${escapeHtml(entry.command)} sent</summary><pre>${escapeHtml(entry.text)}</pre></details></section>`;
      return `<section class="user"><h2>User${entry.shell ? " (shell)" : ""}</h2><div class="text">${escapeHtml(entry.text)}</div></section>`;
    case "assistant":
      return `<section class="assistant"><h2>Agent</h2><div class="text">${escapeHtml(entry.text)}</div></section>`;
    case "tool":
      return [
        `<details class="tool ${entry.status}"><summary>${STATUS_MARK[entry.status]} ${escapeHtml(entry.title)} (${escapeHtml(entry.name)})</summary>`,
        entry.arguments !== "" ? `<p>Arguments</p><pre>${escapeHtml(entry.arguments)}</pre>` : "",
        entry.output !== "" ? `<p>${entry.status === "failure" ? "Error" : "Result"}</p><pre>${escapeHtml(entry.output)}</pre>` : "",
        "</details>",
      ].join("");
    case "note":
      return `<p class="note">${escapeHtml(entry.text)}</p>`;
  }
}

export function transcriptHtml(transcript: Transcript): string {
  return [
    "<!DOCTYPE html>",
    '<html lang="en">',
    "<head>",
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    // Nothing on the page may load or run anything: it is a record, opened from wherever it was sent.
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">`,
    `<title>${escapeHtml(transcript.title)}</title>`,
    `<style>${STYLE}</style>`,
    "</head>",
    "<body>",
    `<header><h1>${escapeHtml(transcript.title)}</h1><p>${escapeHtml(header(transcript).join(" · "))}</p></header>`,
    "<main>",
    ...transcript.entries.map(htmlEntry),
    "</main>",
    "</body>",
    "</html>",
    "",
  ].join("\n");
}
