/**
 * The `fields` format: one `"Name" : value` line per field (strings and bytes `%q`-quoted),
 * headers first. Member add/remove/update/promote and move-leader are not supported.
 */
import { Event_EventType, type KeyValue } from '../../proto/gen/etcd/kv.js';
import { AlarmType, type DeleteRangeResponse, type PutResponse, type RangeResponse, type ResponseHeader } from '../../proto/gen/etcd/rpc.js';
import { goQuote, goStringSlice } from './go-format.js';
import type { PartialPrinter, PrinterOptions } from './printer.js';

const ZERO: ResponseHeader = { clusterId: 0n, memberId: 0n, revision: 0n, raftTerm: 0n };

export function fieldsPrinter(o: PrinterOptions): PartialPrinter {
  const line = (s: string): void => o.out.write(`${s}\n`);
  const hdr = (h: ResponseHeader | undefined): void => {
    const x = h ?? ZERO;
    line(`"ClusterID" : ${x.clusterId}`);
    line(`"MemberID" : ${x.memberId}`);
    line(`"Revision" : ${x.revision}`);
    line(`"RaftTerm" : ${x.raftTerm}`);
  };
  const kv = (pfx: string, k: KeyValue): void => {
    line(`"${pfx}Key" : ${goQuote(k.key)}`);
    line(`"${pfx}CreateRevision" : ${k.createRevision}`);
    line(`"${pfx}ModRevision" : ${k.modRevision}`);
    line(`"${pfx}Version" : ${k.version}`);
    line(`"${pfx}Value" : ${goQuote(k.value)}`);
    line(`"${pfx}Lease" : ${k.lease}`);
  };
  const get = (r: RangeResponse): undefined => {
    hdr(r.header);
    for (const k of r.kvs) kv('', k);
    line(`"More" : ${r.more}`);
    line(`"Count" : ${r.count}`);
    return undefined;
  };
  const put = (r: PutResponse): undefined => {
    hdr(r.header);
    if (r.prevKv !== undefined) kv('Prev', r.prevKv);
    return undefined;
  };
  const del = (r: DeleteRangeResponse): undefined => {
    hdr(r.header);
    line(`"Deleted" : ${r.deleted}`);
    for (const k of r.prevKvs) kv('Prev', k);
    return undefined;
  };
  return {
    get,
    put,
    del,
    txn: (r) => {
      hdr(r.header);
      line(`"Succeeded" : ${r.succeeded}`);
      for (const op of r.responses) {
        const resp = op.response;
        if (resp?.$case === 'responseRange') get(resp.value);
        else if (resp?.$case === 'responsePut') put(resp.value);
        else if (resp?.$case === 'responseDeleteRange') del(resp.value);
      }
      return undefined;
    },
    watch: (r) => {
      hdr(r.header);
      for (const e of r.events) {
        line(`"Type" : ${e.type === Event_EventType.DELETE ? 'DELETE' : 'PUT'}`);
        if (e.prevKv !== undefined) kv('Prev', e.prevKv);
        if (e.kv !== undefined) kv('', e.kv);
      }
      return undefined;
    },
    grant: (r) => {
      hdr(r.header);
      line(`"ID" : ${r.ID}`);
      line(`"TTL" : ${r.TTL}`);
      return undefined;
    },
    revoke: (_id, r) => (hdr(r.header), undefined),
    keepAlive: (r) => {
      hdr(r.header);
      line(`"ID" : ${r.ID}`);
      line(`"TTL" : ${r.TTL}`);
      return undefined;
    },
    timeToLive: (r) => {
      hdr(r.header);
      line(`"ID" : ${r.ID}`);
      line(`"TTL" : ${r.TTL}`);
      line(`"GrantedTTL" : ${r.grantedTTL}`);
      for (const k of r.keys) line(`"Key" : ${goQuote(k)}`);
      return undefined;
    },
    leases: (r) => {
      hdr(r.header);
      for (const l of r.leases) line(`"ID" : ${l.ID}`);
      return undefined;
    },
    memberList: (r) => {
      hdr(r.header);
      for (const m of r.members) {
        line(`"ID" : ${m.ID}`);
        line(`"Name" : ${goQuote(m.name)}`);
        for (const u of m.peerURLs) line(`"PeerURL" : ${goQuote(u)}`);
        for (const u of m.clientURLs) line(`"ClientURL" : ${goQuote(u)}`);
        line(`"IsLearner" : ${m.isLearner}`);
        line('');
      }
      return undefined;
    },
    endpointHealth: (hs) => {
      for (const h of hs) {
        line(`"Endpoint" : ${goQuote(h.ep)}`);
        line(`"Health" : ${h.health}`);
        line(`"Took" : ${h.took}`);
        line(`"Error" : ${h.error}`);
        line('');
      }
      return undefined;
    },
    endpointStatus: (ss) => {
      for (const { ep, resp } of ss) {
        hdr(resp.header);
        line(`"Version" : ${goQuote(resp.version)}`);
        line(`"DBSize" : ${resp.dbSize}`);
        line(`"Leader" : ${resp.leader}`);
        line(`"IsLearner" : ${resp.isLearner}`);
        line(`"RaftIndex" : ${resp.raftIndex}`);
        line(`"RaftTerm" : ${resp.raftTerm}`);
        line(`"RaftAppliedIndex" : ${resp.raftAppliedIndex}`);
        line(`"Errors" : ${goStringSlice(resp.errors)}`);
        line(`"Endpoint" : ${goQuote(ep)}`);
        line('');
      }
      return undefined;
    },
    endpointHashKV: (hs) => {
      for (const { ep, resp } of hs) {
        hdr(resp.header);
        line(`"Endpoint" : ${goQuote(ep)}`);
        line(`"Hash" : ${resp.hash}`);
        line('');
      }
      return undefined;
    },
    alarm: (r) => {
      hdr(r.header);
      for (const a of r.alarms) {
        line(`"MemberID" : ${a.memberID}`);
        line(`"AlarmType" : ${AlarmType[a.alarm] ?? a.alarm}`);
        line('');
      }
      return undefined;
    },
  };
}
