/**
 * `web_fetch`: a web page as Markdown (or its raw text), a window of it at a time. Only http(s); the URL
 * goes through the permission gate's URL rules (`url(...)`, --allow-url, --allow-all-urls) like any call,
 * and every redirect's target is checked again before it is followed, so an allowed page cannot hand the
 * tool on to a denied host. A timeout bounds every fetch; HTML is converted, text and JSON are passed on,
 * anything else is refused.
 */
import { z } from "zod";
import { defineTool, ToolError, type ToolContext } from "./define-tool.js";
import { lazyParameters } from "./lazy-parameters.js";
import { htmlToMarkdown } from "./html-to-markdown.js";

export const WEB_FETCH_DEFAULT_LENGTH = 5_000;
export const WEB_FETCH_MAX_LENGTH = 20_000;
const MAX_REDIRECTS = 5;
export const WEB_FETCH_TIMEOUT_MS = 30_000;
/** Bytes read of a response at most: a page bigger than this is cut (the model reads windows of it anyway). */
const MAX_BODY_BYTES = 5 * 1024 * 1024;

function isHttpUrl(text: string): boolean {
  try {
    const { protocol } = new URL(text);
    return protocol === "http:" || protocol === "https:";
  } catch {
    return false;
  }
}

const parameters = lazyParameters(() =>
  z.object({
    url: z.string().refine(isHttpUrl, "url must be an absolute http:// or https:// URL").describe("The http(s) URL to fetch."),
    max_length: z
      .number()
      .int()
      .min(1)
      .max(WEB_FETCH_MAX_LENGTH)
      .optional()
      .describe(`How many characters to return at most (default ${WEB_FETCH_DEFAULT_LENGTH}, at most ${WEB_FETCH_MAX_LENGTH}).`),
    start_index: z.number().int().min(0).optional().describe("Where to start in the content, in characters (default 0): to read on after a cut-off result."),
    raw: z.boolean().optional().describe("Return the page as it came (HTML source) instead of converting it to Markdown."),
  }),
);

async function readBody(response: Response, signal: AbortSignal): Promise<string> {
  if (!response.body) return "";
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < MAX_BODY_BYTES) {
      if (signal.aborted) throw signal.reason;
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } finally {
    void reader.cancel().catch(() => undefined);
  }
  return new TextDecoder().decode(Buffer.concat(chunks).subarray(0, MAX_BODY_BYTES));
}

/** Follows redirects by hand, asking the gate about each new URL first. */
async function fetchChecked(url: string, ctx: ToolContext, signal: AbortSignal): Promise<{ response: Response; finalUrl: string }> {
  let current = url;
  for (let hops = 0; ; hops++) {
    const response = await fetch(current, {
      redirect: "manual",
      signal,
      headers: { "user-agent": "agent-web-fetch", accept: "text/html, text/*;q=0.9, */*;q=0.5" },
    });
    const location = response.headers.get("location");
    if (response.status < 300 || response.status >= 400 || location === null) return { response, finalUrl: current };
    void response.body?.cancel().catch(() => undefined);
    if (hops >= MAX_REDIRECTS) throw new ToolError(`${url} redirected more than ${MAX_REDIRECTS} times; stopped at ${current}.`, "too_many_redirects");
    const next = new URL(location, current).href;
    if (!isHttpUrl(next)) throw new ToolError(`${current} redirected to ${next}, which is not an http(s) URL.`, "redirect_refused");
    const verdict = ctx.checkPermission
      ? await ctx.checkPermission({ kind: "url", url: next, intention: `Follow a redirect from ${current}` })
      : { approved: false, message: "this session cannot check redirects" };
    if (!verdict.approved) throw new ToolError(`${current} redirected to ${next}, which is not allowed: ${verdict.message ?? "refused"}`, "redirect_refused");
    current = next;
  }
}

function contentKind(contentType: string): "html" | "text" | "json" | undefined {
  const type = contentType.split(";")[0]?.trim().toLowerCase() ?? "";
  if (type === "text/html" || type === "application/xhtml+xml") return "html";
  if (type === "application/json" || type.endsWith("+json")) return "json";
  if (type === "" || type.startsWith("text/") || type === "application/xml" || type.endsWith("+xml") || type === "application/javascript") return "text";
  return undefined;
}

/** The tool; `timeoutMs` bounds each fetch (redirects and body included). */
export function createWebFetchTool({ timeoutMs = WEB_FETCH_TIMEOUT_MS }: { timeoutMs?: number } = {}) {
  return defineTool({
    name: "web_fetch",
    description: [
      "Fetch a web page (http or https) and return its content as Markdown, or as it came with raw: true.",
      `Long content is returned a window at a time: max_length characters (default ${WEB_FETCH_DEFAULT_LENGTH}) from start_index; the result says where to continue.`,
      "HTML is converted to Markdown; plain text and JSON are returned as they are; other content types are refused.",
      "The URL must be allowed by the session's URL permissions; redirects are checked the same way.",
    ].join("\n"),
    parameters,
    kind: "read",
    readOnly: true,
    title: (args) => args.url,
    permission: (args) => ({ kind: "url", url: args.url, intention: "Fetch web content" }),
    async execute(args, ctx) {
      const timeout = AbortSignal.timeout(timeoutMs);
      const signal = AbortSignal.any([ctx.signal, timeout]);
      let fetched: { response: Response; finalUrl: string };
      let body: string;
      try {
        fetched = await fetchChecked(args.url, ctx, signal);
        body = await readBody(fetched.response, signal);
      } catch (error) {
        if (error instanceof ToolError) throw error;
        if (ctx.signal.aborted) throw error;
        if (timeout.aborted) throw new ToolError(`Fetching ${args.url} took longer than ${timeoutMs / 1000} s.`, "timeout");
        const cause = (error as Error & { cause?: Error }).cause;
        throw new ToolError(`Could not fetch ${args.url}: ${cause?.message ?? (error as Error).message}`, "fetch_failed");
      }
      const { response, finalUrl } = fetched;
      if (!response.ok) throw new ToolError(`Fetching ${finalUrl} failed: HTTP ${response.status} ${response.statusText}`.trim(), "http_error");
      const contentType = response.headers.get("content-type") ?? "";
      const kind = contentKind(contentType);
      if (!kind) throw new ToolError(`${finalUrl} is ${contentType}, which web_fetch cannot show (it reads HTML, text and JSON).`, "unsupported_content");
      let content = body;
      if (!args.raw && kind === "html") content = htmlToMarkdown(body, finalUrl);
      else if (!args.raw && kind === "json") {
        try {
          content = JSON.stringify(JSON.parse(body), null, 2);
        } catch {
          content = body;
        }
      }
      const start = args.start_index ?? 0;
      const length = args.max_length ?? WEB_FETCH_DEFAULT_LENGTH;
      if (start >= content.length && content.length > 0) {
        throw new ToolError(`start_index ${start} is past the end of the content (${content.length} characters).`, "past_end");
      }
      const window = content.slice(start, start + length);
      const end = start + window.length;
      const note =
        end < content.length
          ? `\n\n[Content cut at character ${end} of ${content.length}. Call web_fetch again with start_index: ${end} to read on.]`
          : start > 0
            ? `\n\n[End of content (${content.length} characters).]`
            : "";
      const from = finalUrl === args.url ? finalUrl : `${finalUrl} (redirected from ${args.url})`;
      return { content: `Contents of ${from}:\n\n${window}${note}`, telemetry: { contentType, characters: content.length } };
    },
  });
}

export const webFetchTool = createWebFetchTool();
