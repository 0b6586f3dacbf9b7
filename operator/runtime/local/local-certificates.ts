/**
 * The TLS files of a local cluster with spec.tls, in `<cluster>.kvstore/tls/` (FORMAT.md):
 * `ca.crt`/`ca.key` (made once), `<member>.crt`/`.key` per member (SANs: its loopback IP and
 * localhost) and `operator.crt`/`.key` (the client certificate the operator presents). Keys are
 * written with mode 0600.
 *
 * Contract: `memberFiles` and `operatorAccess` make what is missing, or a leaf whose SANs no
 * longer name the member's address or that expires within a day (a member re-added on a new
 * address gets a new certificate); existing files are kept otherwise. Calls are serialised (the
 * CA is made once even when every member starts at the same time). Failures are values.
 */
import { X509Certificate } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { portFail, portOk, type MemberAccess, type PortResult } from '../../controller/ports.js';
import { issueCa, issueLeaf, type LeafRequest, type Pem } from './x509-issue.js';

const CA_DAYS = 3650;
const LEAF_DAYS = 365;
const DAY_MS = 86_400_000;

/** Paths of the files a member is started with. */
export interface MemberTlsFiles {
  readonly certFile: string;
  readonly keyFile: string;
  readonly caFile: string;
}

async function readPem(dir: string, name: string): Promise<Pem | undefined> {
  try {
    return { cert: await readFile(join(dir, `${name}.crt`), 'utf8'), key: await readFile(join(dir, `${name}.key`), 'utf8') };
  } catch {
    return undefined; // not made yet
  }
}

/** Still usable for `ips`: parses, names every address, valid for more than a day. */
function fits(pem: Pem, ips: readonly string[], now: number): boolean {
  try {
    const c = new X509Certificate(pem.cert);
    const sans = c.subjectAltName ?? '';
    return Date.parse(c.validTo) > now + DAY_MS && ips.every((ip) => sans.split(', ').includes(`IP Address:${ip}`));
  } catch {
    return false;
  }
}

export class LocalCertificates {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    readonly dir: string,
    private readonly now: () => number,
  ) {}

  private serial<T>(f: () => Promise<T>): Promise<T> {
    const run = this.queue.then(f, f);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async write(name: string, pem: Pem): Promise<void> {
    await writeFile(join(this.dir, `${name}.key`), pem.key, { mode: 0o600 });
    await writeFile(join(this.dir, `${name}.crt`), pem.cert);
  }

  private async ca(): Promise<Pem> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    const have = await readPem(this.dir, 'ca');
    if (have !== undefined && fits(have, [], this.now())) return have;
    const made = await issueCa('kvstore local CA', CA_DAYS, this.now());
    await this.write('ca', made);
    return made;
  }

  private async leaf(name: string, req: LeafRequest): Promise<PortResult<Pem & { ca: string }>> {
    try {
      const ca = await this.ca();
      let pem = await readPem(this.dir, name);
      if (pem === undefined || !fits(pem, req.ips ?? [], this.now()) || !new X509Certificate(pem.cert).checkIssued(new X509Certificate(ca.cert))) {
        pem = await issueLeaf(ca, req, this.now());
        await this.write(name, pem);
      }
      return portOk({ ...pem, ca: ca.cert });
    } catch (err) {
      return portFail(`TLS files in ${this.dir}: ${(err as Error).message}`);
    }
  }

  /** The certificate, key and CA files of member `name` listening on `host`. */
  memberFiles(name: string, host: string): Promise<PortResult<MemberTlsFiles>> {
    return this.serial(async () => {
      const r = await this.leaf(name, { commonName: name, ips: [host], dnsNames: ['localhost'], server: true, validDays: LEAF_DAYS });
      if (!r.ok) return r;
      return portOk({ certFile: join(this.dir, `${name}.crt`), keyFile: join(this.dir, `${name}.key`), caFile: join(this.dir, 'ca.crt') });
    });
  }

  /** The operator's client certificate and the CA, as MemberAccess TLS material. */
  operatorAccess(): Promise<PortResult<NonNullable<MemberAccess['tls']>>> {
    return this.serial(async () => {
      const r = await this.leaf('operator', { commonName: 'kvstore-operator', server: false, validDays: LEAF_DAYS });
      if (!r.ok) return r;
      return portOk({ ca: Buffer.from(r.value.ca), cert: Buffer.from(r.value.cert), key: Buffer.from(r.value.key) });
    });
  }
}
