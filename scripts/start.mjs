// `npm start`: builds what changed, then runs the server in this very process, so that the
// signals a process manager sends (SIGTERM, SIGINT) reach the server itself and it drains.
import { ensureBuilt } from './build-if-stale.mjs';

try {
  const built = ensureBuilt();
  if (built.length) console.error(`built ${built.join(' and ')}`);
} catch (error) {
  console.error(`build failed: ${error.message}`);
  process.exit(1);
}
if (process.argv[2] === 'cluster') {
  // The cluster primary starts on import and forks dist/src/main.js workers.
  await import('../dist/src/cluster.js');
} else {
  const { run } = await import('../dist/src/main.js');
  run();
}
