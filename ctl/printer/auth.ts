/**
 * How `user` and `role` answers print, per `-w/--write-out` (etcdctl 3.4's display):
 * - simple: etcdctl's sentences (`User u created`, `Role r`/`KV Read:`/`KV Write:` blocks…);
 * - json: the response message as Go's encoding/json writes it (omitempty);
 * - fields: the header lines, then `"Roles" : "a" "b"` or one PermType/Key/RangeEnd triple
 *   per permission; `user get` and `user list` are not supported in this format;
 * - protobuf: the response's wire encoding;
 * - table: not supported.
 * Unsupported: `<format> not supported as output format`, exit 4 (after the request).
 */
import { Permission_Type, type Permission } from '../../proto/gen/etcd/auth.js';
import {
  AuthRoleGetResponse,
  AuthRoleListResponse,
  AuthUserAddResponse,
  AuthUserGetResponse,
  AuthUserListResponse,
  ResponseHeader,
} from '../../proto/gen/etcd/rpc.js';
import { ExitCode } from '../cli/exit-codes.js';
import { goQuote } from './go-format.js';
import { goJson, obj, omit, type GoObject } from './go-json.js';
import type { OutputFormat } from './index.js';
import type { PrinterOptions, PrintOutcome } from './printer.js';

type Header = ResponseHeader | undefined;

/** One printing function per answer; the names follow etcdctl's display methods. */
export interface AuthPrinter {
  /** Answers with only a header: add/delete/grant/revoke/passwd. `sentence` is the simple form. */
  done(sentence: string, header: Header): PrintOutcome;
  userGet(name: string, r: AuthUserGetResponse): PrintOutcome;
  userList(r: AuthUserListResponse): PrintOutcome;
  roleGet(name: string, r: AuthRoleGetResponse): PrintOutcome;
  roleList(r: AuthRoleListResponse): PrintOutcome;
}

const ZERO: ResponseHeader = { clusterId: 0n, memberId: 0n, revision: 0n, raftTerm: 0n };
const PERM_NAMES: Record<number, string> = { [Permission_Type.READ]: 'READ', [Permission_Type.WRITE]: 'WRITE', [Permission_Type.READWRITE]: 'READWRITE' };

/** The end of the range of every key starting with `key` (clientv3.GetPrefixRangeEnd). */
function prefixEnd(key: Buffer): Buffer {
  const end = Buffer.from(key);
  for (let i = end.length - 1; i >= 0; i--) {
    if (end[i]! < 0xff) {
      end[i]! += 1;
      return end.subarray(0, i + 1);
    }
  }
  return Buffer.from([0]);
}

/** `role get`'s simple block. */
export function roleGetText(name: string, perms: readonly Permission[]): string {
  const line = (p: Permission): string => {
    if (p.rangeEnd.length === 0) return `\t${p.key.toString('utf8')}\n`;
    const open = p.rangeEnd.length === 1 && p.rangeEnd[0] === 0;
    let s = open ? `\t[${p.key.toString('utf8')}, <open ended>` : `\t[${p.key.toString('utf8')}, ${p.rangeEnd.toString('utf8')})`;
    if (prefixEnd(p.key).equals(p.rangeEnd)) s += ` (prefix ${p.key.toString('utf8')})`;
    return `${s}\n`;
  };
  const reads = perms.filter((p) => p.permType === Permission_Type.READ || p.permType === Permission_Type.READWRITE);
  const writes = perms.filter((p) => p.permType === Permission_Type.WRITE || p.permType === Permission_Type.READWRITE);
  return `Role ${name}\nKV Read:\n${reads.map(line).join('')}KV Write:\n${writes.map(line).join('')}`;
}

const headerJ = (h: Header): GoObject | undefined =>
  h === undefined ? undefined : obj(omit('cluster_id', h.clusterId), omit('member_id', h.memberId), omit('revision', h.revision), omit('raft_term', h.raftTerm));
const permJ = (p: Permission): GoObject => obj(omit('permType', p.permType), omit('key', p.key), omit('range_end', p.rangeEnd));

export function makeAuthPrinter(format: OutputFormat, o: PrinterOptions): AuthPrinter {
  const write = (s: string | Uint8Array): undefined => (o.out.write(s), undefined);
  const unsupported = (): PrintOutcome => ({ code: ExitCode.BadFeature, message: `${format} not supported as output format` });
  switch (format) {
    case 'simple':
      return {
        done: (sentence) => write(`${sentence}\n`),
        userGet: (name, r) => write(`User: ${name}\nRoles:${r.roles.map((x) => ` ${x}`).join('')}\n`),
        userList: (r) => write(r.users.map((u) => `${u}\n`).join('')),
        roleGet: (name, r) => write(roleGetText(name, r.perm)),
        roleList: (r) => write(r.roles.map((x) => `${x}\n`).join('')),
      };
    case 'json': {
      const j = (v: GoObject): undefined => write(`${goJson(v)}\n`);
      return {
        done: (_s, h) => j(obj(omit('header', headerJ(h)))),
        userGet: (_n, r) => j(obj(omit('header', headerJ(r.header)), omit('roles', r.roles))),
        userList: (r) => j(obj(omit('header', headerJ(r.header)), omit('users', r.users))),
        roleGet: (_n, r) => j(obj(omit('header', headerJ(r.header)), omit('perm', r.perm.map(permJ)))),
        roleList: (r) => j(obj(omit('header', headerJ(r.header)), omit('roles', r.roles))),
      };
    }
    case 'fields': {
      const hdr = (h: Header): string => {
        const x = h ?? ZERO;
        return `"ClusterID" : ${x.clusterId}\n"MemberID" : ${x.memberId}\n"Revision" : ${x.revision}\n"RaftTerm" : ${x.raftTerm}\n`;
      };
      return {
        done: (_s, h) => write(hdr(h)),
        userGet: unsupported,
        userList: unsupported,
        roleGet: (_n, r) =>
          write(
            hdr(r.header) +
              r.perm.map((p) => `"PermType" :  ${PERM_NAMES[p.permType] ?? p.permType}\n"Key" : ${goQuote(p.key)}\n"RangeEnd" : ${goQuote(p.rangeEnd)}\n`).join(''),
          ),
        roleList: (r) => write(`${hdr(r.header)}"Roles" :${r.roles.map((x) => ` ${goQuote(x)}`).join('')}\n`),
      };
    }
    case 'protobuf':
      return {
        // Every header-only answer encodes as field 1 = header (AuthUserAddResponse's shape).
        done: (_s, h) => write(AuthUserAddResponse.encode({ header: h ?? ZERO }).finish()),
        userGet: (_n, r) => write(AuthUserGetResponse.encode(r).finish()),
        userList: (r) => write(AuthUserListResponse.encode(r).finish()),
        roleGet: (_n, r) => write(AuthRoleGetResponse.encode(r).finish()),
        roleList: (r) => write(AuthRoleListResponse.encode(r).finish()),
      };
    case 'table':
      return { done: unsupported, userGet: unsupported, userList: unsupported, roleGet: unsupported, roleList: unsupported };
  }
}
