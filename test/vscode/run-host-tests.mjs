// `npm run test:host`: the extension-host tests (test/vscode/suite/**/*.test.ts) inside a real VS Code.
// The logic lives in test/vscode/lib/hostTests.ts.
import { createRequire } from 'node:module';
import { register } from 'tsx/cjs/api';

register();
const require = createRequire(import.meta.url);

const { runHostTests } = require('./lib/hostTests.ts');
process.exitCode = await runHostTests();
