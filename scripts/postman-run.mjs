// `npm run postman:run -- [--folder "Reference data" ...]`: runs the Postman collection with
// newman against a live server (BASE_URL, default http://localhost:3000) using the sandbox
// environment. Exits 1 on any failed check. Run `npm run postman` first.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const newman = require('newman');

const folders = [];
for (let i = 2; i < process.argv.length; i += 1) {
  if (process.argv[i] === '--folder') folders.push(process.argv[++i]);
}
const baseUrl = process.env.BASE_URL ?? 'http://localhost:3000';

newman.run(
  {
    collection: require('../postman/collection.json'),
    environment: require('../postman/sandbox.postman_environment.json'),
    envVar: [
      { key: 'baseUrl', value: baseUrl },
      ...(process.env.CLIENT_ID ? [{ key: 'clientId', value: process.env.CLIENT_ID }] : []),
      ...(process.env.CLIENT_SECRET ? [{ key: 'clientSecret', value: process.env.CLIENT_SECRET }] : []),
    ],
    folder: folders.length > 0 ? folders : undefined,
    reporters: ['cli'],
  },
  (error, summary) => {
    if (error) {
      console.error(error);
      process.exit(1);
    }
    process.exit(summary.run.failures.length > 0 ? 1 : 0);
  },
);
