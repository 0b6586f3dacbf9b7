/**
 * The TLS material of one side (client or peer), re-read when its files change, as etcd reads
 * its certificate files at every handshake: rotating a certificate needs no restart.
 *
 * Contract:
 * - `current()` stats the files (cert, key, trusted CA, CRL) and, when one changed since the
 *   last load (mtime, size or inode), reads them all and checks that they make a secure context;
 *   every accepted connection asks for it before its handshake, so a replaced certificate is
 *   served from the next connection on;
 * - a load that fails after a good one (a half-written file during a rotation) keeps the
 *   previous material and logs a warning; the next handshake tries again;
 * - `load()` is the first load: it rejects with a `TlsLoadError` naming the flag of the file
 *   that could not be read or the pair that does not match (the member then refuses to start);
 * - `clientOptions()` gives what an outbound connection needs (the side's certificate as the
 *   client certificate, the trusted CA, protocol settings) from the latest material, without
 *   waiting; it also starts a check of the files so a rotation reaches later dials;
 * - concurrent callers share one stat/load round.
 */
import { readFile, stat } from 'node:fs/promises';
import { createSecureContext, type ConnectionOptions, type SecureContextOptions } from 'node:tls';
import type { Logger } from 'pino';
import type { TlsProtocol } from '../config/tls-config.js';
import { readCrlSerials } from './crl-serials.js';

export interface TlsFiles {
  readonly certFile: string;
  readonly keyFile: string;
  /** '' when none. */
  readonly trustedCaFile: string;
  /** '' when none. */
  readonly crlFile: string;
}

/** Which flag names each file, for messages (`--cert-file`, `--peer-cert-file`, …). */
export interface TlsFlagNames {
  readonly certFile: string;
  readonly keyFile: string;
  readonly trustedCaFile: string;
  readonly crlFile: string;
}

export class TlsLoadError extends Error {}

/** One load of the files. `generation` grows by one at each load that changed something. */
export interface TlsMaterial {
  readonly generation: number;
  readonly signature: string;
  /** For `tls.Server#setSecureContext` / `createSecureContext`. */
  readonly options: SecureContextOptions;
  readonly cert: Buffer;
  readonly key: Buffer;
  readonly ca: Buffer | undefined;
  readonly crl: Buffer | undefined;
  /**
   * Serials the CRL revokes (crl-serials.ts), checked after the handshake as etcd checks them;
   * the CRL is not given to OpenSSL, which would also refuse every certificate once the list's
   * nextUpdate has passed, and etcd does not.
   */
  readonly revoked: ReadonlySet<string> | undefined;
}

export interface TlsSource {
  readonly files: TlsFiles;
  /** What the source was made from, minus the logger: another thread makes the same source from it. */
  readonly spec: TlsSpec;
  load(): Promise<void>;
  current(): Promise<TlsMaterial>;
  clientOptions(): ConnectionOptions;
}

export interface TlsSourceOptions {
  readonly files: TlsFiles;
  readonly flags: TlsFlagNames;
  readonly protocol: TlsProtocol;
  /** Dial without verifying the remote certificate (auto TLS: self-signed, as etcd). */
  readonly skipVerify: boolean;
  readonly logger: Logger;
}

/** `TlsSourceOptions` without the logger (structured-clone safe). */
export type TlsSpec = Omit<TlsSourceOptions, 'logger'>;

export function createTlsSource(o: TlsSourceOptions): TlsSource {
  const { files, flags, protocol, logger } = o;
  const paths = (['certFile', 'keyFile', 'trustedCaFile', 'crlFile'] as const).filter((k) => files[k] !== '');
  let material: TlsMaterial | undefined;
  let round: Promise<TlsMaterial> | undefined;

  /** The files' identity now; fails on the first file (in flag order) that cannot be stat'ed. */
  const signatureNow = async (): Promise<string> => {
    const settled = await Promise.allSettled(paths.map((k) => stat(files[k])));
    const parts: string[] = [];
    settled.forEach((r, i) => {
      const k = paths[i]!;
      if (r.status === 'rejected') throw new TlsLoadError(openFailure(flags[k], files[k], r.reason), { cause: r.reason });
      parts.push(`${r.value.ino}:${r.value.size}:${r.value.mtimeMs}`);
    });
    return parts.join('|');
  };

  const read = async (k: keyof TlsFiles): Promise<Buffer | undefined> => {
    if (files[k] === '') return undefined;
    try {
      return await readFile(files[k]);
    } catch (err) {
      throw new TlsLoadError(openFailure(flags[k], files[k], err), { cause: err });
    }
  };

  const build = async (signature: string): Promise<TlsMaterial> => {
    const cert = await read('certFile');
    const key = await read('keyFile');
    const ca = await read('trustedCaFile');
    const crl = await read('crlFile');
    const crlRead = crl === undefined ? undefined : readCrlSerials(crl);
    if (crlRead?.ok === false) throw new TlsLoadError(`cannot use ${flags.crlFile} ${files.crlFile}: ${crlRead.reason}`);
    const revoked = crlRead?.ok === true ? crlRead.revoked : undefined;
    try {
      const options: SecureContextOptions = { cert, key, ca, ciphers: protocol.ciphers, minVersion: protocol.minVersion, maxVersion: protocol.maxVersion };
      createSecureContext(options);
      return { generation: (material?.generation ?? 0) + 1, signature, options, cert: cert!, key: key!, ca, crl, revoked };
    } catch (err) {
      throw new TlsLoadError(
        `cannot use ${flags.certFile} ${files.certFile} with ${flags.keyFile} ${files.keyFile}${ca ? `, ${flags.trustedCaFile} ${files.trustedCaFile}` : ''}${crl ? `, ${flags.crlFile} ${files.crlFile}` : ''}: ${(err as Error).message}`,
        { cause: err },
      );
    }
  };

  const refresh = (): Promise<TlsMaterial> => {
    round ??= (async () => {
      try {
        const signature = await signatureNow();
        if (material !== undefined && material.signature === signature) return material;
        const next = await build(signature);
        if (material !== undefined) logger.info({ 'cert-file': files.certFile }, 'reloaded TLS certificate files');
        material = next;
        return next;
      } catch (err) {
        if (material === undefined) throw err;
        logger.warn({ error: (err as Error).message }, 'failed to reload TLS certificate files; serving the previous ones');
        return material;
      }
    })().finally(() => {
      round = undefined;
    });
    return round;
  };

  return {
    files,
    spec: { files, flags, protocol, skipVerify: o.skipVerify },
    async load() {
      await refresh();
    },
    current: refresh,
    clientOptions() {
      const m = material;
      void refresh().catch(() => undefined);
      if (m === undefined) throw new TlsLoadError('TLS material used before it was loaded');
      return {
        cert: m.cert,
        key: m.key,
        ca: m.ca,
        ciphers: protocol.ciphers,
        minVersion: protocol.minVersion,
        maxVersion: protocol.maxVersion,
        rejectUnauthorized: !o.skipVerify,
      };
    },
  };
}

const ERRNO_TEXT: Readonly<Record<string, string>> = {
  ENOENT: 'no such file or directory',
  EACCES: 'permission denied',
  EISDIR: 'is a directory',
};

/** `--cert-file: open /x: no such file or directory` (etcd's Go text, with the flag). */
function openFailure(flag: string, path: string, err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code ?? '';
  return `${flag}: open ${path}: ${ERRNO_TEXT[code] ?? (err as Error).message}`;
}
