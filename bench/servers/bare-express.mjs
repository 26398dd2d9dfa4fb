// Baseline (a): bare Express answering a fixed JSON body. Nothing else of the service runs.
import express from 'express';

const app = express();
const body = { success: true, message: 'OK', data: { status: 'ok' }, timestamp: '2026-11-23T00:00:00.000Z' };
app.get('/fixed', (_req, res) => res.json(body));
const server = app.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  process.send?.({ port: server.address().port });
});
