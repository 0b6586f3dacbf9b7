// h2-relay-identity.ts where it cannot work: a duplex no HTTP/2 server session was built on is
// reported (false), not thrown on, so the relay can warn once (h2-serving.ts) and go on.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Socket } from 'node:net';
import { PassThrough } from 'node:stream';
import { lendClientSocket } from '../../../server/api/grpc/h2-relay-identity.js';

void test('no server session on the injected duplex: false, nothing changed', () => {
  const injected = new PassThrough();
  const before = Reflect.ownKeys(injected).length;
  assert.equal(lendClientSocket(injected, new Socket()), false);
  assert.equal(Reflect.ownKeys(injected).length, before);
});
