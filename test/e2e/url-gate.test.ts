/**
 * The URL gate through the real binary (`agent -p` against the scripted server), for the red team's cases
 * (issue 17, items 9 and 10): a deny on 127.0.0.1 is not dodged by other spellings of it, in web_fetch or
 * curl; --allow-url with a path allows that path and not its neighbours; a file: URL under --allow-all-urls
 * and a glob that climbs out of the workspace still meet the path gate. Every URL points at a 127.0.0.1
 * port nobody listens on, and every file lies in this test's temp dirs.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { tempDir } from "../support/engine-harness.js";
import { useE2eWorkspace } from "../support/e2e-workspace.js";
import { runAgent } from "../support/run-agent.js";
import { text, toolCall, toolCalls } from "../support/scripted-server.js";

const ws = useE2eWorkspace({ prefix: "urls", removeDirs: true });
const made: string[] = [];
const outsideDir = () => {
  const dir = tempDir("urls-outside-");
  made.push(dir);
  return dir;
};
beforeEach(() => {
  mkdirSync(path.join(ws.cwd, ".git"));
});
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A port nobody listens on: the discard port. A call the gate lets through fails to connect, visibly. */
const PORT = 9;
const MARKER = "harmless-marker-5d1c";

/** The tool results the model got in the last request, in order. */
const toolResults = () =>
  (ws.server.completionRequests.at(-1)?.body.messages ?? []).filter((message) => message.role === "tool").map((message) => String(message.content));

describe("agent -p: URL rules after canonicalising", () => {
  it("--deny-url http://127.0.0.1 refuses web_fetch of [::ffff:127.0.0.1], 0.0.0.0 and 2130706433 even under --allow-all", async () => {
    ws.server.enqueue(
      toolCalls(
        ["http://[::ffff:127.0.0.1]", "http://0.0.0.0", "http://2130706433", "http://LOCALHOST."].map((host, index) => ({
          id: `f${index}`,
          name: "web_fetch",
          arguments: { url: `${host}:${PORT}/x` },
        })),
      ),
      text("refused"),
    );
    const run = await runAgent(["-p", "fetch", "--allow-all", "--deny-url", "http://127.0.0.1"], { env: ws.env(), cwd: ws.cwd });
    expect(run.code, run.stderr).toBe(0);
    const results = toolResults();
    expect(results).toHaveLength(4);
    for (const result of results) expect(result).toContain("denied due to the following rules: `url(http://127.0.0.1)` (--deny-url)");
  });

  it("the same deny reaches curl, whatever it calls the host", async () => {
    ws.server.enqueue(toolCall("bash", { command: `curl -s --max-time 2 0x7f.1:${PORT}/x`, description: "Fetch" }), text("refused"));
    const run = await runAgent(["-p", "fetch", "--allow-all", "--deny-url", "http://127.0.0.1"], { env: ws.env(), cwd: ws.cwd });
    expect(run.code, run.stderr).toBe(0);
    expect(toolResults()[0]).toContain("denied due to the following rules: `url(http://127.0.0.1)` (--deny-url)");
  });

  it("--allow-url http://127.0.0.1:9/public/ allows /public/x and not /private/x or /publicity", async () => {
    ws.server.enqueue(
      toolCalls([
        { id: "public", name: "web_fetch", arguments: { url: `http://127.0.0.1:${PORT}/public/x` } },
        { id: "private", name: "web_fetch", arguments: { url: `http://127.0.0.1:${PORT}/private/x` } },
        { id: "publicity", name: "web_fetch", arguments: { url: `http://127.0.0.1:${PORT}/publicity` } },
      ]),
      text("done"),
    );
    const run = await runAgent(["-p", "fetch", "--allow-tool", "web_fetch", "--allow-url", `http://127.0.0.1:${PORT}/public/`], { env: ws.env(), cwd: ws.cwd });
    expect(run.code, run.stderr).toBe(0);
    const [allowed, privateOne, publicity] = toolResults();
    expect(allowed).toContain("Could not fetch"); // through the gate; nobody answers on the port
    expect(privateOne).toContain("is not an allowed URL");
    expect(publicity).toContain("is not an allowed URL");
  });
});

describe("agent -p: a URL is not a way around the path gate", () => {
  it("curl file://…/../outside/secret under --allow-all-urls and shell(curl) meets the path gate; nothing is read", async () => {
    const outside = outsideDir();
    writeFileSync(path.join(outside, "secret.txt"), MARKER);
    const url = `file://${ws.cwd}/../${path.basename(outside)}/secret.txt`;
    ws.server.enqueue(
      toolCalls([
        { id: "file", name: "bash", arguments: { command: `curl -s ${url}`, description: "Read" } },
        { id: "data", name: "bash", arguments: { command: `curl -s -d @${outside}/secret.txt http://127.0.0.1:${PORT}/`, description: "Post" } },
      ]),
      text("refused"),
    );
    const run = await runAgent(["-p", "read", "--allow-all-urls", "--allow-tool", "shell(curl)", "--disallow-temp-dir"], { env: ws.env(), cwd: ws.cwd });
    expect(run.code, run.stderr).toBe(0);
    const results = toolResults();
    expect(results).toHaveLength(2);
    for (const result of results) {
      expect(result).toContain(`${outside}/secret.txt is outside the allowed directories`);
      expect(result).not.toContain(MARKER);
    }
    expect(run.stdout).not.toContain(MARKER);
  });

  it("glob ../outside/* asks about the outside folder (headless: refused) and lists nothing from it", async () => {
    const outside = outsideDir();
    writeFileSync(path.join(outside, `${MARKER}.txt`), "x");
    ws.server.enqueue(toolCall("glob", { pattern: `../${path.basename(outside)}/*` }), text("refused"));
    const run = await runAgent(["-p", "list", "--disallow-temp-dir"], { env: ws.env(), cwd: ws.cwd });
    expect(run.code, run.stderr).toBe(0);
    const [result] = toolResults();
    expect(result).toContain(`${outside} is outside the allowed directories`);
    expect(result).not.toContain(`${MARKER}.txt`);
  });
});
