/**
 * The SDK's systemMessage modes through the real Copilot SDK and the real bin/agent.js: replace (the client's
 * text is the whole prompt), customize (named sections edited, removed, or rewritten by the client's own
 * callbacks through systemMessage.transform). The scripted server records what the model was sent.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { approveAll, type SystemMessageConfig } from "@github/copilot-sdk";
import { text } from "../support/scripted-server.js";
import { scriptedProvider, useSdkWorld } from "../support/sdk-client.js";

const sdk = useSdkWorld();

async function systemPromptSent(systemMessage: SystemMessageConfig | undefined, extra: { instructionDirectories?: string[] } = {}): Promise<string> {
  sdk.server.enqueue(text("Done."));
  const client = sdk.world.client();
  const session = await client.createSession({
    provider: scriptedProvider(sdk.server.baseUrl),
    model: "scripted-model",
    onPermissionRequest: approveAll,
    ...(systemMessage ? { systemMessage } : {}),
    ...extra,
  });
  expect((await session.sendAndWait({ prompt: "hello" }))?.data.content).toBe("Done.");
  const first = sdk.server.completionRequests[0]?.body.messages[0] as { role: string; content: string };
  expect(first.role).toBe("system");
  await client.stop();
  return first.content;
}

describe("SDK system message", () => {
  it("replace: the client's text is the whole system prompt", async () => {
    expect(await systemPromptSent({ mode: "replace", content: "You are a calculator. Answer with numbers only." })).toBe(
      "You are a calculator. Answer with numbers only.",
    );
  });

  it("append: the engine's prompt stays and the client's text joins it", async () => {
    writeFileSync(path.join(sdk.world.cwd, "AGENTS.md"), "Repository rule: indent with tabs.\n");
    const prompt = await systemPromptSent({ mode: "append", content: "Always answer in one word." });
    expect(prompt).toContain("You are agent");
    expect(prompt).toContain("<environment>");
    expect(prompt).toContain("Always answer in one word.");
    expect(prompt).toContain("Repository rule: indent with tabs.");
  });

  it("customize: sections that map onto the prompt's parts are replaced, removed, appended to; the others join as instructions", async () => {
    writeFileSync(path.join(sdk.world.cwd, "AGENTS.md"), "Repository rule: indent with tabs.\n");
    const prompt = await systemPromptSent({
      mode: "customize",
      sections: {
        identity: { action: "replace", content: "You are Quill, a documentation assistant." },
        environment_context: { action: "remove" },
        guidelines: { action: "append", content: "- Prefer British spelling." },
        tone: { action: "replace", content: "Speak warmly." },
        safety: { action: "remove" },
        last_instructions: { action: "append", content: "Finish with a one-line summary." },
        custom_instructions: { action: "remove" },
      },
      content: "Extra from the application.",
    });
    expect(prompt.startsWith("You are Quill, a documentation assistant.")).toBe(true);
    expect(prompt).not.toContain("You are agent");
    expect(prompt).not.toContain("<environment>");
    expect(prompt).toMatch(/<\/how_to_work>\n\n- Prefer British spelling\./);
    expect(prompt).toContain("Speak warmly.");
    expect(prompt).toContain("Extra from the application.");
    expect(prompt).toContain("<tools>");
    expect(prompt).not.toContain("Repository rule");
    expect(prompt.endsWith("Finish with a one-line summary.\n\nSpeak warmly.\n\nExtra from the application.")).toBe(true);
  });

  it("customize: a section with a callback is rewritten by the client (systemMessage.transform), with the section's text as it stands", async () => {
    const seen: string[] = [];
    const prompt = await systemPromptSent({
      mode: "customize",
      sections: {
        environment_context: {
          action: (current) => {
            seen.push(current);
            return current.replace("<environment>", "<environment>\n- Deployed in: the test lab");
          },
        },
        identity: {
          action: () => {
            throw new Error("a broken callback");
          },
        },
      },
    });
    expect(seen).toHaveLength(1);
    expect(seen[0]).toContain(`- Working directory: ${sdk.world.cwd}`);
    expect(prompt).toContain("<environment>\n- Deployed in: the test lab\n- Working directory:");
    // A callback that throws leaves its section as it was.
    expect(prompt.startsWith("You are agent")).toBe(true);
  });

  it("customize: a callback that never answers lapses after the question time limit and its section stays as it was", async () => {
    sdk.world.env.AGENT_SERVER_QUESTION_TIMEOUT_MS = "300";
    const prompt = await systemPromptSent({
      mode: "customize",
      sections: { identity: { action: () => new Promise<string>(() => undefined) } },
    });
    expect(prompt.startsWith("You are agent")).toBe(true);
  });

  it("reads the instruction files of the client's instructionDirectories into the system prompt", async () => {
    const extra = path.join(sdk.world.cwd, "..", "team-instructions");
    mkdirSync(path.join(extra, ".github", "instructions"), { recursive: true });
    writeFileSync(path.join(extra, ".github", "instructions", "style.instructions.md"), "Always say TEAM_STYLE_SENTINEL.");
    writeFileSync(path.join(extra, "AGENTS.md"), "Run TEAM_AGENTS_SENTINEL before committing.");
    const system = await systemPromptSent(undefined, { instructionDirectories: [extra] });
    expect(system).toContain("TEAM_STYLE_SENTINEL");
    expect(system).toContain("TEAM_AGENTS_SENTINEL");
  });
});
