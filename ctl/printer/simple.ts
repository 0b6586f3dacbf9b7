/**
 * The `simple` format (etcdctl's default): keys and values on their own lines as raw bytes,
 * one-line summaries for lease, member and maintenance answers, comma-separated rows for
 * endpoint and member lists. `endpoint health` writes to stderr.
 */
import type { KeyValue } from '../../proto/gen/etcd/kv.js';
import { Event_EventType } from '../../proto/gen/etcd/kv.js';
import { AlarmType, type AlarmMember, type DeleteRangeResponse, type PutResponse, type RangeResponse } from '../../proto/gen/etcd/rpc.js';
import type { Output } from '../cli/io.js';
import { goStringSlice, hex016, hex16, hexBytes, hexId } from './go-format.js';
import type { PartialPrinter, PrinterOptions } from './printer.js';
import { endpointStatusRows, hashKVRows, memberListRows } from './rows.js';

function printKV(out: Output, o: PrinterOptions, kv: KeyValue): void {
  const k = o.hex ? Buffer.from(hexBytes(kv.key)) : kv.key;
  const v = o.hex ? Buffer.from(hexBytes(kv.value)) : kv.value;
  if (!o.valueOnly) out.write(Buffer.concat([k, Buffer.from('\n')]));
  out.write(Buffer.concat([v, Buffer.from('\n')]));
}

/** The protobuf text form gogoproto's String() gives an AlarmMember (`memberID:1 alarm:NOSPACE `). */
function alarmText(a: AlarmMember): string {
  const parts: string[] = [];
  if (a.memberID !== 0n) parts.push(`memberID:${a.memberID} `);
  if (a.alarm !== AlarmType.NONE) parts.push(`alarm:${AlarmType[a.alarm] ?? a.alarm} `);
  return parts.join('');
}

export function simplePrinter(o: PrinterOptions): PartialPrinter {
  const out = o.out;
  const line = (s: string): void => out.write(`${s}\n`);
  const get = (r: RangeResponse): undefined => {
    for (const kv of r.kvs) printKV(out, o, kv);
    return undefined;
  };
  const put = (r: PutResponse): undefined => {
    line('OK');
    if (r.prevKv !== undefined) printKV(out, o, r.prevKv);
    return undefined;
  };
  const del = (r: DeleteRangeResponse): undefined => {
    line(String(r.deleted));
    for (const kv of r.prevKvs) printKV(out, o, kv);
    return undefined;
  };
  return {
    get,
    put,
    del,
    txn: (r) => {
      line(r.succeeded ? 'SUCCESS' : 'FAILURE');
      for (const op of r.responses) {
        line('');
        const resp = op.response;
        if (resp?.$case === 'responseRange') get(resp.value);
        else if (resp?.$case === 'responsePut') put(resp.value);
        else if (resp?.$case === 'responseDeleteRange') del(resp.value);
        else line('unexpected response');
      }
      return undefined;
    },
    watch: (r) => {
      for (const e of r.events) {
        line(e.type === Event_EventType.DELETE ? 'DELETE' : 'PUT');
        if (e.prevKv !== undefined) printKV(out, o, e.prevKv);
        if (e.kv !== undefined) printKV(out, o, e.kv);
      }
      return undefined;
    },
    grant: (r) => (line(`lease ${hex016(r.ID)} granted with TTL(${r.TTL}s)`), undefined),
    revoke: (id) => (line(`lease ${hex016(id)} revoked`), undefined),
    keepAlive: (r) => (line(`lease ${hex016(r.ID)} keepalived with TTL(${r.TTL})`), undefined),
    timeToLive: (r, keys) => {
      if (r.grantedTTL === 0n && r.TTL === -1n) {
        line(`lease ${hex016(r.ID)} already expired`);
        return undefined;
      }
      let txt = `lease ${hex016(r.ID)} granted with TTL(${r.grantedTTL}s), remaining(${r.TTL}s)`;
      if (keys) txt += `, attached keys(${goStringSlice(r.keys.map((k) => k.toString('latin1')))})`;
      out.write(Buffer.from(`${txt}\n`, 'latin1'));
      return undefined;
    },
    leases: (r) => {
      line(`found ${r.leases.length} leases`);
      for (const l of r.leases) line(hex016(l.ID));
      return undefined;
    },
    memberAdd: (r) => (line(`Member ${hex16(r.member?.ID ?? 0n)} added to cluster ${hex16(r.header?.clusterId ?? 0n)}`), undefined),
    memberRemove: (id, r) => (line(`Member ${hex16(id)} removed from cluster ${hex16(r.header?.clusterId ?? 0n)}`), undefined),
    memberUpdate: (id, r) => (line(`Member ${hex16(id)} updated in cluster ${hex16(r.header?.clusterId ?? 0n)}`), undefined),
    memberPromote: (id, r) => (line(`Member ${hex16(id)} promoted in cluster ${hex16(r.header?.clusterId ?? 0n)}`), undefined),
    memberList: (r) => {
      for (const row of memberListRows(r)) line(row.join(', '));
      return undefined;
    },
    endpointHealth: (hs) => {
      for (const h of hs) {
        if (h.error === '') o.err.write(`${h.ep} is healthy: successfully committed proposal: took = ${h.took}\n`);
        else o.err.write(`${h.ep} is unhealthy: failed to commit proposal: ${h.error}\n`);
      }
      return undefined;
    },
    endpointStatus: (ss) => {
      for (const row of endpointStatusRows(ss)) line(row.join(', '));
      return undefined;
    },
    endpointHashKV: (hs) => {
      for (const row of hashKVRows(hs)) line(row.join(', '));
      return undefined;
    },
    moveLeader: (leader, target) => (line(`Leadership transferred from ${hexId(leader)} to ${hexId(target)}`), undefined),
    alarm: (r) => {
      for (const a of r.alarms) line(alarmText(a));
      return undefined;
    },
  };
}
