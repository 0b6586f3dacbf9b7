/**
 * A tiny in-process S3 endpoint for tests of the S3 backup store: path-style PutObject,
 * ListObjectsV2 (prefix, continuation with `max-keys`), DeleteObject and GetObject on in-memory
 * buckets; no authentication (signatures are ignored), `failing` makes every call a 500. On a
 * loopback address, port chosen by the system. Test-only.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeS3 {
  readonly url: string;
  readonly objects: Map<string, { readonly body: Buffer; readonly metadata: Record<string, string> }>;
  failing: boolean;
  close(): Promise<void>;
}

const xml = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

async function bodyOf(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

export async function startFakeS3(pageSize = 1000): Promise<FakeS3> {
  const objects = new Map<string, { body: Buffer; metadata: Record<string, string> }>();
  const state = { failing: false };
  const server: Server = createServer((req, res) => {
    void (async () => {
      const u = new URL(req.url ?? '/', 'http://x');
      const [, bucket, ...rest] = u.pathname.split('/');
      const key = decodeURIComponent(rest.join('/'));
      const body = await bodyOf(req);
      if (state.failing) {
        res.writeHead(500, { 'content-type': 'application/xml' }).end('<Error><Code>InternalError</Code><Message>injected</Message></Error>');
        return;
      }
      const full = `${bucket}/${key}`;
      if (req.method === 'PUT' && key !== '') {
        const metadata: Record<string, string> = {};
        for (const [h, v] of Object.entries(req.headers)) if (h.startsWith('x-amz-meta-') && typeof v === 'string') metadata[h.slice(11)] = v;
        objects.set(full, { body, metadata });
        res.writeHead(200, { etag: '"x"' }).end();
      } else if (req.method === 'DELETE') {
        objects.delete(full);
        res.writeHead(204).end();
      } else if (req.method === 'GET' && key === '' && u.searchParams.get('list-type') === '2') {
        const prefix = u.searchParams.get('prefix') ?? '';
        const after = u.searchParams.get('continuation-token') ?? '';
        const all = [...objects.keys()].filter((k) => k.startsWith(`${bucket}/${prefix}`)).map((k) => k.slice(bucket.length + 1)).sort().filter((k) => k > after);
        const page = all.slice(0, pageSize);
        const truncated = all.length > page.length;
        const contents = page.map((k) => `<Contents><Key>${xml(k)}</Key><Size>${objects.get(`${bucket}/${k}`)?.body.length ?? 0}</Size><LastModified>2026-01-01T00:00:00.000Z</LastModified></Contents>`).join('');
        const token = truncated ? `<NextContinuationToken>${xml(page[page.length - 1])}</NextContinuationToken>` : '';
        res
          .writeHead(200, { 'content-type': 'application/xml' })
          .end(`<?xml version="1.0" encoding="UTF-8"?><ListBucketResult><Name>${xml(bucket)}</Name><Prefix>${xml(prefix)}</Prefix><KeyCount>${page.length}</KeyCount><IsTruncated>${truncated}</IsTruncated>${contents}${token}</ListBucketResult>`);
      } else if (req.method === 'GET') {
        const o = objects.get(full);
        if (o === undefined) res.writeHead(404, { 'content-type': 'application/xml' }).end('<Error><Code>NoSuchKey</Code></Error>');
        else res.writeHead(200).end(o.body);
      } else res.writeHead(400).end();
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    objects,
    get failing() {
      return state.failing;
    },
    set failing(v: boolean) {
      state.failing = v;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
