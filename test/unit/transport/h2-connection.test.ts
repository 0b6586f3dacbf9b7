/**
 * The server side of HTTP/2 framed by us (server/transport/h2/h2-connection.ts), driven by
 * Node's own HTTP/2 client as the peer: a request answered with headers, data and trailers;
 * many streams at once; a big answer paced by a small client window (write → false, onDrain);
 * a request bigger than the stream window; a client reset; header blocks over CONTINUATION;
 * PING; an answer before the request ended; goAway; and a connection that does not start with
 * the preface (GOAWAY PROTOCOL_ERROR).
 */
import assert from 'node:assert/strict';
import { connect, constants, type ClientHttp2Session, type ClientHttp2Stream } from 'node:http2';
import { connect as netConnect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { after, test } from 'node:test';
import { encodeFields } from '../../../server/transport/header-block-codec.js';
import { H2Connection, type H2ConnectionOptions } from '../../../server/transport/h2/h2-connection.js';
import { H2Error } from '../../../server/transport/http2-frames.js';
import { HTTP2_PREFACE } from '../../../server/transport/protocol-sniff.js';
import type { H2Stream } from '../../../server/transport/h2/h2-stream.js';

const block = (fields: Record<string, string>): Buffer =>
  encodeFields(Object.entries(fields).map(([name, value]) => ({ name, value, neverIndex: false })));
const OK_HEADERS = block({ ':status': '200', 'content-type': 'application/octet-stream' });
const TRAILERS = block({ 'x-status': 'done' });

type Handler = (stream: H2Stream, conn: H2Connection) => void;

const servers: Server[] = [];
after(() => {
  for (const s of servers) s.close();
});

async function serve(handler: Handler, options: H2ConnectionOptions = {}, onConnection?: (conn: H2Connection) => void): Promise<{ port: number; conns: H2Connection[] }> {
  const conns: H2Connection[] = [];
  const server = createServer((socket: Socket) => {
    const conn = new H2Connection(socket, { streamWindow: 1 << 20, ...options });
    conn.onStream = (s) => handler(s, conn);
    onConnection?.(conn);
    conns.push(conn);
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { port: (server.address() as AddressInfo).port, conns };
}

function client(port: number, settings?: Parameters<typeof connect>[1]): ClientHttp2Session {
  const session = connect(`http://127.0.0.1:${port}`, settings);
  session.on('error', () => undefined);
  return session;
}

/** Runs `body` with a client session on `port`, closed afterwards whatever happens. */
async function withClient(port: number, body: (session: ClientHttp2Session) => Promise<void>, settings?: Parameters<typeof connect>[1]): Promise<void> {
  const session = client(port, settings);
  try {
    await body(session);
  } finally {
    session.close();
  }
}

interface Answer {
  readonly status: number;
  readonly body: Buffer;
  readonly trailers: Record<string, unknown>;
}

function answer(req: ClientHttp2Stream): Promise<Answer> {
  return new Promise((resolve, reject) => {
    let status = 0;
    let trailers: Record<string, unknown> = {};
    const parts: Buffer[] = [];
    req.on('response', (h) => (status = Number(h[':status'])));
    req.on('trailers', (t) => (trailers = t));
    req.on('data', (d: Buffer) => parts.push(d));
    req.on('end', () => resolve({ status, body: Buffer.concat(parts), trailers }));
    req.on('error', reject);
  });
}

/** Echoes the request body (reversed header value `x-tag` as a trailer check). */
const echo: Handler = (s) => {
  const parts: Buffer[] = [];
  s.onData = (d) => parts.push(Buffer.from(d));
  s.onEnd = () => {
    s.respond(OK_HEADERS);
    s.write(Buffer.concat(parts));
    s.end(block({ 'x-tag': s.header('x-tag') ?? '', 'x-path': s.header(':path') ?? '' }));
  };
};

void test('a request answered with headers, data and trailers; the request headers decoded', async () => {
  const { port } = await serve(echo);
  await withClient(port, async (session) => {
    const req = session.request({ ':method': 'POST', ':path': '/svc/Method', 'x-tag': 'abc' });
    req.end(Buffer.from('hello'));
    const a = await answer(req);
    assert.equal(a.status, 200);
    assert.equal(a.body.toString(), 'hello');
    assert.equal(a.trailers['x-tag'], 'abc');
    assert.equal(a.trailers['x-path'], '/svc/Method');
  });
});

void test('two hundred streams at once on one connection, each answered with its own body', async () => {
  const { port } = await serve(echo);
  await withClient(port, async (session) => {
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, i) => {
        const req = session.request({ ':method': 'POST', ':path': '/x', 'x-tag': String(i) });
        req.end(Buffer.from(`body-${i}`));
        return answer(req);
      }),
    );
    answers.forEach((a, i) => {
      assert.equal(a.body.toString(), `body-${i}`);
      assert.equal(a.trailers['x-tag'], String(i));
    });
  });
});

void test("a 3 MiB answer paced by the client's 16 KiB windows: in order, write false then onDrain", async () => {
  const big = Buffer.alloc(3 << 20);
  for (let i = 0; i < big.length; i++) big[i] = (i * 31) & 0xff;
  let sawFalse = false;
  let drained = 0;
  const { port } = await serve((s) => {
    s.onEnd = () => {
      s.respond(OK_HEADERS);
      // Writes until the window is full, then waits for onDrain: the answer only ends if it comes.
      let at = 0;
      const pump = (): void => {
        while (at < big.length) {
          const ok = s.write(big.subarray(at, at + 100_000));
          at += 100_000;
          if (!ok) {
            sawFalse = true;
            return;
          }
        }
        s.end(TRAILERS);
      };
      s.onDrain = () => {
        drained++;
        pump();
      };
      pump();
    };
  });
  await withClient(port, async (session) => {
    const req = session.request({ ':method': 'GET', ':path': '/big' });
    req.end();
    const a = await answer(req);
    assert.ok(a.body.equals(big));
    assert.equal(a.trailers['x-status'], 'done');
    assert.ok(sawFalse, 'write reported a full window');
    assert.ok(drained > 0, 'onDrain came after each full window');
  }, { settings: { initialWindowSize: 16_384 } });
});

void test('a 3 MiB request over a 1 MiB stream window is read whole (windows granted as it arrives)', async () => {
  const { port } = await serve(echo);
  await withClient(port, async (session) => {
    const body = Buffer.alloc(3 << 20, 7);
    const req = session.request({ ':method': 'POST', ':path': '/up' });
    req.end(body);
    const a = await answer(req);
    assert.equal(a.body.length, body.length);
  });
});

void test("a client's RST_STREAM reaches onReset; later writes are ignored", async () => {
  let resetCode = -1;
  let streamRef: H2Stream | undefined;
  const reset = new Promise<void>((resolve) => {
    void serve((s) => {
      streamRef = s;
      s.onReset = (code) => {
        resetCode = code;
        resolve();
      };
    }).then(({ port }) => {
      const session = client(port);
      const req = session.request({ ':method': 'POST', ':path': '/slow' });
      req.on('error', () => undefined);
      req.write(Buffer.from('partial'));
      setTimeout(() => req.close(constants.NGHTTP2_CANCEL), 50);
      setTimeout(() => session.close(), 200);
    });
  });
  await reset;
  assert.equal(resetCode, H2Error.Cancel);
  assert.equal(streamRef?.closed, true);
  assert.equal(streamRef?.write(Buffer.from('late')), false);
});

void test('a 40 KiB header block (HEADERS + CONTINUATION) is decoded; PING is answered', async () => {
  const { port } = await serve(echo);
  await withClient(port, async (session) => {
    const tag = 'v'.repeat(40_000);
    const req = session.request({ ':method': 'POST', ':path': '/h', 'x-tag': tag });
    req.end(Buffer.from('x'));
    const a = await answer(req);
    assert.equal(a.trailers['x-tag'], tag);
    const rtt = await new Promise<number>((resolve, reject) => session.ping((err, ms) => (err ? reject(err) : resolve(ms))));
    assert.ok(rtt >= 0);
  });
});

void test('an answer before the request ended: the client gets it, the rest of the request is declined with NO_ERROR', async () => {
  const { port } = await serve((s) => {
    s.onData = () => {
      s.respond(OK_HEADERS);
      s.end(TRAILERS);
    };
  });
  await withClient(port, async (session) => {
    const req = session.request({ ':method': 'POST', ':path': '/early' });
    req.write(Buffer.from('first'));
    const a = await answer(req);
    assert.equal(a.status, 200);
    assert.equal(a.trailers['x-status'], 'done');
  });
});

void test('goAway: the open stream finishes, then the connection ends', async () => {
  let open: H2Stream | undefined;
  const started = new Promise<void>((resolve) => {
    void serve((s) => {
      open = s;
      resolve();
    }).then(({ port, conns }) => {
      servedConns = conns;
      const session = client(port);
      sessionRef = session;
      const req = session.request({ ':method': 'POST', ':path': '/long' });
      req.end();
      pending = answer(req);
    });
  });
  let servedConns: H2Connection[] = [];
  let sessionRef: ClientHttp2Session | undefined;
  let pending: Promise<Answer> | undefined;
  await started;
  const conn = servedConns[0]!;
  const closed = new Promise<void>((resolve) => (conn.onClose = resolve));
  conn.goAway();
  await new Promise((r) => setTimeout(r, 50));
  open!.respond(OK_HEADERS);
  open!.end(TRAILERS);
  const a = await pending!;
  assert.equal(a.status, 200);
  await closed;
  assert.equal(conn.streamCount, 0);
  sessionRef?.destroy();
});

void test('a connection that does not open with the preface gets GOAWAY PROTOCOL_ERROR and is closed', async () => {
  const { port } = await serve(echo);
  const socket = netConnect(port, '127.0.0.1');
  const bytes: Buffer[] = [];
  socket.on('data', (d: Buffer) => bytes.push(d));
  await new Promise<void>((resolve) => socket.on('connect', () => resolve()));
  socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
  await new Promise<void>((resolve) => socket.on('close', () => resolve()));
  const all = Buffer.concat(bytes);
  // SETTINGS, WINDOW_UPDATE, then GOAWAY: find the GOAWAY frame (type 7) and its error code
  let at = 0;
  let code = -1;
  while (at + 9 <= all.length) {
    const len = all.readUIntBE(at, 3);
    if (all[at + 3] === 7) code = all.readUInt32BE(at + 9 + 4);
    at += 9 + len;
  }
  assert.equal(code, H2Error.ProtocolError);
});

void test('a client that sends calls and reads no answers is cut off once the unsent bytes pass the bound', async () => {
  // Header blocks are not flow-controlled: answer each request with a 12 KiB header block.
  const big = block({ ':status': '200', 'x-pad': 'p'.repeat(12_000) });
  let errors = 0;
  let closed!: () => void;
  const gone = new Promise<void>((resolve) => (closed = resolve));
  const { port } = await serve(
    (s) => {
      s.onEnd = () => s.respond(big, true);
    },
    { maxUnsentBytes: 256 << 10 },
    (conn) => {
      conn.onError = () => errors++;
      conn.onClose = closed;
    },
  );
  const socket = netConnect(port, '127.0.0.1');
  socket.on('error', () => undefined);
  await new Promise<void>((resolve) => socket.on('connect', () => resolve()));
  socket.pause(); // never reads
  const requestBlock = encodeFields([
    { name: ':method', value: 'GET', neverIndex: false },
    { name: ':path', value: '/', neverIndex: false },
    { name: ':scheme', value: 'http', neverIndex: false },
  ]);
  const frames: Buffer[] = [HTTP2_PREFACE, Buffer.from([0, 0, 0, 4, 0, 0, 0, 0, 0])];
  for (let id = 1; id < 2 * 3000; id += 2) {
    const h = Buffer.alloc(9);
    h.writeUIntBE(requestBlock.length, 0, 3);
    h[3] = 1;
    h[4] = 0x5; // END_STREAM | END_HEADERS
    h.writeUInt32BE(id, 5);
    frames.push(h, requestBlock);
  }
  socket.write(Buffer.concat(frames));
  await gone;
  assert.equal(errors, 1, 'dropped as a connection error');
  socket.destroy();
});
