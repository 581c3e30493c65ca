#!/usr/bin/env node
// `npx evolution …`: runs the TypeScript CLI through tsx (no build step).
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
require('tsx/cjs/api').register();
require('../client/cli/main.ts')
  .main(process.argv.slice(2))
  .then((code) => process.exit(code));
