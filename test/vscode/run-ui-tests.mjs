// `npm run test:ui`: UI tests (test/vscode/ui/**/*.ui.ts) that drive VS Code in headless Chromium.
// Extra arguments go to mocha (e.g. `npm run test:ui -- --grep theme`), except `*.ui.ts` files, which run alone
// (`npm run screenshots`). The logic lives in test/vscode/lib/uiTests.ts.
import { createRequire } from 'node:module';
import { register } from 'tsx/cjs/api';

register();
const require = createRequire(import.meta.url);

const { runUiTests } = require('./lib/uiTests.ts');
process.exitCode = runUiTests(process.argv.slice(2));
