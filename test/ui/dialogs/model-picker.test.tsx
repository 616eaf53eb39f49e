import { afterEach, describe, expect, it } from "vitest";
import { ModelPicker } from "../../../src/ui/components/model-picker.js";
import { plainTheme } from "../../../src/ui/theme.js";
import { renderTui, type TuiHarness } from "../../support/render-tui.js";

const MODELS = ["gpt-5", "gpt-4.1", "o3", "claude-sonnet-4", "gpt-5-mini"];

let tui: TuiHarness | undefined;
afterEach(() => tui?.unmount());

function open(models: string[] | undefined, current = "gpt-4.1", error?: string) {
  const selected: string[] = [];
  const efforts: (string | undefined)[] = [];
  let cancelled = 0;
  const node = (list: string[] | undefined) => (
    <ModelPicker
      models={list}
      current={current}
      {...(error ? { error } : {})}
      theme={plainTheme}
      width={60}
      onSelect={(model, effort) => {
        selected.push(model);
        efforts.push(effort);
      }}
      onCancel={() => (cancelled += 1)}
    />
  );
  tui = renderTui(node(models));
  return { tui, selected, efforts, cancelled: () => cancelled, rerender: (list: string[] | undefined) => tui?.rerender(node(list)) };
}

describe("the model picker", () => {
  it("lists the models with the current one marked and highlighted", async () => {
    const { tui, selected } = open(MODELS);
    const frame = await tui.waitForFrame((text) => text.includes("Select a model"));
    expect(frame).toContain("❯ gpt-4.1 ✓ current");
    for (const model of MODELS) expect(frame).toContain(model);
    tui.bus.press("enter");
    await tui.flush();
    expect(selected).toEqual(["gpt-4.1"]);
  });

  it("filters as you type and selects the highlighted match", async () => {
    const { tui, selected } = open(MODELS);
    await tui.flush();
    tui.bus.type("mini");
    const frame = await tui.waitForFrame((text) => text.includes("Filter: mini"));
    expect(frame).toContain("gpt-5-mini");
    expect(frame).not.toContain("claude-sonnet-4");
    expect(frame).not.toContain("o3");
    tui.bus.press("enter");
    await tui.flush();
    expect(selected).toEqual(["gpt-5-mini"]);
  });

  it("moves with the arrows within the filtered list", async () => {
    const { tui, selected } = open(MODELS, "o3");
    await tui.flush();
    tui.bus.type("GPT");
    tui.bus.press("down");
    await tui.waitForFrame((text) => text.includes("❯ gpt-4.1"));
    tui.bus.press("down");
    tui.bus.press("enter");
    await tui.flush();
    expect(selected).toEqual(["gpt-5-mini"]);
  });

  it("edits the filter with backspace", async () => {
    const { tui } = open(MODELS);
    await tui.flush();
    tui.bus.type("o3x");
    await tui.waitForFrame((text) => text.includes("No models match."));
    tui.bus.press("backspace");
    const frame = await tui.waitForFrame((text) => text.includes("Filter: o3") && !text.includes("o3x"));
    expect(frame).toContain("❯ o3");
  });

  it("shows loading, then the list when it arrives", async () => {
    const { tui, rerender } = open(undefined);
    expect(await tui.waitForFrame((text) => text.includes("Loading models…"))).not.toContain("gpt-5");
    rerender(MODELS);
    const frame = await tui.waitForFrame((text) => text.includes("claude-sonnet-4"));
    expect(frame).not.toContain("Loading models…");
    expect(frame).toContain("❯ gpt-4.1 ✓ current");
  });

  it("shows an error and still lets you type a model name", async () => {
    const { tui, selected } = open(["gpt-4.1"], "gpt-4.1", "404 Not Found");
    expect(await tui.waitForFrame((text) => text.includes("Could not list models"))).toContain("404 Not Found");
    tui.bus.type("my-local-model");
    await tui.waitForFrame((text) => text.includes('❯ Use "my-local-model"'));
    tui.bus.press("enter");
    await tui.flush();
    expect(selected).toEqual(["my-local-model"]);
  });

  it("never turns typed text into a model name when the endpoint lists its models", async () => {
    const { tui, selected } = open(MODELS);
    await tui.flush();
    tui.bus.type("not-a-model");
    const frame = await tui.waitForFrame((text) => text.includes("No models match."));
    expect(frame).not.toContain('Use "not-a-model"');
    tui.bus.press("enter");
    await tui.flush();
    expect(selected).toEqual([]);
  });

  it("keys typed while the list loads filter it, and never become a model name", async () => {
    const { tui, selected, rerender } = open(undefined);
    await tui.waitForFrame((text) => text.includes("Loading models…"));
    tui.bus.type("claude");
    tui.bus.press("enter");
    await tui.flush();
    expect(selected).toEqual([]);
    rerender(MODELS);
    await tui.waitForFrame((text) => text.includes("❯ claude-sonnet-4"));
    tui.bus.press("enter");
    await tui.flush();
    expect(selected).toEqual(["claude-sonnet-4"]);
  });

  it("accepts a typed name when the endpoint listed no models, and says so", async () => {
    const { tui, selected } = open([]);
    await tui.waitForFrame((text) => text.includes("The endpoint listed no models: type a name."));
    tui.bus.type("local-model");
    await tui.waitForFrame((text) => text.includes('❯ Use "local-model"'));
    tui.bus.press("enter");
    await tui.flush();
    expect(selected).toEqual(["local-model"]);
  });

  it("cancels on Esc and takes every key", async () => {
    const { tui, selected, cancelled } = open(MODELS);
    const below: string[] = [];
    tui.bus.onKey((key) => {
      below.push(key.name);
      return true;
    }, 10);
    await tui.flush();
    tui.bus.type("g");
    tui.bus.press("escape");
    tui.bus.press("enter");
    await tui.flush();
    expect(cancelled()).toBe(1);
    expect(selected).toEqual([]);
    expect(below).toEqual([]);
  });

  it("keeps the current reasoning effort unless ←/→ choose one, which goes with the model", async () => {
    const first = open(MODELS);
    expect(await first.tui.waitForFrame((text) => text.includes("Select a model"))).toContain("Reasoning effort: ‹ keep current ›");
    first.tui.bus.press("enter");
    await first.tui.flush();
    expect(first.efforts).toEqual([undefined]);
    first.tui.unmount();

    const { tui, selected, efforts } = open(MODELS);
    await tui.flush();
    tui.bus.type("o3");
    for (let step = 0; step < 6; step += 1) tui.bus.press("right");
    await tui.waitForFrame((text) => text.includes("Reasoning effort: ‹ xhigh ›"));
    tui.bus.press("left");
    await tui.waitForFrame((text) => text.includes("Reasoning effort: ‹ high ›"));
    tui.bus.press("enter");
    await tui.flush();
    expect(selected).toEqual(["o3"]);
    expect(efforts).toEqual(["high"]);
  });
});
