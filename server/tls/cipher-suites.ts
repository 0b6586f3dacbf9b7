/**
 * `--cipher-suites` takes Go's cipher suite names (`crypto/tls`); Node's TLS takes OpenSSL's.
 * This table maps one to the other. Pure.
 *
 * Go applies the list to TLS 1.2 and below only (TLS 1.3 suites are not configurable there);
 * the OpenSSL names produced here are all TLS ≤ 1.2 names, so Node likewise keeps its default
 * TLS 1.3 suites. A TLS 1.3 name given to the flag is accepted (Go knows it) and left out.
 * Suites that OpenSSL 3 no longer offers (RC4, 3DES) map to their OpenSSL names and make the
 * secure context fail to build, which the member reports at start.
 */

const GO_TO_OPENSSL: Readonly<Record<string, string>> = {
  TLS_RSA_WITH_RC4_128_SHA: 'RC4-SHA',
  TLS_RSA_WITH_3DES_EDE_CBC_SHA: 'DES-CBC3-SHA',
  TLS_RSA_WITH_AES_128_CBC_SHA: 'AES128-SHA',
  TLS_RSA_WITH_AES_256_CBC_SHA: 'AES256-SHA',
  TLS_RSA_WITH_AES_128_CBC_SHA256: 'AES128-SHA256',
  TLS_RSA_WITH_AES_128_GCM_SHA256: 'AES128-GCM-SHA256',
  TLS_RSA_WITH_AES_256_GCM_SHA384: 'AES256-GCM-SHA384',
  TLS_ECDHE_ECDSA_WITH_RC4_128_SHA: 'ECDHE-ECDSA-RC4-SHA',
  TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA: 'ECDHE-ECDSA-AES128-SHA',
  TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA: 'ECDHE-ECDSA-AES256-SHA',
  TLS_ECDHE_RSA_WITH_RC4_128_SHA: 'ECDHE-RSA-RC4-SHA',
  TLS_ECDHE_RSA_WITH_3DES_EDE_CBC_SHA: 'ECDHE-RSA-DES-CBC3-SHA',
  TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA: 'ECDHE-RSA-AES128-SHA',
  TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA: 'ECDHE-RSA-AES256-SHA',
  TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA256: 'ECDHE-ECDSA-AES128-SHA256',
  TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256: 'ECDHE-RSA-AES128-SHA256',
  TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256: 'ECDHE-RSA-AES128-GCM-SHA256',
  TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256: 'ECDHE-ECDSA-AES128-GCM-SHA256',
  TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384: 'ECDHE-RSA-AES256-GCM-SHA384',
  TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384: 'ECDHE-ECDSA-AES256-GCM-SHA384',
  TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305: 'ECDHE-RSA-CHACHA20-POLY1305',
  TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256: 'ECDHE-RSA-CHACHA20-POLY1305',
  TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305: 'ECDHE-ECDSA-CHACHA20-POLY1305',
  TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256: 'ECDHE-ECDSA-CHACHA20-POLY1305',
};

/** Go's TLS 1.3 suite names: accepted, not configurable. */
const TLS13 = new Set(['TLS_AES_128_GCM_SHA256', 'TLS_AES_256_GCM_SHA384', 'TLS_CHACHA20_POLY1305_SHA256']);

export type CipherList = { readonly ok: true; readonly ciphers: string | undefined } | { readonly ok: false; readonly message: string };

/**
 * The OpenSSL cipher string for Go names, in the given order (the order is the preference);
 * `undefined` for an empty list (Node's defaults). An unknown name fails with etcd's message.
 */
export function opensslCiphers(goNames: readonly string[]): CipherList {
  const out: string[] = [];
  for (const name of goNames) {
    const mapped = GO_TO_OPENSSL[name];
    if (mapped !== undefined) {
      if (!out.includes(mapped)) out.push(mapped);
    } else if (!TLS13.has(name)) {
      return { ok: false, message: `unexpected TLS cipher suite ${JSON.stringify(name)}` };
    }
  }
  return { ok: true, ciphers: out.length === 0 ? undefined : out.join(':') };
}
