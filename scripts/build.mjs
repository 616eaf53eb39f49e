// Bundles src/ into dist/ with esbuild. Entry points that are loaded lazily (the headless runner, the
// TUI) become separate chunks, so `agent --version` loads almost nothing.
import { build } from "esbuild";
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { createHash } from "node:crypto";
import path from "node:path";
import { fileURLToPath } from "node:url";

const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
rmSync(new URL("../dist", import.meta.url), { recursive: true, force: true });

// The shell analysis loads tree-sitter's runtime and its bash grammar at run time (WebAssembly, not
// bundleable). Ship only those files, so the package needs no runtime dependency and none of the other 15
// grammars (20 MB). `.cjs`: the runtime is a CommonJS file and dist/ is inside a "type": "module" package.
const treeSitterDir = path.dirname(createRequire(import.meta.url).resolve("@vscode/tree-sitter-wasm/wasm/tree-sitter.wasm"));
const vendored = new URL("../dist/tree-sitter/", import.meta.url);
mkdirSync(vendored, { recursive: true });
for (const [from, to] of [
  ["tree-sitter.js", "tree-sitter.cjs"],
  ["tree-sitter.wasm", "tree-sitter.wasm"],
  ["tree-sitter-bash.wasm", "tree-sitter-bash.wasm"],
  ["../LICENSE", "LICENSE"],
]) {
  copyFileSync(path.join(treeSitterDir, from), new URL(to, vendored));
}

// The todo store's SQLite (sql.js) is WebAssembly too, loaded on the first `sql` call: its runtime (an
// Emscripten CommonJS file that looks for itself next to __dirname, so it is not bundled) and its wasm.
const sqlJsDir = path.dirname(createRequire(import.meta.url).resolve("sql.js/dist/sql-wasm.wasm"));
const sqlVendored = new URL("../dist/sql/", import.meta.url);
mkdirSync(sqlVendored, { recursive: true });
for (const [from, to] of [
  ["sql-wasm.js", "sql-wasm.cjs"],
  ["sql-wasm.wasm", "sql-wasm.wasm"],
  ["../LICENSE", "LICENSE"],
]) {
  copyFileSync(path.join(sqlJsDir, from), new URL(to, sqlVendored));
}

// The YAML parser is loaded with a synchronous require() at the first agent file (src/util/yaml-parser.ts),
// which the bundler cannot follow: give it a CommonJS bundle of its own, so an install needs no `yaml`.
const yamlEntry = createRequire(import.meta.url).resolve("yaml");
mkdirSync(new URL("../dist/yaml/", import.meta.url), { recursive: true });
copyFileSync(path.join(path.dirname(yamlEntry), "../LICENSE"), new URL("../dist/yaml/LICENSE", import.meta.url));
/** A CommonJS bundle of its own, for what is loaded with require() or run as a script. */
const commonJsBundle = {
  bundle: true,
  format: "cjs",
  platform: "node",
  target: "node20",
  legalComments: "none",
  logLevel: "warning",
  minifyWhitespace: true,
  minifySyntax: true,
};
/**
 * The bundles run as scripts (src/util/code-cache.ts) are read as Latin-1 when they are ASCII, ~5 ms sooner than
 * as UTF-8 for program.cjs. esbuild escapes what it can; a character it left (one in a regular expression) stops
 * the build: write it as an escape (\u2026 for …).
 */
function checkAscii(file) {
  const at = file.contents.findIndex((byte) => byte > 0x7f);
  if (file.path.endsWith(".cjs") && at !== -1)
    throw new Error(`${file.path} is not ASCII: ${JSON.stringify(file.text.slice(Math.max(0, at - 60), at + 20))}; write the character as an escape`);
}
await build({ ...commonJsBundle, entryPoints: [yamlEntry], outfile: fileURLToPath(new URL("../dist/yaml/yaml.cjs", import.meta.url)) });

// zod's namespace object re-exports all 60-odd locales, so a bundle keeps them all (300 KB of source to
// compile at every start). Only English is used: resolve zod's locale index to English alone.
const zodEnglishOnly = {
  name: "zod-english-only",
  setup(builder) {
    builder.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]zod[\\/]v4[\\/]/.test(args.importer) ? { path: path.join(args.resolveDir, "../locales/en.js"), namespace: "zod-locales" } : undefined,
    );
    builder.onLoad({ filter: /.*/, namespace: "zod-locales" }, (args) => ({
      contents: `export { default as en } from ${JSON.stringify(args.path)};`,
      resolveDir: path.dirname(args.path),
    }));
  },
};

// Ink measures every text node at every render with widest-line; its files get src/ui/terminal/remembered-widest-line.ts
// instead, which gives widest-line's own answer, remembered for short texts (the keys typed while ten agents start
// waited ~14 ms a frame for it, docs/benchmarks.md). Only Ink's imports: that module's own import is the package.
const inkRememberedWidths = {
  name: "ink-remembered-widths",
  setup(builder) {
    builder.onResolve({ filter: /^widest-line$/ }, (args) =>
      /[\\/]node_modules[\\/]ink[\\/]/.test(args.importer)
        ? { path: fileURLToPath(new URL("../src/ui/terminal/remembered-widest-line.ts", import.meta.url)) }
        : undefined,
    );
    // And its text cleaning (escape sequences kept or dropped), done per text node at every render and layout.
    builder.onResolve({ filter: /^\.\/sanitize-ansi\.js$/ }, (args) =>
      /[\\/]node_modules[\\/]ink[\\/]build[\\/]squash-text-nodes\.js$/.test(args.importer)
        ? { path: fileURLToPath(new URL("../src/ui/terminal/remembered-sanitize-ansi.ts", import.meta.url)) }
        : undefined,
    );
  },
};

// zod and openai (and commander, below), the libraries every run loads before its first request, are one CommonJS
// bundle (dist/vendor.cjs) run through vm.Script with V8's code cache (src/util/code-cache.ts): Node 20
// caches no ES module's compiled code, and compiling these ~600 KB is a fifth of the start-up. The main
// bundle reaches them through small modules that re-export the vendor bundle's namespaces.
// zod/v4, zod/v4-mini and zod/v4/core too: the MCP and ACP SDKs import those, and one zod (one core, one
// configuration) serves everyone, as it did when all of it was ES modules. zod/v4 is zod's own namespace
// (the same exports, checked below); the other two are set up only when first imported (a getter that requires
// them; "vendor-lazy:" resolves as an import would, to the ES files), since a namespace object made at every
// start costs a millisecond or more.
const vendorPackages = {
  zod: "zod",
  openai: "openai",
};
// commander, which every run needs first (to read its arguments), is a code-cached bundle of its own
// (dist/vendor-commander.cjs): the TUI draws its first frame (a resumed session's last exchange with it) before
// anything needs zod or openai, and deserialising those cost ~25 ms of it (docs/benchmarks.md).
const commanderPackages = { commander: "commander" };
// Only the names src/provider/anthropic-messages.ts uses: a namespace would keep the whole SDK (its 80-odd
// resources, OpenTelemetry), four times what the client needs.
const anthropicPackages = { "@anthropic-ai/sdk/client": "anthropicClient", "@anthropic-ai/sdk/core/error": "anthropicErrors" };
const onlyNames = {
  // What src/mcp/mcp-sdk.ts hands out of the MCP SDK (vendor-tools.cjs, below); its types name the same.
  "@modelcontextprotocol/sdk/client/index.js": ["Client"],
  "@modelcontextprotocol/sdk/types.js": ["ElicitRequestSchema"],
  "@modelcontextprotocol/sdk/client/sse.js": ["SSEClientTransport"],
  "@modelcontextprotocol/sdk/client/streamableHttp.js": ["StreamableHTTPClientTransport"],
  "@modelcontextprotocol/sdk/shared/stdio.js": ["ReadBuffer", "serializeMessage"],
  "@anthropic-ai/sdk/client": ["BaseAnthropic"],
  "@anthropic-ai/sdk/core/error": ["APIConnectionError", "APIConnectionTimeoutError", "APIError", "APIUserAbortError"],
};
const sameAs = { "zod/v4": "zod", "vscode-jsonrpc/node.js": "vscode-jsonrpc" };
const lazyVendorPackages = { "zod/v4/core": "zodV4Core", "zod/v4-mini": "zodV4Mini" };
{
  const [zod, zodV4] = await Promise.all([import("zod"), import("zod/v4")]);
  if (Object.keys(zodV4).some((name) => zod[name] !== zodV4[name])) throw new Error("zod/v4 is no longer zod's own namespace: give it one of its own");
  const require = createRequire(import.meta.url);
  if (require("vscode-jsonrpc") !== require("vscode-jsonrpc/node.js"))
    throw new Error("vscode-jsonrpc/node.js is no longer vscode-jsonrpc's main module: give it one of its own");
}
// openai's and the Anthropic SDK's Headers and FormData: see the file.
const fetchGlobals = fileURLToPath(new URL("./openai-globals.mjs", import.meta.url));
const vendorFile = new URL("../dist/vendor.cjs", import.meta.url);
const vendorLazy = {
  name: "vendor-lazy",
  setup(builder) {
    builder.onResolve({ filter: /^vendor-lazy:/ }, (args) =>
      builder.resolve(args.path.slice("vendor-lazy:".length), { kind: "import-statement", resolveDir: args.resolveDir }),
    );
  },
};
// openai's client sets up every resource of the API (admin, audio, assistants, fine-tuning, vector stores …, some 120
// modules) in its constructor; the agent calls chat.completions, responses and models. The others are empty classes
// here: the client is the same object, with nothing behind what it never calls. So are the helpers behind
// chat.completions.stream() and runTools() and responses.stream(): the agent reads the raw streamed response
// (.asResponse()); constructing one throws. ~0.3 MB of a `-p` run's peak RSS (docs/benchmarks.md).
const openaiUsedResources = new Set(["chat/chat", "responses/responses", "models"]);
const openaiUnusedHelpers =
  /[\\/]node_modules[\\/]openai[\\/]lib[\\/](ChatCompletionRunner|ChatCompletionStreamingRunner|ChatCompletionStream|responses[\\/]ResponseStream)\.mjs$/;
// What the openai and Anthropic clients' checks for a web ReadableStream body become (below): the same answer without
// touching the global, whose first use on Node 20 sets up Node's web streams. Only a web stream's tag is "ReadableStream".
const isWebReadableStreamSource = `\nfunction isWebReadableStream(value) {\n  return typeof value === "object" && value !== null && Object.prototype.toString.call(value) === "[object ReadableStream]";\n}\n`;
const openaiStubbed = [];
const openaiUnused = {
  name: "openai-unused",
  setup(builder) {
    builder.onLoad({ filter: openaiUnusedHelpers }, (args) => {
      const name = path.basename(args.path, ".mjs");
      openaiStubbed.push(`lib/${name}`);
      const message = JSON.stringify(`openai's ${name} is not in the agent's bundle (scripts/build.mjs)`);
      return { contents: `export class ${name} {\n  constructor() {\n    throw new Error(${message});\n  }\n}\n`, loader: "js" };
    });
    // The client asks whether a request's body is a web ReadableStream through the global, whose first use on Node 20
    // sets up Node's web streams (~0.6 MB of a `-p` run's peak RSS); the agent's bodies are strings. The same answer
    // without the global: only a web stream's tag is "ReadableStream" (and none exists before the global is used).
    builder.onLoad({ filter: /[\\/]node_modules[\\/]openai[\\/]client\.mjs$/ }, (args) => {
      const source = readFileSync(args.path, "utf8");
      const check = /(?:typeof globalThis\.ReadableStream !== 'undefined'|globalThis\.ReadableStream)\s*&&\s*([\w.]+) instanceof globalThis\.ReadableStream/g;
      const found = source.match(check)?.length ?? 0;
      if (found !== 3 || source.replace(check, "").includes("globalThis.ReadableStream"))
        throw new Error(`openai's client checks for a ReadableStream body other than scripts/build.mjs expects (${found} checks)`);
      openaiStubbed.push("client:ReadableStream");
      return { contents: source.replace(check, "isWebReadableStream($1)") + isWebReadableStreamSource, loader: "js" };
    });
    builder.onLoad({ filter: /[\\/]node_modules[\\/]openai[\\/]resources[\\/].*\.m?js$/ }, async (args) => {
      const relative = args.path
        .replace(/^.*[\\/]node_modules[\\/]openai[\\/]resources[\\/]/, "")
        .replace(/\.m?js$/, "")
        .replaceAll("\\", "/");
      const source = readFileSync(args.path, "utf8");
      // A top-level resource: one exported class, directly under resources/ or as <name>/<name>.
      const parts = relative.split("/");
      const topLevel = parts.length === 1 || (parts.length === 2 && parts[0] === parts[1]);
      const classes = [...source.matchAll(/^export class (\w+) extends APIResource\b/gm)].map((match) => match[1]);
      if (!topLevel || openaiUsedResources.has(relative) || classes.length !== 1 || !args.path.endsWith(".mjs")) return undefined;
      const resource = path.join(path.dirname(args.path), "../".repeat(parts.length), "core/resource.mjs");
      openaiStubbed.push(relative);
      return { contents: `import { APIResource } from ${JSON.stringify(resource)};\nexport class ${classes[0]} extends APIResource {}\n`, loader: "js" };
    });
  },
};
const vendorBuild = await build({
  stdin: {
    contents: [
      ...Object.entries(vendorPackages).map(([specifier, name]) => `export * as ${name} from ${JSON.stringify(specifier)};`),
      `export const lazy = { ${Object.entries(lazyVendorPackages)
        .map(([specifier, name]) => `get ${name}() { return require(${JSON.stringify(`vendor-lazy:${specifier}`)}); }`)
        .join(", ")} };`,
    ].join("\n"),
    resolveDir: fileURLToPath(new URL("..", import.meta.url)),
    loader: "js",
  },
  ...commonJsBundle,
  outfile: fileURLToPath(vendorFile),
  sourcemap: "linked",
  plugins: [zodEnglishOnly, vendorLazy, openaiUnused],
  inject: [fetchGlobals],
  write: false,
});
// A guard for the stubs above: openai's layout changed if they were not made (the bundle would still work, only larger).
if (openaiStubbed.filter((name) => name.startsWith("lib/")).length !== 4 || !openaiStubbed.includes("client:ReadableStream") || openaiStubbed.length < 15)
  throw new Error(`openai's resources and helpers were not found where scripts/build.mjs stubs them (${openaiStubbed.join(", ")})`);
for (const file of vendorBuild.outputFiles) {
  checkAscii(file);
  writeFileSync(file.path, file.contents);
}
const vendorSource = vendorBuild.outputFiles.find((file) => file.path.endsWith(".cjs")).contents;
const vendorId = createHash("sha256").update(vendorSource).digest("hex").slice(0, 16);
/**
 * A Node module a library requires when it loads but uses only in a function we never (or rarely) call: `names` of it
 * are looked up when called, so loading the library does not load the module. The build fails if the library no
 * longer requires it, so a changed layout is not missed.
 */
const lazyBuiltins = [];
function lazyBuiltin(library, builtin, names) {
  const namespace = `lazy-${builtin}`;
  const entry = { what: `${library}'s ${builtin}`, resolved: 0 };
  lazyBuiltins.push(entry);
  return {
    name: `${library}-lazy-${builtin}`,
    setup(builder) {
      builder.onResolve({ filter: new RegExp(`^(node:)?${builtin}$`) }, (args) => {
        if (!args.importer.includes(`${path.sep}node_modules${path.sep}${library}${path.sep}`)) return undefined;
        entry.resolved++;
        return { path: builtin, namespace };
      });
      builder.onLoad({ filter: /.*/, namespace }, () => ({
        contents: `module.exports = { ${names.map((name) => `${name}: (...args) => require("node:${builtin}").${name}(...args)`).join(", ")} };`,
        loader: "js",
      }));
    },
  };
}
// commander requires node:child_process when it loads, for subcommands that are programs of their own (`git
// foo` → git-foo), which agent has none of; loading it costs ~3 ms of every start. Its one use, spawn, is
// looked up when called instead.
const commanderLazyChildProcess = lazyBuiltin("commander", "child_process", ["spawn"]);
/** A code-cached CommonJS bundle of `packages` beside vendor.cjs (their namespaces as its exports); its build id. */
/**
 * `lazy`: each package is set up when its namespace is first asked for (the bundle's `lazy` getters), not when the
 * bundle loads: the tool libraries' bundle serves a bash command's execa without setting up the MCP SDK's schemas.
 */
async function namespaceBundle(name, packages, extra = {}, lazy = false) {
  const exportsOf = (specifier) =>
    onlyNames[specifier] ? `export { ${onlyNames[specifier].join(", ")} } from ${JSON.stringify(specifier)};` : `export * from ${JSON.stringify(specifier)};`;
  const built = await build({
    stdin: {
      contents: lazy
        ? `export const lazy = { ${Object.entries(packages)
            .map(([specifier, exported]) => `get ${exported}() { return require(${JSON.stringify(`namespace-of:${specifier}`)}); }`)
            .join(", ")} };`
        : Object.entries(packages)
            .map(([specifier, exported]) =>
              onlyNames[specifier]
                ? `import { ${onlyNames[specifier].join(", ")} } from ${JSON.stringify(specifier)}; export const ${exported} = { ${onlyNames[specifier].join(", ")} };`
                : `export * as ${exported} from ${JSON.stringify(specifier)};`,
            )
            .join("\n"),
      resolveDir: fileURLToPath(new URL("..", import.meta.url)),
      loader: "js",
    },
    ...commonJsBundle,
    ...extra,
    plugins: [
      ...(extra.plugins ?? []),
      {
        // A package's namespace as a module of its own (its default export too), required by a `lazy` getter.
        name: "namespace-of",
        setup(builder) {
          builder.onResolve({ filter: /^namespace-of:/ }, (args) => ({ path: args.path.slice("namespace-of:".length), namespace: "namespace-of" }));
          builder.onLoad({ filter: /.*/, namespace: "namespace-of" }, async (args) => {
            const hasDefault = !onlyNames[args.path] && "default" in (await import(args.path));
            return {
              contents: `${exportsOf(args.path)}${hasDefault ? `\nexport { default } from ${JSON.stringify(args.path)};` : ""}`,
              resolveDir: fileURLToPath(new URL("..", import.meta.url)),
              loader: "js",
            };
          });
        },
      },
    ],
    outfile: fileURLToPath(new URL(`../dist/${name}`, import.meta.url)),
    sourcemap: "linked",
    write: false,
  });
  for (const file of built.outputFiles) {
    checkAscii(file);
    writeFileSync(file.path, file.contents);
  }
  return createHash("sha256")
    .update(built.outputFiles.find((file) => file.path.endsWith(".cjs")).contents)
    .digest("hex")
    .slice(0, 16);
}
const commanderId = await namespaceBundle("vendor-commander.cjs", commanderPackages, { plugins: [commanderLazyChildProcess] });
// The Anthropic SDK, loaded with its wire only (src/provider/wire-provider.ts), is code-cached too: compiling it
// and the functions its first request runs was most of what that wire cost over Chat Completions
// (docs/benchmarks.md). With openai's Headers and FormData: the global Headers that builds its every request
// would load all of undici in front of the first one.
// The Anthropic SDK's client, as openai's above, asks whether a request's body is a web ReadableStream through the
// global (which sets up Node's web streams), and registers each response's web body for a cleanup when it is collected:
// asking a plain response (src/provider/plain-response.ts) for `body` makes the web stream our reader does without,
// ~20 ms of a 2,000-token answer. A plain response (it has bodyReader) is registered itself, as the SDK does a
// response without a body; a real Response as before.
let anthropicPatched = 0;
const anthropicWebStreams = {
  name: "anthropic-web-streams",
  setup(builder) {
    builder.onLoad({ filter: /[\\/]node_modules[\\/]@anthropic-ai[\\/]sdk[\\/]client\.m?js$/ }, (args) => {
      const source = readFileSync(args.path, "utf8");
      const check = /globalThis\.ReadableStream\s*&&\s*([\w.]+) instanceof globalThis\.ReadableStream/g;
      const backstop = "armAbandonmentBackstop(response.body ?? response, controller)";
      const found = source.match(check)?.length ?? 0;
      if (found !== 4 || source.replace(check, "").includes("globalThis.ReadableStream") || !source.includes(backstop))
        throw new Error(`the Anthropic SDK's client reads web streams other than scripts/build.mjs expects (${found} checks)`);
      anthropicPatched++;
      const contents = source
        .replace(check, "isWebReadableStream($1)")
        .replace(backstop, 'armAbandonmentBackstop(typeof response.bodyReader === "function" ? response : (response.body ?? response), controller)');
      return { contents: contents + isWebReadableStreamSource, loader: "js" };
    });
  },
};
const anthropicId = await namespaceBundle("vendor-anthropic.cjs", anthropicPackages, { inject: [fetchGlobals], plugins: [anthropicWebStreams] });
if (anthropicPatched !== 1) throw new Error(`scripts/build.mjs patched the Anthropic SDK's client ${anthropicPatched} times, not once`);
// vscode-jsonrpc, the SDK server's transport, is a code-cached bundle of its own (dist/vendor-jsonrpc.cjs): the server's
// front (ES modules, which answer the handshake) and its engine (in program.cjs, loaded after the handshake) share
// one copy, so one ResponseError class and one set of connection types serve both halves.
const jsonrpcPackages = { "vscode-jsonrpc": "jsonrpc" };
// Its node entry requires node:crypto when it loads, for random pipe names (generateRandomPipeName), which the server
// never makes: loading crypto was ~5 ms of every SDK start() before the handshake (docs/benchmarks.md).
const jsonrpcId = await namespaceBundle("vendor-jsonrpc.cjs", jsonrpcPackages, { plugins: [lazyBuiltin("vscode-jsonrpc", "crypto", ["randomBytes"])] });
const notLazy = lazyBuiltins.filter((entry) => entry.resolved === 0).map((entry) => entry.what);
if (notLazy.length > 0) throw new Error(`scripts/build.mjs found no require of ${notLazy.join(", ")} to make lazy: the library changed`);
/** The loader (src/util/vendor-bundle.ts) of the bundle that serves `specifier`. */
function bundleOf(specifier) {
  const own = sameAs[specifier] ?? specifier;
  if (own in commanderPackages) return "commanderBundle()";
  if (own in anthropicPackages) return "anthropicBundle()";
  if (own in toolPackages) return "toolsBundle()";
  return own in jsonrpcPackages ? "jsonrpcBundle()" : "vendorBundle()";
}
// Libraries a `-p` run's script reaches only through what a plain run never sets up (the grep and glob tools'
// walkers, /review's execa, the MCP SDK's schema checks and SSE transport, edit diffs): half of program.cjs's source,
// which V8 keeps in memory for the whole run (~1.1 MB of its peak RSS, docs/benchmarks.md). program.cjs takes them
// from a code-cached bundle of their own, loaded when the first module that imports one is set up. The ES module
// build keeps them as chunks (ink loads none of them, the TUI no bundle it does not need). ajv-formats reaches into
// ajv's files: both are in this bundle, one copy. So is the MCP SDK, which only a session with MCP servers loads
// (src/mcp/mcp-sdk.ts), with zod from vendor.cjs as everywhere.
const toolPackages = {
  "@modelcontextprotocol/sdk/client/index.js": "mcpClient",
  "@modelcontextprotocol/sdk/types.js": "mcpTypes",
  "@modelcontextprotocol/sdk/client/sse.js": "mcpSse",
  "@modelcontextprotocol/sdk/client/streamableHttp.js": "mcpStreamableHttp",
  "@modelcontextprotocol/sdk/shared/stdio.js": "mcpStdio",
  execa: "execa",
  diff: "diff",
  "fast-glob": "fastGlob",
  ignore: "ignore",
  ajv: "ajv",
  "ajv-formats": "ajvFormats",
  eventsource: "eventsource",
};
const vendorLoader = fileURLToPath(new URL("../src/util/vendor-bundle.ts", import.meta.url));
/** The vendor bundles' libraries, served from them; `withTools`: those of vendor-tools.cjs too (program.cjs only). */
const vendorModulesFor = (withTools) => ({
  name: "vendor-modules",
  async setup(builder) {
    const all = {
      ...(withTools ? toolPackages : {}),
      ...vendorPackages,
      ...commanderPackages,
      ...anthropicPackages,
      ...jsonrpcPackages,
      ...lazyVendorPackages,
      ...Object.fromEntries(Object.entries(sameAs).map(([alias, of]) => [alias, vendorPackages[of] ?? jsonrpcPackages[of]])),
    };
    const filter = new RegExp(
      `^(${Object.keys(all)
        .map((name) => name.replaceAll("/", "\\/"))
        .join("|")})$`,
    );
    const root = fileURLToPath(new URL("..", import.meta.url));
    const resolveOnce = (specifier, from) =>
      builder.resolve(specifier, { kind: "import-statement", importer: from.importer, resolveDir: from.resolveDir, pluginData: "vendor-modules" });
    const own = new Map();
    builder.onResolve({ filter }, async (args) => {
      if (args.pluginData === "vendor-modules") return undefined;
      if (!own.has(args.path)) own.set(args.path, (await resolveOnce(args.path, { resolveDir: root })).path);
      const resolved = await resolveOnce(args.path, args);
      // Only where the import reaches the very file the vendor bundle holds (one instance of each library).
      return resolved.path === own.get(args.path) ? { path: args.path, namespace: "vendor-modules" } : resolved;
    });
    builder.onLoad({ filter: /.*/, namespace: "vendor-modules" }, async (args) => {
      const names = onlyNames[args.path] ?? Object.keys(await import(args.path));
      const named = names.filter((name) => name !== "default" && /^[A-Za-z_$][\w$]*$/.test(name));
      const lines = [
        `import { anthropicBundle, commanderBundle, jsonrpcBundle, toolsBundle, vendorBundle } from ${JSON.stringify(vendorLoader)};`,
        `const m = ${bundleOf(args.path)}${args.path in lazyVendorPackages || args.path in toolPackages ? ".lazy" : ""}.${all[args.path]};`,
        `export const { ${named.join(", ")} } = m;`,
      ];
      if (names.includes("default")) lines.push("export default m.default;");
      return { contents: lines.join("\n"), resolveDir: path.dirname(vendorLoader), loader: "js" };
    });
  },
});

const requireBanner = "import { createRequire as __agentCreateRequire } from 'node:module'; const require = __agentCreateRequire(import.meta.url);";
// The built-in tools' parameters as JSON Schema, converted now with the run time's own code (the module is
// bundled for the moment) and defined into the bundle: a session converts none before its first request.
const toolParameters = new URL("../dist/.tool-parameters.mjs", import.meta.url);
await build({
  entryPoints: ["src/core/builtin-tool-parameters.ts"],
  outfile: fileURLToPath(toolParameters),
  bundle: true,
  format: "esm",
  platform: "node",
  target: "node20",
  logLevel: "warning",
  banner: { js: requireBanner },
  external: ["@vscode/tree-sitter-wasm", "sql.js"],
  plugins: [zodEnglishOnly],
});
const toolSchemas = {};
try {
  const { builtinParameters } = await import(toolParameters.href);
  const { z } = await import("zod");
  for (const [name, parameters] of Object.entries(builtinParameters())) toolSchemas[name] = z.toJSONSchema(parameters, { io: "input" });
} finally {
  rmSync(toolParameters, { force: true });
}

// The defines of the ES module build and of the program bundle (below). Production builds of React and friends:
// smaller, and far faster than their development builds. AGENT_TREE_SITTER_DIR, AGENT_SQL_JS_DIR,
// AGENT_YAML_DIR: where the vendored files are, relative to the chunks (dist/chunks/, where both run from).
const define = {
  AGENT_VERSION: JSON.stringify(pkg.version),
  AGENT_TREE_SITTER_DIR: '"../tree-sitter/"',
  AGENT_SQL_JS_DIR: '"../sql/"',
  AGENT_YAML_DIR: '"../yaml/"',
  AGENT_VENDOR_ID: JSON.stringify(vendorId),
  AGENT_COMMANDER_ID: JSON.stringify(commanderId),
  AGENT_ANTHROPIC_ID: JSON.stringify(anthropicId),
  AGENT_JSONRPC_ID: JSON.stringify(jsonrpcId),
  // A string parsed at the first use: an object here would be a module of its own, initialised everywhere.
  AGENT_TOOL_SCHEMAS_JSON: JSON.stringify(JSON.stringify(toolSchemas)),
  "process.env.NODE_ENV": '"production"',
};
// vendor-tools.cjs after the other bundles' ids: the MCP SDK in it takes zod from vendor.cjs through the loader
// (src/util/vendor-bundle.ts), which expects to sit in dist/chunks/.
const toolsId = await namespaceBundle(
  "vendor-tools.cjs",
  toolPackages,
  {
    plugins: [zodEnglishOnly, vendorModulesFor(false)],
    define: { ...define, AGENT_TOOLS_ID: '""', "import.meta.url": "__agentModuleUrl" },
    banner: { js: 'var __agentModuleUrl = require("node:url").pathToFileURL(require("node:path").join(__dirname, "chunks", "vendor-tools.cjs")).href;' },
  },
  true,
);
define.AGENT_TOOLS_ID = JSON.stringify(toolsId);

// A `-p` run's program (src/cli/program.ts and all it may load but the TUI) as one CommonJS file,
// dist/chunks/program.cjs, run through vm.Script with V8's code cache as the vendor bundles are: Node 20 caches
// no ES module's compiled code, and resolving, reading, compiling and linking the 70-odd ES module chunks of
// such a run was a sixth of its start-up (docs/benchmarks.md). The TUI stays ES modules (ink and yoga use
// top-level await, which a script cannot): program.ts's import of it goes to the ES module build's entry
// dist/interactive.js (through main.ts, below), which a `-p` run reaches only in odd cases (`--name -p` in a
// terminal). Every other run (the TUI, the SDK server, `agent mcp …`
// without -p) loads the ES modules as before.
const programFile = new URL("../dist/chunks/program.cjs", import.meta.url);
// A script cannot import(): Node 20 loses a script's import callback when its code comes from the cache (and
// warns that the callback is experimental when it does not). So the program bundle has no import() at all:
// Node's own modules are required (esbuild's "dynamic-import": false), and what it leaves to the ES module build is
// imported by the function the run's start (src/cli/one-shot.ts) leaves under this symbol, given the entry's name:
// the TUI (dist/interactive.js), and the subcommands and the SDK's server (dist/subcommands.js: mcp, plugin, replay,
// memory, ACP, server mode), which a `-p` run reaches only in odd cases (`agent mcp list -p x`) and whose ~380 KB of
// source the script would otherwise keep in memory for the whole run (docs/benchmarks.md).
const ESM_LOADER = "agent.importEsmEntry";
const esmEntries = {
  "./interactive.js": ["interactive", "runInteractive"],
  "./mcp-command.js": ["subcommands", "runMcpCommand"],
  "./plugin-command.js": ["subcommands", "runPluginCommand"],
  "./replay-command.js": ["subcommands", "runReplayCommand"],
  "./memory-command.js": ["subcommands", "runMemoryCommand"],
  "./acp-command.js": ["subcommands", "runAcp"],
  // bin/agent.js and main.ts start the SDK's server without the script; program.ts reaches it only for odd command lines.
  "./server-mode.js": ["subcommands", "runServer"],
};
const esmEntry = {
  name: "esm-entry",
  setup(builder) {
    builder.onResolve({ filter: /^\.\/[a-z-]+\.js$/ }, (args) =>
      args.importer.endsWith(path.join("src", "cli", "program.ts")) && esmEntries[args.path] ? { path: args.path, namespace: "esm-entry" } : undefined,
    );
    builder.onLoad({ filter: /.*/, namespace: "esm-entry" }, (args) => {
      const [entry, name] = esmEntries[args.path];
      return {
        contents: `export const ${name} = async (...args) => (await globalThis[Symbol.for(${JSON.stringify(ESM_LOADER)})](${JSON.stringify(entry)})).${name}(...args);`,
        loader: "js",
      };
    });
  },
};
/**
 * One script of the program (dist/chunks/<name>) from `entry`, checked and written; its build and its id (a hash of
 * its content). Two are built: a `-p` run's program.cjs, with runProgram alone (so the SDK server's engine, which
 * loadServerEngine reaches, is left out: ~150 KB of source a `-p` run would keep in memory, docs/benchmarks.md), and
 * server-program.cjs, with the engine too, for the server (src/cli/server-mode.ts).
 */
async function programScript(name, entry) {
  const built = await build({
    ...entry,
    outfile: fileURLToPath(new URL(`../dist/chunks/${name}`, import.meta.url)),
    ...commonJsBundle,
    // Short local names: V8 keeps the script's source for the whole run, and every name of it as a string of its own
    // (~0.45 MB of a two-turn `-p` run's peak RSS, docs/benchmarks.md). Only our code and a few small packages are
    // here, and none reads a class's or function's name; the libraries that do (openai's User-Agent, zod's and
    // commander's messages) are in the vendor bundles, which keep theirs. Stack traces show the short names (Node 20
    // applies no source map to a vm.Script); the script's source map has the real ones.
    minifyIdentifiers: true,
    sourcemap: "linked",
    // Within the script, import.meta.url is the file's own URL (the ES modules' relative paths hold as they are).
    define: { ...define, "import.meta.url": "__agentModuleUrl" },
    supported: { "dynamic-import": false },
    // Strict, as ES modules are: the directive has to come first, before the banner's statement.
    banner: { js: '"use strict"; var __agentModuleUrl = require("node:url").pathToFileURL(__filename).href;' },
    external: ["react-devtools-core", "@vscode/tree-sitter-wasm", "sql.js"],
    plugins: [zodEnglishOnly, vendorModulesFor(true), esmEntry],
    write: false,
    metafile: true,
  });
  // The check for the rule above: Node's modules are required, the TUI reached through main.ts.
  const dynamicImports = Object.values(built.metafile.outputs).flatMap((output) =>
    output.imports.filter((entry) => entry.kind === "dynamic-import").map((entry) => entry.path),
  );
  if (dynamicImports.length > 0) throw new Error(`dist/chunks/${name} would import() ${dynamicImports.join(", ")}: a script cannot`);
  for (const file of built.outputFiles) {
    checkAscii(file);
    mkdirSync(path.dirname(file.path), { recursive: true });
    writeFileSync(file.path, file.contents);
  }
  const id = createHash("sha256")
    .update(built.outputFiles.find((file) => file.path.endsWith(".cjs")).contents)
    .digest("hex")
    .slice(0, 16);
  return { built, id };
}
const root = fileURLToPath(new URL("..", import.meta.url));
const { built: programBuild, id: programId } = await programScript("program.cjs", {
  stdin: { contents: 'export { runProgram } from "./src/cli/program.ts";', resolveDir: root, sourcefile: "program-entry.js", loader: "js" },
});
const { built: serverProgramBuild, id: serverProgramId } = await programScript("server-program.cjs", { entryPoints: ["src/cli/program.ts"] });

// The SDK server's front (src/cli/server-mode.ts: the transport, the handshake), a script run through V8's code cache
// as the program's are, once server-start.cjs has tuned V8 (a cache is refused under other flags): compiled from
// source at every start it was ~1.5 ms of every SDK application's start() (docs/benchmarks.md). It loads
// server-program.cjs after the handshake, and takes vscode-jsonrpc from its code-cached bundle.
const serverFront = await build({
  entryPoints: ["src/cli/server-mode.ts"],
  outfile: fileURLToPath(new URL("../dist/chunks/server-front.cjs", import.meta.url)),
  ...commonJsBundle,
  sourcemap: "linked",
  // Folds server-mode.ts's test of AGENT_SERVER_PROGRAM_ID, so the engine's ES modules are not bundled into the front.
  define: { ...define, AGENT_SERVER_PROGRAM_ID: JSON.stringify(serverProgramId), "import.meta.url": "__agentModuleUrl" },
  supported: { "dynamic-import": false },
  banner: { js: '"use strict"; var __agentModuleUrl = require("node:url").pathToFileURL(__filename).href;' },
  plugins: [zodEnglishOnly, vendorModulesFor(false)],
  write: false,
  metafile: true,
});
// The front is small: the engine (the core, the session store) stays in server-program.cjs, loaded after the handshake.
const engineInFront = Object.keys(serverFront.metafile.inputs).filter((input) => /^src\/(core|session)\//.test(input));
if (engineInFront.length > 0) throw new Error(`dist/chunks/server-front.cjs would hold the engine: ${engineInFront.join(", ")}`);
for (const file of serverFront.outputFiles) {
  checkAscii(file);
  writeFileSync(file.path, file.contents);
}
const serverFrontId = createHash("sha256")
  .update(serverFront.outputFiles.find((file) => file.path.endsWith(".cjs")).contents)
  .digest("hex")
  .slice(0, 16);

// What bin/agent.js requires to start a `-p` run or the SDK's server without Node's ES module loader: which way a
// command line goes (src/cli/launch-route.ts), a `-p` run's start, which loads program.cjs (src/cli/one-shot.ts), and
// the server's start, which tunes V8 and runs the front's script (src/cli/server-start.ts). Small CommonJS files,
// required as they are.
const startScripts = await build({
  entryPoints: { "launch-route": "src/cli/launch-route.ts", "one-shot": "src/cli/one-shot.ts", "server-start": "src/cli/server-start.ts" },
  outdir: fileURLToPath(new URL("../dist/chunks/", import.meta.url)),
  outExtension: { ".js": ".cjs" },
  ...commonJsBundle,
  sourcemap: "linked",
  // Folds server-start.ts's test of AGENT_SERVER_FRONT_ID, so the front is not bundled into the start as well.
  minifySyntax: true,
  define: {
    ...define,
    AGENT_PROGRAM_ID: JSON.stringify(programId),
    AGENT_SERVER_PROGRAM_ID: JSON.stringify(serverProgramId),
    AGENT_SERVER_FRONT_ID: JSON.stringify(serverFrontId),
    "import.meta.url": "__agentModuleUrl",
  },
  banner: { js: '"use strict"; var __agentModuleUrl = require("node:url").pathToFileURL(__filename).href;' },
  plugins: [zodEnglishOnly, vendorModulesFor(false)],
  metafile: true,
});
// The starts are small: the server's front is its own script (above), the engine in server-program.cjs.
const inStarts = Object.keys(startScripts.metafile.inputs).filter((input) => /^src\/(core|session|server)\//.test(input));
if (inStarts.length > 0) throw new Error(`dist/chunks/server-start.cjs would hold the front or the engine: ${inStarts.join(", ")}`);

const main = await build({
  entryPoints: { cli: "src/cli/main.ts", interactive: "src/cli/interactive.ts", subcommands: "src/cli/subcommands.ts" },
  outdir: "dist",
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  sourcemap: "linked",
  legalComments: "none",
  logLevel: "warning",
  chunkNames: "chunks/[name]-[hash]",
  define: { ...define, AGENT_PROGRAM_ID: JSON.stringify(programId), AGENT_SERVER_PROGRAM_ID: JSON.stringify(serverProgramId) },
  // Less to parse at start-up; identifiers are kept so stack traces stay readable.
  minifyWhitespace: true,
  minifySyntax: true,
  // Some dependencies are CommonJS and call require(); give the ESM bundle a require of its own.
  // Only the few chunks that mention `require` keep it (below): a createRequire in each of the 50-odd
  // chunks a run loads costs ~5 ms of start-up.
  banner: { js: requireBanner },
  external: ["react-devtools-core", "@vscode/tree-sitter-wasm", "sql.js"],
  plugins: [zodEnglishOnly, vendorModulesFor(false), inkRememberedWidths],
  write: false,
  metafile: true,
});
// Ink's two measuring files must take the remembered widths (a new Ink that moved them would leave them unused).
const inkMeasures = Object.entries(main.metafile.inputs).filter(([input]) => /node_modules\/ink\/build\/(measure-text|render-node-to-output)\.js$/.test(input));
if (inkMeasures.length !== 2 || !inkMeasures.every(([, info]) => info.imports.some((imported) => imported.path.endsWith("remembered-widest-line.ts"))))
  throw new Error("Ink's measure-text.js and render-node-to-output.js no longer import widest-line: see inkRememberedWidths");
const inkSquash = Object.entries(main.metafile.inputs).find(([input]) => /node_modules\/ink\/build\/squash-text-nodes\.js$/.test(input));
if (!inkSquash?.[1].imports.some((imported) => imported.path.endsWith("remembered-sanitize-ansi.ts")))
  throw new Error("Ink's squash-text-nodes.js no longer imports ./sanitize-ansi.js: see inkRememberedWidths");
// An entry point of these libraries that the vendor bundle does not serve would be bundled again as ES
// modules: a second copy, with classes and configuration of its own. Add it to vendorPackages instead.
// (zod/v3, which the MCP SDK imports, is code of its own, sharing nothing with zod 4.)
const copied = [...Object.keys(main.metafile.inputs), ...Object.keys(programBuild.metafile.inputs), ...Object.keys(serverProgramBuild.metafile.inputs)].filter(
  (input) => /node_modules\/(zod|openai|commander|@anthropic-ai\/sdk|vscode-jsonrpc)\/(?!v3\/)/.test(input),
);
if (copied.length > 0) throw new Error(`the vendor bundle does not serve these imports, so they would be copied:\n${copied.join("\n")}`);
// program.cjs takes the tool libraries from vendor-tools.cjs: one of their files in it is a second copy (a subpath import).
const toolFiles = new RegExp(
  `node_modules/(${Object.keys(toolPackages)
    .map((specifier) => specifier.replace(/^((@[^/]+\/)?[^/]+).*$/, "$1"))
    .join("|")})/`,
);
const copiedTools = [programBuild, serverProgramBuild].flatMap((built) => Object.keys(built.metafile.inputs)).filter((input) => toolFiles.test(input));
if (copiedTools.length > 0) throw new Error(`vendor-tools.cjs does not serve these imports of program.cjs:\n${copiedTools.join("\n")}`);
for (const file of main.outputFiles) {
  let contents = file.contents;
  if (file.path.endsWith(".js") && !/\brequire\b/.test(file.text.slice(requireBanner.length))) {
    // Blanked, not removed: the line stays, so the source map's line numbers still hold.
    contents = Buffer.from(file.text.replace(requireBanner, ""));
  }
  mkdirSync(path.dirname(file.path), { recursive: true });
  writeFileSync(file.path, contents);
}

// The built-in agents' frontmatter, parsed and checked now (keyed by its text) with the loader's own check
// (src/config/agent-files.ts, bundled for the moment): at run time a session with only the built-ins loads
// no YAML parser and builds no frontmatter schema before its first request.
const checker = new URL("../dist/.check-frontmatter.mjs", import.meta.url);
await build({
  entryPoints: ["src/config/agent-files.ts"],
  outfile: fileURLToPath(checker),
  bundle: true,
  format: "esm",
  platform: "node",
  target: "node20",
  logLevel: "warning",
  plugins: [zodEnglishOnly],
});
try {
  const { checkFrontmatter } = await import(checker.href);
  const { parse: parseYaml } = await import("yaml");
  const frontmatter = {};
  const agentsDir = new URL("../agents/", import.meta.url);
  for (const name of readdirSync(agentsDir).filter((file) => file.endsWith(".agent.md"))) {
    const match = /^\uFEFF?---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(readFileSync(new URL(name, agentsDir), "utf8"));
    const checked = match ? checkFrontmatter(parseYaml(match[1])) : undefined;
    // A file that fails its check is left to the loader, which reports it as it would any other.
    if (checked?.ok) frontmatter[match[1]] = checked.data;
  }
  writeFileSync(new URL("../dist/agents-frontmatter.json", import.meta.url), JSON.stringify(frontmatter));
} finally {
  rmSync(checker, { force: true });
}
