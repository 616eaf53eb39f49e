#!/usr/bin/env node
// The whole program lives in dist/ (built by `npm install`); this shim only hands over. It is CommonJS
// (bin/package.json), so `agent --version` is answered without starting Node's ES module loader at all, and so are
// a `-p` run and the SDK's server: dist/chunks/one-shot.cjs and server-start.cjs start them (src/cli/launch-route.ts).
"use strict";
const path = require("node:path");
const dist = path.join(__dirname, "..", "dist");
const built = path.join(dist, "cli.js");
const args = process.argv.slice(2);
const { pathToFileURL } = require("node:url");

function fail(error, missingBuild) {
  // Only a build that is not there is fixed by building; anything else is reported as what it is.
  process.stderr.write(
    missingBuild
      ? `agent: the program is not built (${built} is missing). Run \`npm install\` to build it.\n`
      : `agent: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
}

/** "one-shot" for a `-p` run, "server" for the SDK's; undefined when dist/ has no such script (dist/cli.js then says what is missing). */
function route() {
  try {
    return require(path.join(dist, "chunks", "launch-route.cjs")).launchRoute(args);
  } catch (error) {
    if (error?.code === "MODULE_NOT_FOUND") return undefined;
    throw error;
  }
}

// The scripts a run starts from without Node's ES module loader, by route: each start resolves when the run is done
// (the server's with its exit code).
const scripts = { "one-shot": ["one-shot.cjs", "runOneShot"], server: ["server-start.cjs", "startServer"] };
const version = args.length === 1 && (args[0] === "--version" || args[0] === "-v") && require("node:fs").existsSync(built);
const script = version ? undefined : scripts[route()];

if (version) {
  process.stdout.write(`agent ${require("../package.json").version}\n`);
} else if (script) {
  // What the program's script leaves to the ES module build: the TUI, the subcommands (src/cli/one-shot.ts).
  const importEntry = (entry) => import(pathToFileURL(path.join(dist, `${entry}.js`)).href);
  const [file, start] = script;
  require(path.join(dist, "chunks", file))
    [start](args, importEntry)
    .then(
      (code) => {
        if (typeof code === "number") process.exitCode = code;
      },
      (error) => fail(error, false),
    );
} else {
  const program = pathToFileURL(built);
  import(program.href).catch((error) => fail(error, error?.code === "ERR_MODULE_NOT_FOUND" && error?.url === program.href));
}
