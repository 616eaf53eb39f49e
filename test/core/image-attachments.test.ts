/**
 * Images reach the model: an image attachment becomes an `image_url` part (a base64 data URL) beside the
 * prompt's text. The log keeps the path, so a resume re-reads the file, and a file gone by then becomes a
 * text note instead of a failed request.
 */
import { rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { MAX_IMAGE_BYTES } from "../../src/provider/image-parts.js";
import { sniffImageBytes } from "../../src/util/image-file.js";
import { startHarness, type Harness } from "../support/engine-harness.js";
import { text, toolCalls } from "../support/scripted-server.js";

/** A 1×1 PNG. */
export const TINY_PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64");

type Part = { type: string; text?: string; image_url?: { url: string } };

function lastUserContent(h: Harness, request = -1): Part[] | string {
  const messages = h.server.completionRequests.at(request)?.body.messages ?? [];
  const user = messages.filter((message) => message.role === "user").at(-1);
  return user?.content as Part[] | string;
}

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe("image attachments", () => {
  it("sends an attached image as an image_url part after the text, and logs only its path", async () => {
    harness = await startHarness();
    const file = path.join(harness.cwd, "shot.png");
    writeFileSync(file, TINY_PNG);
    harness.server.enqueue(text("A red pixel."));
    await harness.session.send("what is this?", { attachments: [{ type: "file", path: "shot.png" }] });
    const content = lastUserContent(harness);
    expect(Array.isArray(content)).toBe(true);
    const parts = content as Part[];
    expect(parts[0]?.type).toBe("text");
    expect(parts[0]?.text).toContain("what is this?");
    expect(parts[1]).toEqual({ type: "image_url", image_url: { url: `data:image/png;base64,${TINY_PNG.toString("base64")}` } });
    const logged = harness.ofType("user.message")[0]?.data.attachments;
    expect(logged).toEqual([{ type: "file", path: file, mediaType: "image/png" }]);
  });

  it("re-reads the image on resume, and a file gone by then becomes a note", async () => {
    harness = await startHarness();
    const file = path.join(harness.cwd, "shot.png");
    writeFileSync(file, TINY_PNG);
    harness.server.enqueue(text("A pixel."));
    await harness.session.send("look", { attachments: [{ type: "file", path: "shot.png" }] });
    const { id } = harness.session;
    harness.session.shutdown();

    const resumed = await startHarness({ server: harness.server, home: harness.home, cwd: harness.cwd, resumeId: id });
    try {
      resumed.server.enqueue(text("Still a pixel."));
      await resumed.session.send("and again?");
      const first = resumed.server.completionRequests.at(-1)?.body.messages.find((message) => Array.isArray(message.content));
      expect((first?.content as Part[])[1]?.image_url?.url).toMatch(/^data:image\/png;base64,/);

      rmSync(file);
      resumed.server.enqueue(text("Gone."));
      await resumed.session.send("still there?");
      const again = resumed.server.completionRequests.at(-1)?.body.messages.find((message) => Array.isArray(message.content));
      const parts = again?.content as Part[];
      expect(parts.some((part) => part.type === "image_url")).toBe(false);
      expect(parts[1]).toEqual({ type: "text", text: expect.stringContaining("no longer there") });
    } finally {
      await resumed.close();
    }
  });

  it("describes an image over the size limit instead of sending it; a non-image file stays text", async () => {
    harness = await startHarness();
    writeFileSync(path.join(harness.cwd, "huge.png"), Buffer.concat([TINY_PNG, Buffer.alloc(MAX_IMAGE_BYTES)]));
    writeFileSync(path.join(harness.cwd, "notes.png"), "not really a picture\n");
    harness.server.enqueue(text("Ok."));
    await harness.session.send("these", {
      attachments: [
        { type: "file", path: "huge.png" },
        { type: "file", path: "notes.png" },
      ],
    });
    const parts = lastUserContent(harness) as Part[];
    expect(parts).toHaveLength(2);
    expect(parts[1]).toEqual({ type: "text", text: expect.stringContaining("over the 5 MB limit") });
  });

  it("shows a picture the view tool opened in a user message after the tool results, live and on resume", async () => {
    harness = await startHarness({ allowAllTools: true });
    const file = path.join(harness.cwd, "shot.png");
    writeFileSync(file, TINY_PNG);
    writeFileSync(path.join(harness.cwd, "notes.txt"), "hello\n");
    harness.server.enqueue(
      toolCalls([
        { name: "view", arguments: { path: file } },
        { name: "view", arguments: { path: "notes.txt" } },
      ]),
      text("A pixel."),
    );
    await harness.session.send("look at shot.png");
    const expectPictureAfterTools = (messages: { role: string; content?: unknown }[]) => {
      const at = messages.findIndex((message) => message.role === "user" && Array.isArray(message.content));
      expect(messages.slice(at - 2, at).map((message) => message.role)).toEqual(["tool", "tool"]);
      expect(messages.slice(at - 2, at).some((message) => String(message.content).includes("is an image (image/png"))).toBe(true);
      expect((messages[at]?.content as Part[])[1]).toEqual({ type: "image_url", image_url: { url: `data:image/png;base64,${TINY_PNG.toString("base64")}` } });
    };
    expectPictureAfterTools(harness.server.completionRequests[1]?.body.messages ?? []);
    const { id } = harness.session;
    harness.session.shutdown();
    const resumed = await startHarness({ server: harness.server, home: harness.home, cwd: harness.cwd, resumeId: id });
    try {
      resumed.server.enqueue(text("Still."));
      await resumed.session.send("again");
      expectPictureAfterTools(resumed.server.completionRequests.at(-1)?.body.messages ?? []);
    } finally {
      await resumed.close();
    }
  });

  it("tells PNG, JPEG, GIF and WebP apart by their first bytes", () => {
    expect(sniffImageBytes(TINY_PNG)).toBe("image/png");
    expect(sniffImageBytes(Buffer.from([0xff, 0xd8, 0xff, 0xe0]))).toBe("image/jpeg");
    expect(sniffImageBytes(Buffer.from("GIF89a"))).toBe("image/gif");
    expect(sniffImageBytes(Buffer.from("RIFF\0\0\0\0WEBPVP8 "))).toBe("image/webp");
    expect(sniffImageBytes(Buffer.from("hello world"))).toBeUndefined();
  });
});
