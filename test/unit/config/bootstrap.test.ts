// Bootstrap checks (run only when a member starts without a WAL) and initial member ids.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { initialMembers, verifyBootstrap } from '../../../server/config/bootstrap.js';
import { formatId } from '../../../server/config/identity.js';
import { run } from './helpers.js';

const THREE = 'n1=http://10.0.0.1:2380,n2=http://10.0.0.2:2380,n3=http://10.0.0.3:2380';

void test('a consistent three-member configuration bootstraps', () => {
  const { config } = run(['--name=n2', `--initial-cluster=${THREE}`, '--initial-advertise-peer-urls=http://10.0.0.2:2380']);
  assert.equal(verifyBootstrap(config), undefined);
  const members = initialMembers(config);
  assert.deepEqual(members.map((m) => m.name), ['n1', 'n2', 'n3']);
  assert.equal(new Set(members.map((m) => formatId(m.id))).size, 3);
});

const CASES: ReadonlyArray<readonly [readonly string[], string | undefined]> = [
  [['--name=n9', `--initial-cluster=${THREE}`], `couldn't find local name "n9" in the initial cluster configuration`],
  [
    ['--name=n1', '--initial-cluster=n1=http://10.0.0.1:2380,n2=http://10.0.0.1:2380', '--initial-advertise-peer-urls=http://10.0.0.1:2380'],
    'initial cluster n1=http://10.0.0.1:2380,n2=http://10.0.0.1:2380 has duplicate url',
  ],
  [
    ['--name=n1', `--initial-cluster=${THREE}`],
    '--initial-cluster has n1=http://10.0.0.1:2380 but missing from --initial-advertise-peer-urls=http://localhost:2380',
  ],
  [
    ['--name=n1', `--initial-cluster=${THREE}`, '--initial-advertise-peer-urls=http://10.0.0.1:2380,http://10.0.0.1:2381'],
    `--initial-advertise-peer-urls has http://10.0.0.1:2381 but missing from --initial-cluster=${THREE}`,
  ],
  // Joining an existing cluster does not compare advertised URLs.
  [['--name=n1', `--initial-cluster=${THREE}`, '--initial-cluster-state=existing'], undefined],
  // The default initial cluster follows the name and the advertised peer URLs.
  [['--name=solo', '--initial-advertise-peer-urls=http://10.0.0.7:2380'], undefined],
];

for (const [argv, expected] of CASES) {
  void test(`verifyBootstrap ${argv.join(' ')}`, () => {
    assert.equal(verifyBootstrap(run(argv).config), expected);
  });
}
