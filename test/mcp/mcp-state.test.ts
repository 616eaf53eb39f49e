/**
 * The session's MCP servers in its state: session.mcp_servers_loaded when the configuration is read (each
 * server pending), session.mcp_server_status_changed as one connects, is disabled, started again or reloaded.
 */
import { describe, expect, it } from "vitest";
import { startHarness, waitForEvent } from "../support/engine-harness.js";
import { useMcpHarness } from "../support/mcp-harness.js";
import { mcpConfig, stdioServer } from "./mcp-support.js";

const mcp = useMcpHarness();

describe("the MCP servers in the session's state", () => {
  it("follow the servers' events: pending, connected, disabled, pending again, connected again", async () => {
    const harness = (mcp.harness = await startHarness({ mcp: { additional: [mcpConfig({ mini: stdioServer() })] } }));
    const state = () => harness.session.engine.state.mcpServers;
    const connected = () => waitForEvent(harness, () => state()[0]?.status === "connected");
    expect(harness.ofType("session.mcp_servers_loaded").map((event) => event.data.servers)).toEqual([
      [{ name: "mini", status: "pending", source: expect.any(String), transport: "stdio" }],
    ]);
    await connected();
    expect(state()).toEqual([{ name: "mini", status: "connected", source: expect.any(String), transport: "stdio" }]);

    await harness.session.dispatch({ type: "input", text: "/mcp disable mini" });
    expect(state()[0]?.status).toBe("disabled");
    await harness.session.dispatch({ type: "input", text: "/mcp enable mini" });
    expect(harness.ofType("session.mcp_server_status_changed").map((event) => event.data.status)).toEqual(["connected", "disabled", "pending"]);
    await waitForEvent(
      harness,
      (event) =>
        event.type === "session.mcp_server_status_changed" &&
        event.data.status === "connected" &&
        harness.ofType("session.mcp_server_status_changed").length === 4,
    );
    expect(state()[0]?.status).toBe("connected");

    await harness.session.dispatch({ type: "input", text: "/mcp reload" });
    expect(harness.ofType("session.mcp_servers_loaded")).toHaveLength(2);
    expect(state()[0]?.status).toBe("connected");
  });

  it("name a server that fails to start, with its error", async () => {
    const harness = (mcp.harness = await startHarness({
      mcp: { additional: [mcpConfig({ broken: { type: "local", command: "/nonexistent/server", args: [], tools: ["*"] } })] },
    }));
    await waitForEvent(harness, (event) => event.type === "session.mcp_server_status_changed");
    expect(harness.session.engine.state.mcpServers).toEqual([
      { name: "broken", status: "failed", error: expect.any(String), source: expect.any(String), transport: expect.any(String) },
    ]);
  });
});
