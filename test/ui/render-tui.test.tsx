import { Text } from "ink";
import { useState } from "react";
import { describe, expect, it } from "vitest";
import { Priority } from "../../src/ui/terminal/input-bus.js";
import { useKeys, usePaste } from "../../src/ui/terminal/input-context.js";
import { renderTui } from "../support/render-tui.js";

function Echo({ priority }: { priority: number }) {
  const [text, setText] = useState("");
  useKeys((key) => {
    if (key.name === "char" && !key.ctrl) {
      setText((current) => current + key.char);
      return true;
    }
    return false;
  }, priority);
  usePaste((pasted) => setText((current) => current + `[${pasted.length}]`), priority);
  return <Text>typed:{text}</Text>;
}

describe("the test renderer and the input bus", () => {
  it("routes keys and pastes to the component", async () => {
    const tui = renderTui(<Echo priority={Priority.composer} />);
    tui.bus.type("hi");
    tui.bus.paste("a\nb\nc");
    expect(await tui.waitForFrame((frame) => frame.includes("typed:hi[5]"))).toContain("typed:hi[5]");
    tui.unmount();
  });
});
