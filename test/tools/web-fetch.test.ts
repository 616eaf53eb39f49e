/**
 * web_fetch through a real session against a local HTTP server on 127.0.0.1: Markdown, windows of long
 * content, raw HTML, JSON, refused content types, and the URL gate: a denied URL by rule, and a redirect
 * to a denied host (each hop is checked again).
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { htmlToMarkdown } from "../../src/tools/html-to-markdown.js";
import { createWebFetchTool } from "../../src/tools/web-fetch.js";
import { makeToolContext, runToolError } from "../support/tool-context.js";
import { startHarness, type Harness } from "../support/engine-harness.js";
import { text, toolCalls } from "../support/scripted-server.js";

const PAGE = `<!doctype html><html><head><title>Fixture page</title><script>window.secret = 1;</script></head>
<body><nav><a href="/">Home</a></nav><main><h1>Fixture</h1><p>Some <strong>bold</strong> text and a <a href="/docs?a=1&amp;b=2">relative link</a>.</p>
<ul><li>first</li><li>second</li></ul><pre><code class="language-ts">const x = 1;</code></pre></main></body></html>`;
const LONG = Array.from({ length: 300 }, (_, i) => `line ${String(i).padStart(3, "0")}`).join("\n");

let server: Server;
let base: string;
beforeAll(async () => {
  server = createServer((request, response) => {
    const send = (status: number, type: string, body: string, headers: Record<string, string> = {}) => {
      response.writeHead(status, { "content-type": type, ...headers });
      response.end(body);
    };
    const port = (server.address() as AddressInfo).port;
    switch (request.url) {
      case "/page":
        return send(200, "text/html; charset=utf-8", PAGE);
      case "/long":
        return send(200, "text/plain", LONG);
      case "/data":
        return send(200, "application/json", '{"name":"fixture","items":[1,2]}');
      case "/image":
        return send(200, "image/png", "\x89PNG");
      case "/hop":
        return send(302, "text/plain", "", { location: "/long" });
      case "/hang":
        return; // never answers: the timeout must end the call
      case "/away":
        return send(302, "text/plain", "", { location: `http://localhost:${port}/page` });
      case "/numeric":
        return send(302, "text/plain", "", { location: `http://2130706433:${port}/page` });
      case "/mapped":
        return send(302, "text/plain", "", { location: `http://[::ffff:127.0.0.1]:${port}/page` });
      default:
        return send(404, "text/plain", "no such page");
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(
  () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
);

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

/** Runs the calls in one response (allowed to 127.0.0.1 unless said otherwise) and returns each result by id. */
async function fetchAll(calls: Record<string, Record<string, unknown>>, permissions: { allowUrl?: string[]; denyUrl?: string[] } = {}) {
  harness = await startHarness({ permissions: { allowUrl: ["http://127.0.0.1"], ...permissions } });
  harness.server.enqueue(toolCalls(Object.entries(calls).map(([id, args]) => ({ id, name: "web_fetch", arguments: args }))), text("Read."));
  await harness.session.send("fetch");
  const results = new Map(harness.ofType("tool.execution_complete").map((event) => [event.data.toolCallId, event.data]));
  return (id: string) => {
    const result = results.get(id);
    return { ok: result?.success === true, text: result?.success ? (result.result?.content ?? "") : (result?.error?.message ?? "") };
  };
}

describe("web_fetch", () => {
  it("returns a page as Markdown: title, links made absolute, lists, code; scripts and navigation dropped", async () => {
    const result = await fetchAll({ a: { url: `${base}/page` } });
    const page = result("a");
    expect(page.ok).toBe(true);
    expect(page.text).toContain(`Contents of ${base}/page:`);
    expect(page.text).toContain("# Fixture");
    expect(page.text).toContain(`Some **bold** text and a [relative link](${base}/docs?a=1&b=2).`);
    expect(page.text).toContain("- first\n- second");
    expect(page.text).toContain("```ts\nconst x = 1;\n```");
    expect(page.text).not.toContain("secret");
    expect(page.text).not.toContain("Home");
  });

  it("returns windows of long content (max_length, start_index), raw HTML, pretty JSON, and refuses other types", async () => {
    const result = await fetchAll({
      first: { url: `${base}/long`, max_length: 100 },
      next: { url: `${base}/long`, max_length: 100, start_index: 100 },
      past: { url: `${base}/long`, start_index: 99_999 },
      raw: { url: `${base}/page`, raw: true },
      json: { url: `${base}/data` },
      image: { url: `${base}/image` },
      missing: { url: `${base}/missing` },
    });
    expect(result("first").text).toBe(
      `Contents of ${base}/long:\n\n${LONG.slice(0, 100)}\n\n[Content cut at character 100 of ${LONG.length}. Call web_fetch again with start_index: 100 to read on.]`,
    );
    expect(result("next").text).toContain(`${LONG.slice(100, 200)}\n\n[Content cut at character 200`);
    expect(result("past")).toMatchObject({ ok: false, text: expect.stringContaining("start_index 99999 is past the end") });
    expect(result("raw").text).toContain("<h1>Fixture</h1>");
    expect(result("json").text).toContain('{\n  "name": "fixture",');
    expect(result("image")).toMatchObject({ ok: false, text: expect.stringContaining("image/png, which web_fetch cannot show") });
    expect(result("missing")).toMatchObject({ ok: false, text: expect.stringContaining("HTTP 404") });
  });

  it("follows an allowed redirect, and refuses one to a denied host however it is written; a URL denied by rule is not fetched", async () => {
    const result = await fetchAll(
      {
        hop: { url: `${base}/hop` },
        away: { url: `${base}/away` },
        numeric: { url: `${base}/numeric` },
        mapped: { url: `${base}/mapped` },
        denied: { url: `${base}/page` },
      },
      { denyUrl: ["http://127.0.0.1/page"] },
    );
    expect(result("hop")).toMatchObject({ ok: true, text: expect.stringContaining(`Contents of ${base}/long (redirected from ${base}/hop):`) });
    // localhost, 2130706433 and [::ffff:127.0.0.1] are 127.0.0.1: each redirect is checked after canonicalising.
    for (const [id, host] of [
      ["away", "localhost"],
      ["numeric", "127\\.0\\.0\\.1"],
      ["mapped", "\\[::ffff:7f00:1\\]"],
    ] as const) {
      expect(result(id).ok, id).toBe(false);
      expect(result(id).text).toMatch(
        new RegExp(
          `redirected to http://${host}:\\d+/page, which is not allowed: Permission to run this tool was denied due to the following rules: \`url\\(http://127\\.0\\.0\\.1/page\\)\``,
        ),
      );
    }
    expect(result("denied")).toMatchObject({ ok: false, text: expect.stringContaining("`url(http://127.0.0.1/page)`") });
  });

  it("asks before fetching a URL nothing allows (headless: refused), and accepts only http(s)", async () => {
    harness = await startHarness();
    harness.server.enqueue(
      toolCalls([
        { id: "plain", name: "web_fetch", arguments: { url: `${base}/page` } },
        { id: "file", name: "web_fetch", arguments: { url: "file:///etc/hostname" } },
      ]),
      text("Done."),
    );
    await harness.session.send("fetch");
    const [plain, file] = ["plain", "file"].map((id) => harness?.ofType("tool.execution_complete").find((event) => event.data.toolCallId === id)?.data);
    expect(plain?.error?.message).toContain("is not an allowed URL");
    expect(file?.error?.message).toContain("http:// or https:// URL");
  });
});

describe("web_fetch on its own", () => {
  it("gives up after its timeout, and refuses a redirect where no gate can check it", async () => {
    const context = makeToolContext();
    try {
      // /hang never answers, so only the timeout can end it; /hop answers, and gets the default timeout so a
      // slow machine cannot turn its answer into a timeout.
      const timedOut = await runToolError(createWebFetchTool({ timeoutMs: 200 }), { url: `${base}/hang` }, context.ctx);
      expect(timedOut).toMatchObject({ code: "timeout", message: `Fetching ${base}/hang took longer than 0.2 s.` });
      const redirect = await runToolError(createWebFetchTool(), { url: `${base}/hop` }, context.ctx);
      expect(redirect).toMatchObject({ code: "redirect_refused", message: expect.stringContaining("this session cannot check redirects") });
    } finally {
      context.cleanup();
    }
  });
});

describe("htmlToMarkdown", () => {
  it("writes tables, quotes, nested lists and entities", () => {
    const markdown = htmlToMarkdown(
      "<table><tr><th>A</th><th>B</th></tr><tr><td>1</td><td>x|y</td></tr></table><blockquote><p>quoted</p></blockquote><ul><li>one<ul><li>inner</li></ul></li></ul><p>&copy; &#x41; &lt;tag&gt;</p>",
    );
    expect(markdown).toBe("| A | B |\n| --- | --- |\n| 1 | x\\|y |\n\n> quoted\n\n- one\n  - inner\n\n© A <tag>");
  });
});
