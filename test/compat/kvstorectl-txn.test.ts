/**
 * kvstorectl vs etcdctl 3.4: txn from stdin and interactive (-i prompts), compares on every
 * target, requests with their own flags, every output format, and the parse errors (malformed
 * compares, unknown requests, input ending early, etcdctl's single-quote argument splitting).
 */
import { ctlDiffSuite, type CtlCase } from '../unit/ctl/support/ctl-diff.js';

const seed = [
  ['put', 'a', '1'],
  ['put', 'b', '2'],
  ['put', 'a', '4'],
  ['put', 'd/x', '5'],
];

const CASES: readonly CtlCase[] = [
  {
    name: 'success and failure branches, every compare target, formats',
    setup: seed,
    steps: [
      { run: ['txn'], input: 'value("a") = "4"\nversion("a") = "2"\n\nput t 1\nget a\ndel b\n\nput f 1\n\n' },
      { run: ['txn'], input: 'value("a") > "9"\n\nput t 2\n\nget a\nput f 2 --prev-kv\n\n' },
      { run: ['txn'], input: 'mod("a") > "0"\nc("a") != "0"\nver("a") < "100"\nval("a") != "x"\n\nget a --keys-only\nget d/ --prefix\n\n\n' },
      { run: ['txn', '-w', 'json'], input: 'create("nope") = "0"\n\nput nope 1\nget nope\ndel zz --prev-kv\n\n\n' },
      { run: ['txn', '-w', 'fields'], input: 'version("a") < "3"\n\nget a\n\n\n' },
      { run: ['txn', '-i'], input: 'value("a") = "4"\n\nget a\n\nget b\n\n' },
      { run: ['txn', '-w', 'table'], input: '\n\n\n' },
      ['get', '', '--prefix'],
    ],
  },
  {
    name: 'quoting of request arguments',
    steps: [
      { run: ['txn'], input: '\nput "k 1" "v \\"1\\""\nget "k 1"\n\n\n' },
      { run: ['txn'], input: "\nput 'k1' 'hello world'\nget k\n\n\n" },
      ['get', '', '--prefix', '-w', 'json'],
    ],
  },
  {
    name: 'parse errors and input ending early',
    setup: seed,
    steps: [
      { run: ['txn'], input: 'value("a") = 1\n\n\n\n' },
      { run: ['txn'], input: 'value("a")="1"\n\n\n\n' },
      { run: ['txn'], input: 'bogus("a") = "1"\n\n\n\n' },
      { run: ['txn'], input: 'no parenthesis\n\n\n\n' },
      { run: ['txn'], input: 'version("a") = "x"\n\n\n\n' },
      { run: ['txn'], input: '\nfoo a\n\n\n' },
      { run: ['txn'], input: '\nget\n\n\n' },
      { run: ['txn'], input: '\nput a\n\n\n' },
      { run: ['txn'], input: '\nput a 1\n\n' },
      { run: ['txn'], input: '\nput a 1\n\nput b 2' },
      { run: ['txn'], input: '' },
      { run: ['txn', 'extra'], input: '\n\n\n' },
      { run: ['txn'], input: '\nput "" v\n\n\n' },
      { run: ['txn'], input: '\nput dup 1\nput dup 2\n\n\n' },
      ['get', '', '--prefix'],
    ],
  },
];

ctlDiffSuite('kvstorectl txn', CASES);
