/** `agent -p "… @shot.png"`: the real binary sends the mentioned image to the model as an image_url part. */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runAgent } from "../support/run-agent.js";
import { text } from "../support/scripted-server.js";
import { useE2eWorkspace } from "../support/e2e-workspace.js";

/** A 1×1 PNG. */
const TINY_PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64");

const ws = useE2eWorkspace();

describe("agent -p with an @image mention", () => {
  it("sends the image as a data URL after the prompt's text", async () => {
    writeFileSync(path.join(ws.cwd, "shot.png"), TINY_PNG);
    ws.server.enqueue(text("A single pixel."));
    const run = await runAgent(["-p", "what is in @shot.png?"], { env: ws.env(), cwd: ws.cwd });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("A single pixel.\n");
    const user = ws.server.completionRequests[0]?.body.messages.filter((message) => message.role === "user").at(-1);
    const parts = user?.content as { type: string; text?: string; image_url?: { url: string } }[];
    expect(parts[0]?.type).toBe("text");
    expect(parts[0]?.text).toContain("what is in @shot.png?");
    expect(parts[1]).toEqual({ type: "image_url", image_url: { url: `data:image/png;base64,${TINY_PNG.toString("base64")}` } });
  });
});
