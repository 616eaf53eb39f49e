/**
 * An MCP server's configuration read without zod (src/util/plain-object.ts, PLAIN_SERVER_CONFIG) against the schema
 * it stands in for: an entry taken as it is gives back what the schema gives (the same fields, in the same order),
 * anything the schema refuses or would change goes to the schema, which says what is wrong.
 */
import { describe, expect, it } from "vitest";
import { parseConfigDocument, PLAIN_SERVER_CONFIG, serverConfigSchema } from "../../src/mcp/mcp-config.js";
import { variantsOf } from "../support/json-variants.js";
import { checkPlainReader } from "../support/plain-reader-check.js";

const LOCAL = {
  type: "local",
  command: "node",
  args: ["server.mjs", "--flag"],
  env: { TOKEN: "x", EMPTY: "" },
  cwd: "/srv",
  tools: ["*"],
  timeout: 5000,
  startupTimeout: 1.5,
  disabled: false,
  extra: { kept: true },
};
const REMOTE = { type: "http", url: "https://example.com/mcp", headers: { Authorization: "Bearer t" }, workingDirectory: "w" };

describe("MCP server entries read without zod", () => {
  it("knows every field of the schema", () => {
    expect(Object.keys(PLAIN_SERVER_CONFIG)).toEqual(Object.keys(serverConfigSchema.unwrap().shape));
  });

  it("takes only entries the schema gives back unchanged, in the same order", () => {
    const paths = [
      ...Object.keys(PLAIN_SERVER_CONFIG).map((field) => [field]),
      ["args", 0],
      ["env", "TOKEN"],
      ["headers", "Authorization"],
      ["tools", 1],
      ["other"],
    ];
    const values = [LOCAL, REMOTE].flatMap((base) => [...variantsOf(base, paths), { ...base, timeout: 0 }, { ...base, timeout: -1 }, { ...base, type: "ws" }]);
    const { taken, refused } = checkPlainReader([...values, [], null, "x"], PLAIN_SERVER_CONFIG, serverConfigSchema);
    expect(taken).toBeGreaterThan(40);
    expect(refused).toBeGreaterThan(20);
  });

  it("reads a document as before: its servers, and the schema's word on an entry it refuses", () => {
    const text = JSON.stringify({ servers: { remote: REMOTE }, mcpServers: { local: LOCAL, bad: { command: 7 } } });
    const { servers, problems } = parseConfigDocument(text, "test.json");
    expect(servers.map((server) => [server.name, server.transport])).toEqual([
      ["remote", "http"],
      ["local", "stdio"],
    ]);
    expect(servers[1]?.config).toEqual(serverConfigSchema.parse(LOCAL));
    expect(problems).toEqual([expect.stringMatching(/^test\.json: MCP server "bad": .*command/)]);
    expect(parseConfigDocument('{"mcpServers": []}', "t").problems).toEqual(['t: expected {"mcpServers": {...}}']);
    expect(parseConfigDocument('{"mcpServers": null}', "t").problems).toEqual(['t: expected {"mcpServers": {...}}']);
  });
});
