/** /share's renderings: Markdown whose fences the content cannot close, and HTML where nothing from the conversation is markup. */
import { describe, expect, it } from "vitest";
import type { Transcript } from "../../src/core/session-admin/transcript.js";
import { transcriptHtml, transcriptMarkdown } from "../../src/core/session-admin/transcript-render.js";

const transcript: Transcript = {
  title: "Fix </title><script>x()</script>",
  sessionId: "abc",
  cwd: "/work/repo",
  entries: [
    { kind: "user", text: "Show the README" },
    { kind: "tool", name: "view", title: "View <README.md>", arguments: '{"path":"README.md"}', status: "success", output: "```js\ncode\n```\n" },
    { kind: "tool", name: "bash", title: "Run it", arguments: "", status: "failure", output: "boom </details>" },
    { kind: "assistant", text: "Done & <em>dusted</em>" },
  ],
};

describe("transcript rendering", () => {
  it("Markdown: tool calls in <details>, fences longer than any backtick run in the output", () => {
    const markdown = transcriptMarkdown(transcript);
    expect(markdown).toContain("<summary>✓ View &lt;README.md&gt; (view)</summary>");
    expect(markdown).toContain("````\n```js\ncode\n```\n````");
    expect(markdown).toContain("<summary>✗ Run it (bash)</summary>");
    expect(markdown).toContain("Error:\n\n```\nboom </details>\n```");
    expect(markdown).toContain("## Agent\n\nDone & <em>dusted</em>");
  });

  it("HTML: every piece of conversation text is escaped, tool calls are collapsed, nothing is loaded or run", () => {
    const html = transcriptHtml(transcript);
    expect(html).toContain("<title>Fix &lt;/title&gt;&lt;script&gt;x()&lt;/script&gt;</title>");
    expect(html).not.toContain("<script>");
    expect(html).toContain("boom &lt;/details&gt;");
    expect(html).toContain("Done &amp; &lt;em&gt;dusted&lt;/em&gt;");
    expect(html.match(/<details/g)).toHaveLength(2);
    expect(html).toContain("default-src 'none'");
  });
});
