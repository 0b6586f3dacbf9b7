/**
 * The Go formatting reproduced by the printers: strconv.Quote, %x ids, humanize.Bytes,
 * Duration.String and flag durations, encoding/json of etcd structs, tablewriter tables.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatGoDuration, parseGoDurationMs } from '../../../ctl/cli/go-duration.js';
import { goQuote, hex016, hex16, hexBytes, hexId, goJsonString, goStringSlice } from '../../../ctl/printer/go-format.js';
import { goJson, keep, obj, omit } from '../../../ctl/printer/go-json.js';
import { humanizeBytes } from '../../../ctl/printer/humanize.js';
import { renderTable } from '../../../ctl/printer/table-writer.js';

void describe('go-format', () => {
  void it('goQuote follows strconv.Quote: escapes, printable runes, invalid UTF-8 as \\x', () => {
    assert.equal(goQuote('a'), '"a"');
    assert.equal(goQuote('multi\nline\t"q"\\'), '"multi\\nline\\t\\"q\\"\\\\"');
    assert.equal(goQuote(Buffer.from([0xc3, 0xa9, 0x01, 0x7f])), '"é\\x01\\x7f"');
    assert.equal(goQuote(Buffer.from([0xff, 0x61])), '"\\xffa"');
    assert.equal(goQuote('\u00ad'), '"\\u00ad"');
    assert.equal(goQuote('日本'), '"日本"');
    assert.equal(goQuote(Buffer.from([0xe2, 0x82])), '"\\xe2\\x82"');
  });
  void it('ids in hex: %x, %016x, %16x; negative int64 as two complement', () => {
    assert.equal(hexId(0x1234n), '1234');
    assert.equal(hex016(0x1234n), '0000000000001234');
    assert.equal(hex16(0x1234n), '            1234');
    assert.equal(hexId(-1n), 'ffffffffffffffff');
  });
  void it('--hex bytes, string slices and JSON strings', () => {
    assert.equal(hexBytes(Buffer.from('x y')), '\\x78\\x20\\x79');
    assert.equal(goStringSlice(['a', 'b']), '[a b]');
    assert.equal(goStringSlice([]), '[]');
    assert.equal(goJsonString('<a&b>'), '"\\u003ca\\u0026b\\u003e"');
  });
});

void describe('humanizeBytes (go-humanize Bytes)', () => {
  void it('SI units, one decimal under 10, half to even', () => {
    assert.equal(humanizeBytes(0), '0 B');
    assert.equal(humanizeBytes(9), '9 B');
    assert.equal(humanizeBytes(838), '838 B');
    assert.equal(humanizeBytes(20480), '20 kB');
    assert.equal(humanizeBytes(24608), '25 kB');
    assert.equal(humanizeBytes(1500), '1.5 kB');
    assert.equal(humanizeBytes(2_500_000), '2.5 MB');
    assert.equal(humanizeBytes(12_500_000n), '12 MB');
  });
});

void describe('Go durations', () => {
  void it('format like Duration.String()', () => {
    assert.equal(formatGoDuration(0n), '0s');
    assert.equal(formatGoDuration(999n), '999ns');
    assert.equal(formatGoDuration(857_258n), '857.258µs');
    assert.equal(formatGoDuration(2_013_595n), '2.013595ms');
    assert.equal(formatGoDuration(1_500_000_000n), '1.5s');
    assert.equal(formatGoDuration(62_500_000_000n), '1m2.5s');
    assert.equal(formatGoDuration(3_600_000_000_000n), '1h0m0s');
  });
  void it('parse flag values', () => {
    assert.equal(parseGoDurationMs('5s'), 5000);
    assert.equal(parseGoDurationMs('1m30s'), 90_000);
    assert.equal(parseGoDurationMs('500ms'), 500);
    assert.equal(parseGoDurationMs('1.5h'), 5_400_000);
    assert.equal(parseGoDurationMs('0'), 0);
    assert.equal(parseGoDurationMs('5'), undefined);
    assert.equal(parseGoDurationMs('x'), undefined);
  });
});

void describe('go-json', () => {
  void it('omitempty drops zero values; keep writes them; 64-bit numbers stay exact; bytes base64', () => {
    const v = obj(omit('a', 0n), keep('b', 0n), omit('c', 18446744073709551615n), omit('d', Buffer.from('a')), keep('e', null), omit('f', []), keep('g', []), omit('h', false));
    assert.equal(goJson(v), '{"b":0,"c":18446744073709551615,"d":"YQ==","e":null,"g":[]}');
  });
});

void describe('renderTable', () => {
  void it('draws etcdctl tables: upper-case centred header, right-aligned cells', () => {
    const t = renderTable(['endpoint', 'health', 'took', 'error'], [['127.0.0.50:23790', 'true', '857.258µs', '']]);
    assert.equal(
      t,
      [
        '+------------------+--------+-----------+-------+',
        '|     ENDPOINT     | HEALTH |   TOOK    | ERROR |',
        '+------------------+--------+-----------+-------+',
        '| 127.0.0.50:23790 |   true | 857.258µs |       |',
        '+------------------+--------+-----------+-------+',
        '',
      ].join('\n'),
    );
  });
});
