import { createTwoFilesPatch } from "diff";
import stringWidth from "string-width";
import { describe, expect, it } from "vitest";
import { formatDuration, HistoryItem, SHELL_OUTPUT_LINES } from "../../src/ui/components/history-item.js";
import { LiveReasoning, StreamingMessage } from "../../src/ui/components/streaming-message.js";
import type { TranscriptItem } from "../../src/ui/state/transcript-types.js";
import { createTheme, plainTheme, type Theme } from "../../src/ui/theme.js";
import { renderTui } from "../support/render-tui.js";

const colour = createTheme({ FORCE_COLOR: "1" }, true);

function show(item: TranscriptItem, options: { width?: number; theme?: Theme; showReasoning?: boolean } = {}) {
  const tui = renderTui(
    <HistoryItem item={item} width={options.width ?? 60} theme={options.theme ?? plainTheme} showReasoning={options.showReasoning ?? false} />,
  );
  const frame = tui.frame();
  const raw = tui.rawFrame();
  tui.unmount();
  return { frame, raw, lines: frame.split("\n").map((line) => line.trimEnd()) };
}

describe("HistoryItem", () => {
  it("shows a user message after a marker, wrapped with a hanging indent", () => {
    const { lines } = show({ kind: "user", id: "u1", text: "please fix the failing test in the parser module today", shell: false }, { width: 30 });
    expect(lines).toEqual(["› please fix the failing test", "  in the parser module today"]);
  });

  it("shows a shell command with a ! marker", () => {
    const { lines } = show({ kind: "user", id: "u2", text: "git status", shell: true });
    expect(lines).toEqual(["! git status"]);
  });

  it("renders an assistant message as Markdown", () => {
    const { lines } = show({ kind: "assistant", id: "a1", markdown: "Done. **Two** things:\n\n- `parse()` fixed\n- tests added" });
    expect(lines).toEqual(["Done. Two things:", "", "• parse() fixed", "• tests added"]);
  });

  it("collapses reasoning to one line, and shows it when asked", () => {
    const item: TranscriptItem = { kind: "reasoning", id: "r1", text: "First, read the file.\nThen edit it.\nThen run the tests." };
    const collapsed = show(item);
    expect(collapsed.lines).toEqual(["∴ Thought (3 lines) · ctrl+t to show"]);
    expect(collapsed.frame).not.toContain("read the file");
    const expanded = show(item, { showReasoning: true });
    expect(expanded.lines).toEqual(["∴ Thought", "  First, read the file.", "  Then edit it.", "  Then run the tests."]);
    expect(show({ kind: "reasoning", id: "r2", text: "one" }).lines).toEqual(["∴ Thought (1 line) · ctrl+t to show"]);
  });

  it("shows a successful tool with its title, duration and one-line summary", () => {
    const { lines, raw } = show(
      {
        kind: "tool",
        id: "t1",
        name: "bash",
        title: "Run the tests",
        status: "success",
        summary: "42 passed\nmore output",
        output: "42 passed\nmore output",
        durationMs: 1234,
      },
      { theme: colour },
    );
    expect(lines).toEqual(["✓ Run the tests (1.2s)", "  └ 42 passed"]);
    expect(raw).toContain("\u001b[32m✓");
  });

  it("shows a failed tool with ✗ and the error in the error colour", () => {
    const { lines, raw } = show(
      {
        kind: "tool",
        id: "t2",
        name: "view",
        title: "src/missing.ts",
        status: "failure",
        summary: "File not found: src/missing.ts",
        output: "File not found",
        durationMs: 20,
      },
      { theme: colour },
    );
    expect(lines).toEqual(["✗ src/missing.ts (20ms)", "  └ File not found: src/missing.ts"]);
    expect(raw).toContain("\u001b[31m✗");
    expect(raw).toContain("\u001b[31mFile not found: src/missing.ts");
  });

  it("cuts a long summary and title to the width", () => {
    const { lines } = show(
      { kind: "tool", id: "t3", name: "bash", title: "a very long title ".repeat(5), status: "success", summary: "x".repeat(100), output: "", durationMs: 0 },
      { width: 40 },
    );
    expect(lines).toHaveLength(2);
    for (const line of lines) expect(stringWidth(line)).toBeLessThanOrEqual(40);
    expect(lines[0]?.endsWith("…")).toBe(true);
    expect(lines[1]?.startsWith("  └ xxxx")).toBe(true);
  });

  it("shows the diff of an edit under the tool line", () => {
    const diff = createTwoFilesPatch("src/a.ts", "src/a.ts", "const a = 1;\nconst b = 2;\n", "const a = 1;\nconst b = 3;\n");
    const { lines, frame } = show({
      kind: "tool",
      id: "t4",
      name: "edit",
      title: "src/a.ts",
      status: "success",
      summary: "Edited src/a.ts",
      output: diff,
      diff,
      durationMs: 5,
    });
    expect(lines.slice(0, 2)).toEqual(["✓ src/a.ts (5ms)", "  └ Edited src/a.ts"]);
    expect(lines).toContain("    1   const a = 1;");
    expect(lines).toContain("    2 - const b = 2;");
    expect(lines).toContain("    2 + const b = 3;");
    expect(frame).not.toContain("+++");
  });

  it("colours notices by level", () => {
    expect(show({ kind: "notice", id: "n1", level: "info", text: "Model: gpt-x" }).lines).toEqual(["Model: gpt-x"]);
    expect(show({ kind: "notice", id: "n2", level: "warning", text: "Interrupted." }, { theme: colour }).raw).toContain("\u001b[33mInterrupted.");
    const error = show({ kind: "notice", id: "n3", level: "error", text: "The server said no" }, { theme: colour });
    expect(error.lines).toEqual(["✗ The server said no"]);
    expect(error.raw).toContain("\u001b[31m");
  });

  it("shows a completed task with its summary as Markdown", () => {
    const { lines } = show({ kind: "task-complete", id: "c1", summary: "Fixed **both** bugs:\n\n1. the parser\n2. the printer" });
    expect(lines).toEqual(["✓ Task complete", "  Fixed both bugs:", "", "  1. the parser", "  2. the printer"]);
  });

  it("shows subagents that completed and failed", () => {
    expect(show({ kind: "subagent", id: "s1", name: "explore", status: "completed", detail: "12 s" }).lines).toEqual(["● explore completed · 12 s"]);
    const failed = show({ kind: "subagent", id: "s2", name: "general", status: "failed", detail: "timed out" }, { theme: colour });
    expect(failed.lines).toEqual(["● general failed · timed out"]);
    expect(failed.raw).toContain("\u001b[31m●");
  });

  it("prints no ANSI code with the plain theme, for every kind", () => {
    const diff = createTwoFilesPatch("f", "f", "a\n", "b\n");
    const items: TranscriptItem[] = [
      { kind: "user", id: "1", text: "hi" },
      { kind: "assistant", id: "2", markdown: "# T\n\n**b** `c`\n\n```ts\nconst a = 1;\n```" },
      { kind: "reasoning", id: "3", text: "hmm" },
      { kind: "tool", id: "4", name: "edit", title: "f", status: "failure", summary: "no", output: "", diff, durationMs: 1 },
      { kind: "notice", id: "5", level: "error", text: "bad" },
      { kind: "task-complete", id: "6", summary: "ok" },
      { kind: "subagent", id: "7", name: "x", status: "completed", detail: "" },
    ];
    for (const item of items) {
      for (const showReasoning of [false, true]) expect(show(item, { showReasoning }).raw).not.toContain("\u001b");
    }
  });
});

describe("formatDuration", () => {
  it("shows a !cmd's output under it, not just its first line (the person asked to see it)", () => {
    const output = "total 8\ndrwxr-xr-x 2 me me 4096 .\n-rw-r--r-- 1 me me    3 a.txt\n<exited with exit code 0>";
    const item: TranscriptItem = {
      kind: "tool",
      id: "s1",
      name: "bash",
      title: "! ls -la",
      status: "success",
      summary: "total 8",
      output,
      durationMs: 0,
      userRequested: true,
    };
    expect(show(item).lines).toEqual([
      "✓ ! ls -la",
      "  └ total 8",
      "    drwxr-xr-x 2 me me 4096 .",
      "    -rw-r--r-- 1 me me    3 a.txt",
      "    <exited with exit code 0>",
    ]);
    // The model's own bash calls stay one line.
    expect(show({ ...item, userRequested: undefined }).lines).toEqual(["✓ ! ls -la", "  └ total 8"]);
  });

  it("bounds a long !cmd output: its first lines, each cut to the width, then how many more (ctrl+o shows all)", () => {
    const output = [...Array.from({ length: 60 }, (_, i) => `line ${i + 1} ${"x".repeat(80)}`), "<exited with exit code 0>"].join("\n");
    const item: TranscriptItem = {
      kind: "tool",
      id: "s2",
      name: "bash",
      title: "! seq",
      status: "success",
      summary: "line 1",
      output,
      durationMs: 0,
      userRequested: true,
    };
    const { lines } = show(item, { width: 40 });
    expect(lines).toHaveLength(1 + SHELL_OUTPUT_LINES + 1);
    expect(lines[1]).toMatch(/^ {2}└ line 1 x+…$/);
    expect(lines[SHELL_OUTPUT_LINES]).toMatch(/^ {4}line 20 x+…$/);
    expect(lines.at(-1)).toBe("    … 41 more lines (ctrl+o shows all)");
    for (const line of lines) expect(stringWidth(line)).toBeLessThanOrEqual(40);
    // A command that failed still shows what it printed.
    const failed = show({ ...item, status: "failure", output: "ls: cannot access 'nope': No such file or directory\n<exited with exit code 2>" });
    expect(failed.lines).toEqual(["✗ ! seq", "  └ ls: cannot access 'nope': No such file or directory", "    <exited with exit code 2>"]);
  });

  it("uses milliseconds, then seconds with one decimal, then minutes", () => {
    expect(formatDuration(20)).toBe("20ms");
    expect(formatDuration(1234)).toBe("1.2s");
    expect(formatDuration(45_000)).toBe("45.0s");
    expect(formatDuration(125_000)).toBe("2m 05s");
  });
});

describe("the live area's text", () => {
  it("renders the streaming tail as Markdown, and nothing when it is blank", () => {
    const tui = renderTui(<StreamingMessage text={"Working on **it**\n\n- step one"} width={40} theme={plainTheme} />);
    expect(tui.frame().split("\n")).toEqual(["Working on it", "", "• step one"]);
    tui.rerender(<StreamingMessage text={"Working on **it**\n\n- step one\n- step two"} width={40} theme={plainTheme} />);
    expect(tui.frame()).toContain("• step two");
    tui.rerender(<StreamingMessage text={"  "} width={40} theme={plainTheme} />);
    expect(tui.frame()).toBe("");
    tui.unmount();
  });

  it("shows reasoning as 'Thinking…' and its last line, or in full when expanded", () => {
    const text = "Look at the parser.\nThe bug is in tokenize().\n";
    const tui = renderTui(<LiveReasoning text={text} width={60} theme={plainTheme} expanded={false} />);
    expect(tui.frame()).toBe("∴ Thinking… The bug is in tokenize().");
    tui.rerender(<LiveReasoning text={text} width={60} theme={plainTheme} expanded />);
    expect(
      tui
        .frame()
        .split("\n")
        .map((line) => line.trimEnd()),
    ).toEqual(["∴ Thinking…", "  Look at the parser.", "  The bug is in tokenize()."]);
    tui.rerender(<LiveReasoning text={"x".repeat(200)} width={40} theme={plainTheme} expanded={false} />);
    expect(stringWidth(tui.frame())).toBeLessThanOrEqual(40);
    tui.unmount();
  });
});
