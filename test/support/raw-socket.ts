import net from 'node:net';

const INTERIM_CONTINUE = /^HTTP\/1\.1 100 [^\r\n]*\r\n(?:[^\r\n]+\r\n)*\r\n/;

/**
 * An HTTP/1.1 POST on its own socket whose body is sent in two parts, so it can be held in flight.
 * It says `Expect: 100-continue`, and Node's HTTP server answers `100 Continue` as it hands the
 * request to the app: `started` resolves on that answer (or on a final one), the server's own word
 * that the request is in flight there, so a signal sent after it finds the request in progress.
 * `closed` holds what came after the interim answer: the final response, or '' when the server cut
 * the request off.
 */
export function heldRequest(port: number, path: string, body: string) {
  const socket = net.connect(port, '127.0.0.1');
  let received = '';
  let taken = false;
  let onStarted!: () => void;
  let onClosedFirst!: (error: Error) => void;
  const started = new Promise<void>((resolve, reject) => {
    onStarted = resolve;
    onClosedFirst = reject;
  });
  socket.on('data', (chunk) => {
    received += chunk.toString();
    if (taken || !received.includes('\r\n\r\n')) return;
    taken = true;
    received = received.replace(INTERIM_CONTINUE, '');
    onStarted();
  });
  const closed = new Promise<string>((resolve) =>
    socket.on('close', () => {
      if (!taken)
        onClosedFirst(
          new Error(`the connection closed before the server took the request: ${JSON.stringify(received)}`),
        );
      resolve(received);
    }),
  );
  void started.catch(() => undefined); // rejected only for a test that awaits it; never unhandled
  const cut = Math.floor(body.length / 2);
  socket.write(
    `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nExpect: 100-continue\r\n\r\n${body.slice(0, cut)}`,
  );
  return { started, finish: () => socket.write(body.slice(cut)), closed };
}

/** Whether anything accepts TCP connections on the port. */
export const connects = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
