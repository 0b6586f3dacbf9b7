/**
 * kvstorectl vs etcdctl 3.4: `user …`, `role …`, `auth enable|disable` and `--user` in every
 * output format, with their argument and server errors. Each case leaves the member as it found
 * it (auth disabled, no users or roles), since a reset only removes keys and leases.
 */
import { ctlDiffSuite, type CtlCase } from '../unit/ctl/support/ctl-diff.js';

const ROOT = '--user=root:rootpw';
const CLEANUP: readonly (readonly string[])[] = [
  ['auth', 'disable', ROOT],
  ['user', 'delete', 'root'],
  ['user', 'delete', 'alice'],
  ['role', 'delete', 'root'],
  ['role', 'delete', 'reader'],
];

const CASES: readonly CtlCase[] = [
  {
    name: 'users and roles in every format, argument errors, enable with the root role added, denials',
    steps: [
      ['user', 'add', 'root', '--new-user-password=rootpw'],
      ['user', 'add', 'alice:alicepw', '-w', 'json'],
      ['user', 'add', ':x'],
      ['user', 'add'],
      ['user', 'add', 'root', '--new-user-password=x'],
      { run: ['user', 'add', 'bob', '--interactive=false'], input: 'bobpw\n' },
      ['user', 'delete', 'bob', '-w', 'fields'],
      ['user', 'add', 'nopw', '--no-password'],
      ['user', 'get', 'nopw'],
      ['user', 'delete', 'nopw'],
      ['role', 'add', 'reader'],
      ['role', 'add', 'reader'],
      ['role', 'add'],
      ['role', 'grant-permission', 'reader', 'read', 'foo'],
      ['role', 'grant-permission', 'reader', 'readwrite', 'k/', '--prefix', '-w', 'json'],
      ['role', 'grant-permission', 'reader', 'write', 'z', '--from-key'],
      ['role', 'grant-permission', 'reader', 'write', 'a', 'c'],
      ['role', 'grant-permission', 'reader', 'bogus', 'a'],
      ['role', 'grant-permission', 'reader', 'read', 'a', 'b', '--prefix'],
      ['role', 'grant-permission', 'reader', 'read'],
      ['role', 'get', 'reader'],
      ['role', 'get', 'reader', '-w', 'json'],
      ['role', 'get', 'reader', '-w', 'fields'],
      ['role', 'get', 'reader', '-w', 'table'],
      ['role', 'list'],
      ['role', 'list', '-w', 'json'],
      ['role', 'list', '-w', 'fields'],
      ['user', 'grant-role', 'alice', 'reader'],
      ['user', 'grant-role', 'alice', 'nosuch'],
      ['user', 'grant-role', 'alice'],
      ['user', 'get', 'alice'],
      ['user', 'get', 'alice', '--detail'],
      ['user', 'get', 'alice', '-w', 'json'],
      ['user', 'get', 'alice', '-w', 'fields'],
      ['user', 'get', 'nobody'],
      ['user', 'list'],
      ['user', 'list', '-w', 'json'],
      ['auth', 'enable'],
      ['auth', 'enable', 'extra'],
      ['role', 'list', ROOT],
      ['get', 'foo'],
      ['get', 'foo', '--user=alice:alicepw'],
      ['put', 'foo', 'x', '--user=alice:alicepw'],
      ['put', 'k/1', 'x', '--user=alice:alicepw'],
      ['get', 'k/', '--prefix', '--user=alice', '--password=alicepw'],
      ['get', 'foo', '--user=alice:wrong'],
      ['user', 'list', '--user=alice:alicepw'],
      { run: ['user', 'passwd', 'alice', '--interactive=false', ROOT], input: 'newpw\n' },
      ['get', 'k/1', '--user=alice:newpw'],
      ['user', 'revoke-role', 'alice', 'reader', ROOT],
      ['user', 'revoke-role', 'alice', 'reader', ROOT],
      ['role', 'revoke-permission', 'reader', 'foo', ROOT],
      ['role', 'revoke-permission', 'reader', 'k/', '--prefix', ROOT],
      ['role', 'revoke-permission', 'reader', 'z', '--from-key', ROOT],
      ['role', 'revoke-permission', 'reader', 'a', 'c', ROOT],
      ['role', 'revoke-permission', 'reader', 'a', 'c', ROOT],
      ['user', 'delete', 'root', ROOT],
      ['auth', 'disable', '--user=alice:newpw'],
      ...CLEANUP,
      ['user', 'list'],
      ['role', 'list'],
    ],
  },
  {
    // Last: its users and roles stay (a reset removes only keys and leases).
    name: 'protobuf answers on one state',
    setup: [
      ['user', 'add', 'pb-user', '--new-user-password=x'],
      ['role', 'add', 'pb-role'],
      ['role', 'grant-permission', 'pb-role', 'readwrite', 'p/', '--prefix'],
      ['role', 'grant-permission', 'pb-role', 'read', 'q'],
      ['user', 'grant-role', 'pb-user', 'pb-role'],
    ],
    readOnly: true,
    steps: [
      { run: ['user', 'get', 'pb-user', '-w', 'protobuf'], binary: true },
      { run: ['user', 'list', '-w', 'protobuf'], binary: true },
      { run: ['role', 'get', 'pb-role', '-w', 'protobuf'], binary: true },
      { run: ['role', 'list', '-w', 'protobuf'], binary: true },
      ['role', 'get', 'pb-role', '-w', 'json'],
    ],
  },
];

ctlDiffSuite('kvstorectl auth, user, role', CASES);
