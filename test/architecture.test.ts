/** House rules a machine can check: the core imports no UI, files stay small, no `any`. */
import { readFileSync } from "node:fs";
import path from "node:path";
import fg from "fast-glob";
import { describe, expect, it } from "vitest";

const files = fg.sync("src/**/*.{ts,tsx}");

describe("architecture", () => {
  it("keeps ink, react and chalk out of everything but src/ui and src/cli", () => {
    const offenders = files
      .filter((file) => !file.startsWith("src/ui/") && !file.startsWith("src/cli/"))
      .filter((file) => /from ["'](ink|react|chalk|ink-[a-z-]+)["']|from ["'][./]+ui\//.test(readFileSync(file, "utf8")));
    expect(offenders).toEqual([]);
  });

  it("keeps the headless CLI free of ink and react", () => {
    const offenders = files.filter((file) => file.startsWith("src/cli/") && /from ["'](ink|react)["']/.test(readFileSync(file, "utf8")));
    expect(offenders).toEqual([]);
  });

  it("keeps every source file under 500 lines", () => {
    const long = files.map((file) => ({ file, lines: readFileSync(file, "utf8").split("\n").length })).filter(({ lines }) => lines > 500);
    expect(long).toEqual([]);
  });

  it("keeps the core's files at 300 lines, or says in the opening comment why one is longer (over 300 lines: …)", () => {
    const long = files
      .filter((file) => file.startsWith("src/core/"))
      .filter((file) => {
        const text = readFileSync(file, "utf8");
        const lines = text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
        const opening = /^\/\*\*[\s\S]*?\*\//.exec(text)?.[0] ?? "";
        return lines > 300 && !/over 300 lines/i.test(opening);
      });
    expect(long).toEqual([]);
  });

  it("uses no `any`", () => {
    const offenders = files.filter((file) => /:\s*any\b|\bas any\b|<any>/.test(readFileSync(file, "utf8")));
    expect(offenders).toEqual([]);
  });

  it("names files in kebab-case", () => {
    const offenders = files.filter((file) => !/^[a-z0-9]+(-[a-z0-9]+)*\.tsx?$/.test(file.split("/").at(-1) ?? ""));
    expect(offenders).toEqual([]);
  });
});

/**
 * The folder map: what each folder under src/ may import of ours. Lower layers never import higher ones,
 * so there are no cycles between folders; the protocol imports nothing of ours but zod.
 */
const layers: Record<string, readonly string[]> = {
  protocol: [],
  util: [],
  provider: ["protocol", "util"],
  config: ["protocol", "util", "provider"],
  session: ["protocol", "util", "config"],
  permissions: ["protocol", "util", "config"],
  tools: ["protocol", "util", "config"],
  hooks: ["protocol", "util", "config"],
  skills: ["protocol", "util", "config"],
  plugins: ["protocol", "util", "config", "skills"],
  mcp: ["protocol", "util", "config", "tools"],
  memory: ["protocol", "util", "config", "tools"],
  core: ["protocol", "util", "provider", "config", "session", "permissions", "tools", "hooks", "mcp", "skills", "plugins", "memory"],
  ui: ["protocol", "util", "core", "session", "config"],
  acp: ["protocol", "util", "config", "session", "core"],
  server: ["protocol", "util", "provider", "config", "session", "core", "hooks", "mcp"],
  cli: [
    "protocol",
    "util",
    "provider",
    "config",
    "session",
    "permissions",
    "tools",
    "hooks",
    "mcp",
    "skills",
    "plugins",
    "memory",
    "core",
    "ui",
    "acp",
    "server",
  ],
};

/** The faces: the TUI, the command line (headless printers and hosts), the SDK server and ACP. */
const FACES = ["ui", "cli", "server", "acp"];
const isFace = (file: string) => FACES.includes(file.split("/")[1] as string);

function folderOf(file: string): string {
  return file.split("/")[1] as string;
}

/** Every import between folders (static, dynamic and type-only): the file, its folder, the folder and file it imports. */
function crossFolderImports(): { file: string; from: string; to: string; target: string }[] {
  const found: { file: string; from: string; to: string; target: string }[] = [];
  for (const file of files) {
    const text = readFileSync(file, "utf8");
    for (const match of text.matchAll(/(?:from|import)\s*\(?\s*["'](\.[^"']+)["']/g)) {
      const target = path.relative(".", path.resolve(path.dirname(file), match[1] as string));
      // A package's file reached by its path (one Ink does not export: src/ui/terminal/ink-output-rows.ts) is not a folder of ours.
      if (target.startsWith("node_modules/")) continue;
      const from = folderOf(file);
      const to = folderOf(target);
      if (from !== to) found.push({ file, from, to, target });
    }
  }
  return found;
}

describe("the folder map", () => {
  it("names every folder under src/", () => {
    const folders = new Set(files.map(folderOf).filter((folder) => !folder.endsWith(".ts")));
    expect([...folders].filter((folder) => !(folder in layers))).toEqual([]);
  });

  it("lets each folder import only the folders below it", () => {
    const upward = crossFolderImports().filter(({ from, to }) => !(layers[from] ?? []).includes(to));
    expect(upward.map(({ file, to }) => `${file} imports ${to}`)).toEqual([]);
  });

  it("has no cycles between folders", () => {
    const edges = new Map<string, Set<string>>();
    for (const { from, to } of crossFolderImports()) edges.set(from, (edges.get(from) ?? new Set()).add(to));
    const cycles: string[] = [];
    const visit = (folder: string, trail: string[]) => {
      for (const next of edges.get(folder) ?? []) {
        if (trail.includes(next)) cycles.push([...trail.slice(trail.indexOf(next)), next].join(" -> "));
        else visit(next, [...trail, next]);
      }
    };
    for (const folder of edges.keys()) visit(folder, [folder]);
    expect(cycles).toEqual([]);
  });

  it("keeps the protocol free of every package but zod", () => {
    const offenders = files
      .filter((file) => file.startsWith("src/protocol/"))
      .flatMap((file) => [...readFileSync(file, "utf8").matchAll(/from ["']([^."'][^"']*)["']/g)].map((match) => `${file}: ${match[1]}`))
      .filter((entry) => !entry.endsWith(": zod"));
    expect(offenders).toEqual([]);
  });

  it("keeps the faces off engine objects: they dispatch commands", () => {
    const reaching = files
      .filter(isFace)
      .filter((file) =>
        /\.(permissionBroker|runtime|interactions)\b|\.session\.(send|interrupt|setMode|setModel|respondToPermission|runShellCommand|shutdown)\(/.test(
          readFileSync(file, "utf8"),
        ),
      );
    expect(reaching).toEqual([]);
  });

  it("lets the faces reach the core only through its public entry, src/core/index.ts", () => {
    const past = crossFolderImports()
      .filter(({ file, to }) => isFace(file) && to === "core")
      .filter(({ target }) => target !== "src/core/index.js" && target !== "src/core/index.ts");
    expect(past.map(({ file, target }) => `${file} imports ${target}`)).toEqual([]);
  });

  it("has the faces hold a session as the core's SessionView, never the engine's AgentSession", () => {
    const holding = files.filter(isFace).filter((file) => /\bAgentSession\b/.test(readFileSync(file, "utf8")));
    expect(holding).toEqual([]);
  });
});

describe("one owner for each session, one composition for its options", () => {
  const faces = files.filter((file) => /^src\/(cli|ui|server|acp)\//.test(file));
  const openSessionImport = /import\s*\{[^}]*\bopenSession\b[^}]*\}\s*from\s*["'][^"']*open-session\.js["']|import\(\s*["'][^"']*open-session\.js["']\s*\)/;

  it("builds every face's sessions through a manager made by composeSessionOptions, never by hand", () => {
    const offenders = faces.flatMap((file) => {
      const text = readFileSync(file, "utf8");
      const problems: string[] = [];
      if (openSessionImport.test(text) || /new AgentSession\(/.test(text)) problems.push(`${file} opens a session itself`);
      if (/new SessionManager\((?!\s*composeSessionOptions\()/.test(text)) problems.push(`${file} makes a SessionManager's defaults by hand`);
      // What settings.json says a session is made of is read in compose-session.ts alone.
      if (/settings\.compaction|\bcompaction\s*:/.test(text)) problems.push(`${file} passes compaction settings itself`);
      return problems;
    });
    expect(offenders).toEqual([]);
  });

  it("builds the test harness's sessions the same way", () => {
    const harness = readFileSync("test/support/engine-harness.ts", "utf8");
    expect(harness).toContain("composeSessionOptions(");
    expect(harness).not.toMatch(openSessionImport);
    const support = fg.sync("test/support/**/*.{ts,tsx}").filter((file) => openSessionImport.test(readFileSync(file, "utf8")));
    expect(support).toEqual([]);
  });

  it("keeps session tables out of the faces: the session manager holds the sessions", () => {
    const offenders = faces.filter((file) => /(Map|Record)<[^>]*\bAgentSession\b/.test(readFileSync(file, "utf8")));
    expect(offenders).toEqual([]);
  });
});
