/** `agent --acp`: an image block in a prompt reaches the model as an image_url part, not only as a saved file's path. */
import { describe, expect, it } from "vitest";
import { text } from "../support/scripted-server.js";
import { useAcpWorkspace } from "../support/acp-workspace.js";

/** A 1×1 PNG, base64 as ACP carries it. */
const TINY_PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

const acp = useAcpWorkspace();
const { ws } = acp;

describe("agent --acp with an image", () => {
  it("sends the prompt's image block to the model as a data URL", async () => {
    const client = await acp.connect({ handlers: {}, capabilities: {} });
    const { sessionId } = await client.agent.request("session/new", { cwd: ws.cwd, mcpServers: [] });
    ws.server.enqueue(text("A pixel."));
    const response = await client.agent.request("session/prompt", {
      sessionId,
      prompt: [
        { type: "text", text: "What is this?" },
        { type: "image", data: TINY_PNG, mimeType: "image/png" },
      ],
    });
    expect(response.stopReason).toBe("end_turn");
    const user = ws.server.completionRequests[0]?.body.messages.filter((message) => message.role === "user").at(-1);
    const parts = user?.content as { type: string; text?: string; image_url?: { url: string } }[];
    expect(parts[0]?.text).toContain("What is this?");
    expect(parts[1]).toEqual({ type: "image_url", image_url: { url: `data:image/png;base64,${TINY_PNG}` } });
  });
});
