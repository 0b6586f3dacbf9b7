/**
 * The `table` format: member list and endpoint health/status/hashkv as ASCII tables; every
 * other answer is not supported (etcdctl's behaviour).
 */
import type { PartialPrinter, PrinterOptions } from './printer.js';
import {
  ENDPOINT_HEALTH_HEADER,
  ENDPOINT_STATUS_HEADER,
  HASHKV_HEADER,
  MEMBER_LIST_HEADER,
  endpointHealthRows,
  endpointStatusRows,
  hashKVRows,
  memberListRows,
} from './rows.js';
import { renderTable } from './table-writer.js';

export function tablePrinter(o: PrinterOptions): PartialPrinter {
  return {
    memberList: (r) => (o.out.write(renderTable(MEMBER_LIST_HEADER, memberListRows(r))), undefined),
    endpointHealth: (hs) => (o.out.write(renderTable(ENDPOINT_HEALTH_HEADER, endpointHealthRows(hs))), undefined),
    endpointStatus: (ss) => (o.out.write(renderTable(ENDPOINT_STATUS_HEADER, endpointStatusRows(ss))), undefined),
    endpointHashKV: (hs) => (o.out.write(renderTable(HASHKV_HEADER, hashKVRows(hs))), undefined),
  };
}
