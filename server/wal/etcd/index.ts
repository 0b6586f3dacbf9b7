/** Reading etcd 3.4's own WAL (FORMAT.md §"etcd's WAL"): used to import an etcd data dir. */
export { decodeEtcdWal, EtcdRecordType, type EtcdEntry, type EtcdWal, type EtcdWalOutcome } from './decode.js';
export { readEtcdWal } from './read.js';
