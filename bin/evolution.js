#!/usr/bin/env node
// `npx evolution …`: runs the compiled CLI from dist/, building it first when it is missing
// or older than the sources (runtime/build-state.js); without a build (no dev tools, or a
// build that failed) it runs the TypeScript sources through tsx.
// On a node older than the supported LTS (runtime/node-lts.js) it runs itself again under the LTS.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
const { join } = require('node:path');

if (!require('../runtime/node-lts.js').reexecUnderLts(__filename, process.argv.slice(2))) {
  const { ensureBuild, DIST } = require('../runtime/build-state.js');
  let cli;
  if (process.env.EVOLUTION_NO_BUILD !== '1' && ensureBuild()) {
    cli = require(join(DIST, 'cli', 'main.js'));
  } else {
    // Both loaders: the CLI's lazy `import()`s go through the ESM one, which without tsx
    // would strip the types itself (Node 26) but not resolve extensionless paths.
    require('tsx/cjs/api').register();
    require('tsx/esm/api').register();
    cli = require('../cli/main.ts');
  }
  cli.runCli(process.argv.slice(2)); // exits once its output is flushed (cli/main.ts)
}
