/**
 * `conformanceSuite(section, cases)`: one `describe` per client-port mode (modes.ts), one member
 * per mode, each case an `it` on fresh connections to it (a few cases at a time). After each
 * case the member must still run; after all of them it must answer `GET /health` with 200 and a
 * gRPC call on a new connection.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { H2Client, type OpenOptions, type Target } from './connection.js';
import { grpcFields, RANGE_BODY } from './grpc.js';
import { healthStatus, selectedModes, startInMode, type ModeMember, type ServerMode } from './modes.js';
import { expectResponse, grpcStatus } from './outcomes.js';

/** What a case gets: the mode, the target, and `open` (connections closed after the case). */
export interface CaseContext {
  readonly mode: ServerMode;
  readonly target: Target;
  open(opts?: OpenOptions): Promise<H2Client>;
}

export interface ConformanceCase {
  /** `§x.y: what is sent → what the RFC requires`. */
  readonly title: string;
  readonly run: (ctx: CaseContext) => Promise<void>;
}

/** Sends the valid gRPC Range call on `streamId` of `c` and checks it is answered with grpc-status 0. */
export async function validCall(c: H2Client, target: Target, streamId: number): Promise<Buffer> {
  c.headers(streamId, grpcFields(target));
  c.data(streamId, RANGE_BODY, true);
  const answer = await expectResponse(c, streamId);
  assert.equal(grpcStatus(answer.blocks), '0', JSON.stringify(answer.blocks));
  return answer.data;
}

/** `GET /health` answers 200 and a gRPC call on a new connection is answered. */
export async function assertMemberServes(m: ModeMember): Promise<void> {
  assert.ok(m.member.running, `the member exited:\n${m.member.logs().slice(-3000)}`);
  assert.equal(await healthStatus(m.target), 200, 'GET /health');
  const c = await H2Client.open(m.target);
  try {
    await validCall(c, m.target, 1);
  } finally {
    c.close();
  }
}

export function conformanceSuite(section: string, cases: readonly ConformanceCase[]): void {
  for (const mode of selectedModes()) {
    void describe(`${section} [${mode.name}]`, () => {
      let m: ModeMember | undefined;
      before(async () => {
        m = await startInMode(mode, `h2-${mode.name}`);
      });
      after(async () => {
        await m?.member.stop('SIGTERM');
      });

      void describe('cases', { concurrency: 4 }, () => {
        for (const c of cases) {
          void it(c.title, async () => {
            assert.ok(m !== undefined, 'member not started');
            const opened: H2Client[] = [];
            const ctx: CaseContext = {
              mode,
              target: m.target,
              open: async (opts) => {
                const client = await H2Client.open(m!.target, opts);
                opened.push(client);
                return client;
              },
            };
            try {
              await c.run(ctx);
            } finally {
              for (const client of opened) client.close();
            }
            assert.ok(m.member.running, `the member exited:\n${m.member.logs().slice(-3000)}`);
          });
        }
      });

      void it('afterwards the member runs, answers GET /health with 200 and a gRPC call', async () => {
        assert.ok(m !== undefined, 'member not started');
        await assertMemberServes(m);
      });
    });
  }
}
