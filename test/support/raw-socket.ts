import net from 'node:net';

/** An HTTP/1.1 POST on its own socket whose body is sent in two parts, so it can be held in flight. */
export function heldRequest(port: number, path: string, body: string) {
  const socket = net.connect(port, '127.0.0.1');
  let received = '';
  socket.on('data', (chunk) => {
    received += chunk.toString();
  });
  const closed = new Promise<string>((resolve) => socket.on('close', () => resolve(received)));
  const cut = Math.floor(body.length / 2);
  socket.write(`POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, cut)}`);
  return { finish: () => socket.write(body.slice(cut)), closed };
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
