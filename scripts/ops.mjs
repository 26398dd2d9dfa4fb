#!/usr/bin/env node
// The operator command line (`npm run ops -- ...`, or `npx pbs-ops ...`): builds what changed,
// quietly, then runs the CLI in this process. Nothing but the command's own output reaches stdout.
import { ensureBuilt } from './build-if-stale.mjs';

try {
  ensureBuilt();
} catch (error) {
  console.error(`build failed: ${error.message}`);
  process.exit(1);
}
await import('../dist/src/cli/main.js');
