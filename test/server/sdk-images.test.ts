/** Images from an SDK client (a file attachment, an inline blob) reach the model as image_url parts, through the real SDK and bin/agent.js. */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { approveAll } from "@github/copilot-sdk";
import { text } from "../support/scripted-server.js";
import { scriptedProvider, useSdkWorld } from "../support/sdk-client.js";

const sdk = useSdkWorld();

/** A 1×1 PNG, base64. */
const TINY_PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
type Part = { type: string; text?: string; image_url?: { url: string } };

function lastUserParts(): Part[] {
  const user = sdk.server.completionRequests
    .at(-1)
    ?.body.messages.filter((message) => message.role === "user")
    .at(-1);
  return user?.content as Part[];
}

describe("SDK image attachments", () => {
  it("sends a file attachment and a blob as image parts", async () => {
    writeFileSync(path.join(sdk.world.cwd, "shot.png"), Buffer.from(TINY_PNG, "base64"));
    const client = sdk.world.client();
    const session = await client.createSession({ model: "scripted-model", provider: scriptedProvider(sdk.server.baseUrl), onPermissionRequest: approveAll });
    sdk.server.enqueue(text("A pixel."), text("Another pixel."));
    await session.sendAndWait({ prompt: "what is this?", attachments: [{ type: "file", path: path.join(sdk.world.cwd, "shot.png") }] });
    const url = `data:image/png;base64,${TINY_PNG}`;
    expect(lastUserParts()[1]).toEqual({ type: "image_url", image_url: { url } });
    await session.sendAndWait({ prompt: "and this?", attachments: [{ type: "blob", data: TINY_PNG, mimeType: "image/png" }] });
    const parts = lastUserParts();
    expect(parts[0]?.text).toContain("and this?");
    expect(parts[1]).toEqual({ type: "image_url", image_url: { url } });
  });
});
