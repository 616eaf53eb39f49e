import { afterEach, describe, expect, it } from "vitest";
import type { ElicitationReply } from "../../../src/protocol/interactions.js";
import { AskUserForm } from "../../../src/ui/components/ask-user/ask-user-form.js";
import { plainTheme } from "../../../src/ui/theme.js";
import { renderTui, type TuiHarness } from "../../support/render-tui.js";

let tui: TuiHarness | undefined;
afterEach(() => tui?.unmount());

const properties = {
  name: { type: "string", title: "Project name" },
  port: { type: "integer", title: "Port" },
  tests: { type: "boolean", title: "Add tests?" },
  db: { type: "string", title: "Database", enum: ["sqlite", "postgres"], enumNames: ["SQLite", "PostgreSQL"] },
  lang: {
    type: "string",
    title: "Language",
    oneOf: [
      { const: "ts", title: "TypeScript" },
      { const: "js", title: "JavaScript" },
    ],
  },
  features: { type: "array", title: "Features", items: { type: "string", enum: ["auth", "cache", "logs"] } },
};

function open(props: Record<string, unknown> = properties, required: string[] = []) {
  const answers: ElicitationReply[] = [];
  tui = renderTui(
    <AskUserForm
      message="Tell me about the project."
      properties={props}
      required={required}
      theme={plainTheme}
      width={80}
      onAnswer={(reply) => answers.push(reply)}
    />,
  );
  return { tui, answers };
}

describe("the ask_user form", () => {
  it("asks field by field with each kind's input and sends the answers", async () => {
    const { tui, answers } = open();
    await tui.waitForFrame((text) => text.includes("Tell me about the project.") && text.includes("Project name") && text.includes("(1 of 6)"));
    tui.bus.type("demo");
    tui.bus.press("enter");
    await tui.waitForFrame((text) => text.includes("Port"));
    tui.bus.type("8080");
    tui.bus.press("enter");
    let frame = await tui.waitForFrame((text) => text.includes("Add tests?"));
    expect(frame).toMatch(/❯ 1\. Yes/);
    tui.bus.press("down");
    tui.bus.press("enter");
    frame = await tui.waitForFrame((text) => text.includes("Database"));
    expect(frame).toContain("2. PostgreSQL");
    tui.bus.type("2");
    frame = await tui.waitForFrame((text) => text.includes("Language"));
    expect(frame).toContain("1. TypeScript");
    tui.bus.press("enter");
    await tui.waitForFrame((text) => text.includes("Features") && text.includes("[ ] auth"));
    tui.bus.type(" ");
    tui.bus.press("down");
    tui.bus.press("down");
    tui.bus.type(" ");
    await tui.waitForFrame((text) => text.includes("[x] auth") && text.includes("[x] logs"));
    tui.bus.press("enter");
    await tui.flush();
    expect(answers).toEqual([
      { action: "accept", content: { name: "demo", port: 8080, tests: false, db: "postgres", lang: "ts", features: ["auth", "logs"] } },
    ]);
  });

  it("answers a choice in your own words through Other", async () => {
    const { tui, answers } = open({ db: properties.db });
    await tui.waitForFrame((text) => text.includes("3. Other"));
    tui.bus.type("3");
    await tui.flush();
    tui.bus.type("mysql");
    tui.bus.press("enter");
    await tui.flush();
    expect(answers).toEqual([{ action: "accept", content: { db: "mysql" } }]);
  });

  it("does not pass a required field left empty", async () => {
    const { tui, answers } = open({ name: properties.name }, ["name"]);
    await tui.waitForFrame((text) => text.includes("Project name *"));
    tui.bus.press("enter");
    await tui.flush();
    expect(answers).toEqual([]);
  });

  it("names the MCP server when a server asks, not the agent", async () => {
    tui = renderTui(
      <AskUserForm message="Your token?" properties={{ token: { type: "string" } }} server="github" theme={plainTheme} width={80} onAnswer={() => undefined} />,
    );
    const frame = await tui.waitForFrame((text) => text.includes("Your token?"));
    expect(frame).toContain("MCP server github asks");
    expect(frame).not.toContain("The agent asks");
  });

  it("Ctrl+D declines, Esc cancels", async () => {
    const first = open();
    await first.tui.flush();
    first.tui.bus.press("ctrl+d");
    await first.tui.flush();
    expect(first.answers).toEqual([{ action: "decline" }]);
    first.tui.unmount();
    const second = open();
    await second.tui.flush();
    second.tui.bus.press("escape");
    await second.tui.flush();
    expect(second.answers).toEqual([{ action: "cancel" }]);
  });
});
