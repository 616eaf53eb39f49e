#!/usr/bin/env node
// The whole program lives in dist/ (built by `npm install`); this shim only hands over. It is CommonJS
// (bin/package.json), so `agent --version` is answered without starting Node's ES module loader at all.
"use strict";
const path = require("node:path");
const built = path.join(__dirname, "..", "dist", "cli.js");
const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === "--version" || args[0] === "-v") && require("node:fs").existsSync(built)) {
  process.stdout.write(`agent ${require("../package.json").version}\n`);
} else {
  const program = require("node:url").pathToFileURL(built);
  import(program.href).catch((error) => {
    // Only a build that is not there is fixed by building; anything else is reported as what it is.
    const missingBuild = error?.code === "ERR_MODULE_NOT_FOUND" && error?.url === program.href;
    process.stderr.write(
      missingBuild
        ? `agent: the program is not built (${program.pathname} is missing). Run \`npm install\` to build it.\n`
        : `agent: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  });
}
