import { afterEach, describe, expect, it } from "vitest";
import type { PermissionRequest } from "../../../src/protocol/events/index.js";
import type { PermissionReply } from "../../../src/protocol/interactions.js";
import { describeGrants, permissionOptions } from "../../../src/core/permission-options.js";
import { dialogChoices, PermissionDialog } from "../../../src/ui/components/permission-dialog.js";
import { Priority } from "../../../src/ui/terminal/input-bus.js";
import { plainTheme } from "../../../src/ui/theme.js";
import { renderTui, type TuiHarness } from "../../support/render-tui.js";

type Answer = [PermissionReply, { stop: boolean } | undefined];
type Grants = NonNullable<PermissionRequest["grants"]>;

/** What "yes for this session / always" would store, as the broker puts it on the request. */
function grants(scopes: Partial<Grants>): Grants {
  return { commands: [], writes: [], paths: [], origins: [], tools: [], ...scopes };
}

/** The answers the broker offers for this request (from what it would store). */
const offered = (request: PermissionRequest) => permissionOptions(request.grants);

function shell(overrides: Partial<Extract<PermissionRequest, { kind: "shell" }>> = {}): PermissionRequest {
  return {
    kind: "shell",
    fullCommandText: "git status && git add -A && rm -rf build",
    intention: "Stage the changes and clean the build",
    commands: [
      { identifier: "git status", readOnly: true },
      { identifier: "git add", readOnly: false },
      { identifier: "rm", readOnly: false },
    ],
    possiblePaths: ["build"],
    reason: "`git add` and `rm` need approval",
    canOfferSessionApproval: true,
    grants: grants({ commands: ["git add", "rm"] }),
    ...overrides,
  };
}

const writeEdit: PermissionRequest = {
  kind: "write",
  fileName: "/work/proj/src/a.ts",
  intention: "Edit /work/proj/src/a.ts",
  grants: grants({ writes: ["/work/proj/src/a.ts"] }),
  diff: "--- /work/proj/src/a.ts\n+++ /work/proj/src/a.ts\n@@ -1,3 +1,3 @@\n const a = 1;\n-const b = 2;\n+const b = 3;\n const c = 4;\n",
};

function newFile(lines: number): PermissionRequest {
  const body = Array.from({ length: lines }, (_, index) => `+line ${index + 1}`).join("\n");
  return {
    kind: "write",
    fileName: "/work/proj/notes.md",
    intention: "Create /work/proj/notes.md",
    diff: `--- /work/proj/notes.md\n+++ /work/proj/notes.md\n@@ -0,0 +1,${lines} @@\n${body}\n`,
  };
}

let tui: TuiHarness | undefined;
afterEach(() => tui?.unmount());

function open(request: PermissionRequest, queued = 0, width = 100) {
  const answers: Answer[] = [];
  tui = renderTui(
    <PermissionDialog
      request={request}
      options={offered(request)}
      theme={plainTheme}
      width={width}
      queued={queued}
      onAnswer={(reply, options) => answers.push([reply, options])}
    />,
  );
  return { tui, answers };
}

describe("the shell permission dialog", () => {
  it("names the subagent that asks", async () => {
    tui = renderTui(
      <PermissionDialog request={shell()} options={offered(shell())} theme={plainTheme} width={100} queued={0} agent="explore-1" onAnswer={() => undefined} />,
    );
    const frame = await tui.waitForFrame((text) => text.includes("Do you want to run this command?"));
    expect(frame).toContain("[agent explore-1] Stage the changes and clean the build");
  });

  it("shows the intention, the command in a box, the reason and the question", async () => {
    const { tui } = open(shell());
    const frame = await tui.waitForFrame((text) => text.includes("Do you want to run this command?"));
    expect(frame).toContain("Stage the changes and clean the build");
    expect(frame).toMatch(/│ │ git status && git add -A && rm -rf build\s+│ │/);
    expect(frame).toContain("`git add` and `rm` need approval");
    expect(frame).toContain("❯ 1. Yes");
    expect(frame).toContain("4. No, and tell agent what to do differently (Esc to stop)");
  });

  it("names the command identifiers that need approval in the session and always options", async () => {
    const { tui } = open(shell());
    const frame = await tui.waitForFrame((text) => text.includes("2. Yes"));
    expect(frame).toContain("2. Yes, and don't ask again this session for `git add` and `rm`");
    expect(frame).toContain("3. Yes, and always allow `git add` and `rm` in this directory");
    // Read-only commands need no approval and are not part of the scope.
    expect(frame).not.toContain("`git status`");
  });

  it.each([
    ["1", "approve-once"],
    ["2", "approve-for-session"],
    ["3", "approve-always"],
  ] as const)("answers %s with %s", async (digit, kind) => {
    const { tui, answers } = open(shell());
    await tui.flush();
    tui.bus.type(digit);
    await tui.flush();
    expect(answers).toEqual([[{ kind }, undefined]]);
  });

  it("moves with the arrows and answers with Enter", async () => {
    const { tui, answers } = open(shell());
    await tui.flush();
    tui.bus.press("down");
    await tui.waitForFrame((text) => text.includes("❯ 2. Yes, and don't ask again"));
    tui.bus.press("down");
    tui.bus.press("down");
    tui.bus.press("up");
    tui.bus.press("enter");
    await tui.flush();
    expect(answers).toEqual([[{ kind: "approve-always" }, undefined]]);
  });

  it("wraps from the first option up to No, which opens the message input", async () => {
    const { tui, answers } = open(shell());
    await tui.flush();
    tui.bus.press("up");
    tui.bus.press("enter");
    await tui.waitForFrame((text) => text.includes("Tell agent what to do differently"));
    expect(answers).toEqual([]);
  });

  it("denies and stops the turn on Esc", async () => {
    const { tui, answers } = open(shell());
    await tui.flush();
    tui.bus.press("escape");
    await tui.flush();
    expect(answers).toEqual([[{ kind: "deny" }, { stop: true }]]);
  });

  it("sends the typed message with option 4", async () => {
    const { tui, answers } = open(shell());
    await tui.flush();
    tui.bus.type("4");
    tui.bus.type("use git stash insteadX");
    tui.bus.press("backspace");
    const frame = await tui.waitForFrame((text) => text.includes("❯ use git stash instead"));
    expect(frame).not.toContain("insteadX");
    expect(answers).toEqual([]);
    tui.bus.press("enter");
    await tui.flush();
    expect(answers).toEqual([[{ kind: "deny", message: "use git stash instead" }, undefined]]);
  });

  it("takes a paste into the message as one line", async () => {
    const { tui, answers } = open(shell());
    await tui.flush();
    tui.bus.type("4");
    tui.bus.paste("first line\nsecond line");
    tui.bus.press("enter");
    await tui.flush();
    expect(answers).toEqual([[{ kind: "deny", message: "first line second line" }, undefined]]);
  });

  it("goes back to the options when Esc is pressed in the message input", async () => {
    const { tui, answers } = open(shell());
    await tui.flush();
    tui.bus.type("4");
    await tui.waitForFrame((text) => text.includes("Tell agent what to do differently"));
    tui.bus.type("nope");
    tui.bus.press("escape");
    await tui.waitForFrame((text) => !text.includes("Tell agent what to do differently"));
    expect(answers).toEqual([]);
    tui.bus.type("1");
    await tui.flush();
    expect(answers).toEqual([[{ kind: "approve-once" }, undefined]]);
  });

  it("omits the session and always options when session approval cannot be offered", async () => {
    const request = shell({ canOfferSessionApproval: false, grants: undefined });
    const { tui, answers } = open(request);
    const frame = await tui.waitForFrame((text) => text.includes("1. Yes"));
    expect(frame).not.toContain("don't ask again");
    expect(frame).not.toContain("always allow");
    expect(frame).toContain("2. No, and tell agent what to do differently");
    expect(dialogChoices(offered(request)).map((option) => option.reply.kind)).toEqual(["approve-once", "deny"]);
    tui.bus.type("3");
    await tui.flush();
    expect(answers).toEqual([]);
    tui.bus.type("2");
    await tui.waitForFrame((text) => text.includes("Tell agent what to do differently"));
    expect(answers).toEqual([]);
  });

  it("takes every key while it is shown, and answers only once", async () => {
    const { tui, answers } = open(shell());
    const below: string[] = [];
    tui.bus.onKey((key) => {
      below.push(key.name === "char" ? key.char : key.name);
      return true;
    }, Priority.composer);
    await tui.flush();
    tui.bus.type("x");
    tui.bus.press("left");
    tui.bus.type("1");
    tui.bus.type("2");
    tui.bus.press("escape");
    await tui.flush();
    expect(below).toEqual([]);
    expect(answers).toEqual([[{ kind: "approve-once" }, undefined]]);
  });

  it("lists outside paths and says how many more requests wait", async () => {
    const { tui } = open(shell({ outsidePaths: ["/etc/hosts"], grants: grants({ commands: ["git add", "rm"], paths: ["/etc/hosts"] }) }), 2);
    const frame = await tui.waitForFrame((text) => text.includes("more waiting"));
    expect(frame).toContain("2 more waiting");
    expect(frame).toContain("Outside the allowed directories:");
    expect(frame).toContain("/etc/hosts");
    expect(frame).toContain("for `git add`, `rm` and access to /etc/hosts");
  });

  it("names every scope an answer stores: a command and a write need both in the label", async () => {
    const request = shell({
      fullCommandText: "echo hi > out.txt && touch x",
      commands: [
        { identifier: "echo", readOnly: true },
        { identifier: "touch", readOnly: false },
      ],
      grants: grants({ commands: ["touch"], writes: ["/work/proj/out.txt"] }),
    });
    const { tui, answers } = open(request);
    const frame = await tui.waitForFrame((text) => text.includes("3. Yes"));
    expect(frame).toContain("2. Yes, and don't ask again this session for `touch` and writes to /work/proj/out.txt");
    expect(frame).toContain("3. Yes, and always allow `touch` and writes to /work/proj/out.txt in this directory");
    tui.bus.type("3");
    await tui.flush();
    expect(answers).toEqual([[{ kind: "approve-always" }, undefined]]);
  });

  it("names outside paths and origins an answer stores", () => {
    const request = shell({ grants: grants({ commands: ["curl"], paths: ["/opt/data"], origins: ["https://example.com"] }) });
    expect(describeGrants(request.grants as Grants)).toBe("`curl`, access to /opt/data and https://example.com");
  });

  it("shows nothing about a queue when nothing else waits", async () => {
    const { tui } = open(shell(), 0);
    expect(await tui.waitForFrame((text) => text.includes("1. Yes"))).not.toContain("more waiting");
  });

  it("starts over for the next request", async () => {
    const { tui, answers } = open(shell());
    await tui.flush();
    tui.bus.type("1");
    await tui.flush();
    tui.rerender(
      <PermissionDialog
        request={writeEdit}
        options={offered(writeEdit)}
        theme={plainTheme}
        width={100}
        queued={0}
        onAnswer={(reply, options) => answers.push([reply, options])}
      />,
    );
    await tui.waitForFrame((text) => text.includes("Do you want to edit /work/proj/src/a.ts?"));
    tui.bus.type("2");
    await tui.flush();
    expect(answers).toEqual([
      [{ kind: "approve-once" }, undefined],
      [{ kind: "approve-for-session" }, undefined],
    ]);
  });
});

describe("the other permission dialogs", () => {
  it("asks to edit a file with a coloured diff preview and offers writes to that file only", async () => {
    const { tui, answers } = open(writeEdit);
    const frame = await tui.waitForFrame((text) => text.includes("Do you want to edit /work/proj/src/a.ts?"));
    expect(frame).toContain("-const b = 2;");
    expect(frame).toContain("+const b = 3;");
    expect(frame).not.toContain("+++ /work/proj/src/a.ts");
    expect(frame).toContain("2. Yes, and don't ask again this session for writes to /work/proj/src/a.ts");
    tui.bus.type("3");
    await tui.flush();
    expect(answers).toEqual([[{ kind: "approve-always" }, undefined]]);
  });

  it("asks to create a new file and caps a long preview", async () => {
    const { tui } = open(newFile(50));
    const frame = await tui.waitForFrame((text) => text.includes("Do you want to create /work/proj/notes.md?"));
    expect(frame).toContain("+line 19");
    expect(frame).not.toContain("+line 21");
    expect(frame).toMatch(/… 3\d more lines/);
  });

  it("asks about reading a path outside the workspace", async () => {
    const request: PermissionRequest = {
      kind: "read",
      path: "/etc/hosts",
      intention: "Read /etc/hosts",
      outsidePaths: ["/etc/hosts"],
      grants: grants({ paths: ["/etc/hosts"] }),
    };
    const { tui } = open(request);
    const frame = await tui.waitForFrame((text) => text.includes("Allow reading"));
    expect(frame).toContain("Allow reading /etc/hosts? It is outside the allowed directories.");
    expect(frame).toContain("don't ask again this session for access to /etc/hosts");
  });

  it("asks about a URL and offers its origin", async () => {
    const request: PermissionRequest = {
      kind: "url",
      url: "https://docs.example.com/guide/intro?x=1",
      intention: "Fetch the guide",
      grants: grants({ origins: ["https://docs.example.com"] }),
    };
    const { tui, answers } = open(request);
    const frame = await tui.waitForFrame((text) => text.includes("attempting to access"));
    expect(frame).toContain("agent is attempting to access the following URL: https://docs.example.com/guide/intro?x=1");
    expect(frame).toContain("don't ask again this session for https://docs.example.com");
    expect(frame).not.toContain("for https://docs.example.com/guide");
    tui.bus.type("2");
    await tui.flush();
    expect(answers).toEqual([[{ kind: "approve-for-session" }, undefined]]);
  });

  it("shows an MCP call's server, tool and arguments", async () => {
    const request: PermissionRequest = {
      kind: "mcp",
      serverName: "github",
      toolName: "create_issue",
      toolTitle: "Create an issue",
      args: { title: "Crash on start", labels: ["bug"] },
      readOnly: false,
    };
    const { tui } = open(request);
    const frame = await tui.waitForFrame((text) => text.includes("Create an issue"));
    expect(frame).toContain("MCP server github · tool create_issue");
    expect(frame).toContain('"title": "Crash on start"');
    expect(frame).toContain("Allow create_issue from github?");
  });

  it("shows a custom tool's name and arguments", async () => {
    const request: PermissionRequest = { kind: "custom-tool", toolName: "deploy", toolDescription: "Deploys the site", args: { env: "prod" } };
    const { tui } = open(request);
    const frame = await tui.waitForFrame((text) => text.includes("Allow the tool deploy?"));
    expect(frame).toContain("Deploys the site");
    expect(frame).toContain('"env": "prod"');
  });

  it("asks before storing a memory", async () => {
    const request: PermissionRequest = { kind: "memory", subject: "testing", fact: "Run npm test before committing", citations: "package.json" };
    const { tui, answers } = open(request);
    const frame = await tui.waitForFrame((text) => text.includes("Do you want to store this memory?"));
    expect(frame).toContain("Remember: testing");
    expect(frame).toContain("Run npm test before committing");
    tui.bus.press("ctrl+c");
    await tui.flush();
    expect(answers).toEqual([[{ kind: "deny" }, { stop: true }]]);
  });

  it("says what happens to a memory that is confirmed or retired", async () => {
    const request: PermissionRequest = {
      kind: "memory",
      subject: "testing",
      fact: "Run npm test before committing",
      citations: "",
      action: "retire",
      grants: grants({ tools: ["memory"] }),
    };
    const { tui } = open(request);
    const frame = await tui.waitForFrame((text) => text.includes("Do you want to retire this memory?"));
    expect(frame).toContain("Retire: testing");
    expect(frame).toContain("Yes, and don't ask again this session for memory updates");
  });

  it("stays within a narrow width", async () => {
    const { tui } = open(shell({ fullCommandText: `echo ${"x".repeat(200)}` }), 1, 50);
    const frame = await tui.waitForFrame((text) => text.includes("1. Yes"));
    for (const line of frame.split("\n")) expect([...line].length).toBeLessThanOrEqual(50);
    expect(frame).toContain("1 more waiting");
  });
});
