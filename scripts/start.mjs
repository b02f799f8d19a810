// `npm start [-- --port 3777]`: starts XModels in VS Code with a sample workspace of CSV and Parquet files.
// The logic lives in test/vscode/lib/start.ts.
import { createRequire } from 'node:module';
import { register } from 'tsx/cjs/api';

register();
const require = createRequire(import.meta.url);

const { start } = require('../test/vscode/lib/start.ts');
process.exit(await start(process.argv.slice(2)));
