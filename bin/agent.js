#!/usr/bin/env node
// The whole program lives in dist/ (built by `npm install`); this shim only hands over.
import("../dist/cli.js").catch((error) => {
  process.stderr.write(`agent: could not start (${error?.message ?? error}). Run \`npm install\` to build it.\n`);
  process.exit(1);
});
