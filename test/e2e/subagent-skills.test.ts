/** Subagents and skills: an agent file's `skills:` names the skills its agent sees and starts with; without it, all are offered. */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runAgent } from "../support/run-agent.js";
import { text, toolCall } from "../support/scripted-server.js";
import { useAgentQueues, useE2eWorkspace } from "../support/e2e-workspace.js";

const { main, child, responder } = useAgentQueues();
const ws = useE2eWorkspace({ prefix: "subskills", server: { responder } });

function writeSkill(name: string): void {
  mkdirSync(path.join(ws.home, "skills", name), { recursive: true });
  writeFileSync(path.join(ws.home, "skills", name, "SKILL.md"), `---\nname: ${name}\ndescription: The ${name} skill.\n---\n${name.toUpperCase()} STEPS\n`);
}

function writeAgent(name: string, extra: string): void {
  mkdirSync(path.join(ws.home, "agents"), { recursive: true });
  writeFileSync(path.join(ws.home, "agents", `${name}.agent.md`), `---\ndescription: The ${name} agent.\n${extra}---\nYou are ${name}.\n`);
}

const childRequest = () => ws.server.completionRequests.find((request) => request.headers["x-initiator"] === "sub-agent");
const childSystem = () => String(childRequest()?.body.messages.find((message) => message.role === "system")?.content ?? "");

describe("subagents' skills", () => {
  it("an agent that names its skills sees only those, and starts with them loaded (before its prompt)", async () => {
    writeSkill("alpha");
    writeSkill("beta");
    writeAgent("writer", "skills: [beta]\n");
    main.push(toolCall("task", { description: "write it", prompt: "Write the thing.", agent_type: "writer" }), text("done"));
    child.push(text("written"));
    const run = await runAgent(["-p", "delegate", "--allow-all-tools"], { env: ws.env(), cwd: ws.cwd });
    expect(run.code).toBe(0);
    expect(childSystem()).toContain("You are writer.");
    expect(childSystem()).toContain("<name>beta</name>");
    expect(childSystem()).not.toContain("<name>alpha</name>");
    const users = childRequest()
      ?.body.messages.filter((message) => message.role === "user")
      .map((message) => String(message.content));
    expect(users?.[0]).toContain('<skill-context name="beta">');
    expect(users?.[0]).toContain("BETA STEPS");
    expect(users?.[1]).toBe("Write the thing.");
  });

  it("an agent that names none sees every skill and loads one with its own skill tool", async () => {
    writeSkill("alpha");
    writeAgent("helper", "");
    main.push(toolCall("task", { description: "help", prompt: "Help.", agent_type: "helper" }), text("done"));
    child.push(toolCall("skill", { skill: "alpha" }), text("helped"));
    const run = await runAgent(["-p", "delegate", "--allow-all-tools"], { env: ws.env(), cwd: ws.cwd });
    expect(run.code).toBe(0);
    expect(childSystem()).toContain("<name>alpha</name>");
    const second = ws.server.completionRequests.filter((request) => request.headers["x-initiator"] === "sub-agent")[1];
    expect(String(second?.body.messages.at(-1)?.content)).toContain('<skill-context name="alpha">');
  });
});

describe("the main session's agent and skills", () => {
  it("--agent with skills: [beta] starts with beta loaded in its system prompt (as Copilot's) and offers only it", async () => {
    writeSkill("alpha");
    writeSkill("beta");
    writeAgent("writer", "skills: [beta]\n");
    main.push(text("written"));
    const run = await runAgent(["--agent", "writer", "-p", "write"], { env: ws.env(), cwd: ws.cwd });
    expect(run.code).toBe(0);
    const request = ws.server.completionRequests[0];
    const system = String(request?.body.messages.find((message) => message.role === "system")?.content ?? "");
    expect(system).toContain("<name>beta</name>");
    expect(system).not.toContain("<name>alpha</name>");
    expect(system).toContain('<skill-context name="beta">');
    expect(system).not.toContain('<skill-context name="alpha">');
    const users = request?.body.messages.filter((message) => message.role === "user").map((message) => String(message.content));
    expect(users).toHaveLength(1);
    expect(users?.[0]).not.toContain("<skill-context");
    expect(users?.[0]).toMatch(/\nwrite$/);
  });
});
