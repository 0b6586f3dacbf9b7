/**
 * A pod runner without processes, for tests of controllers: every pod "runs" at once on its own
 * 127.x address, is ready unless the test says otherwise (`setReady`), and can be made to exit
 * (`crash`). It records what it started and stopped.
 */
import type { PodRunner, RunningPod } from './kubelet.js';
import type { KubeObject } from './types.js';

/** What the fake runner did, in order. */
export interface RunnerRecord {
  readonly action: 'start' | 'stop';
  readonly pod: string;
  readonly images: readonly string[];
  /** stop: the grace period the kubelet gave. */
  readonly graceSeconds?: number;
}

export class FakePodRunner implements PodRunner {
  readonly records: RunnerRecord[] = [];
  private readonly addresses = new Map<string, string>();
  private readonly readiness = new Map<string, boolean>();
  private readonly exits = new Map<string, (code: number | null) => void>();

  start(pod: KubeObject): Promise<RunningPod> {
    const name = pod.metadata.name ?? '';
    const images = ((pod.spec as { containers?: { image?: string }[] } | undefined)?.containers ?? []).map((c) => c.image ?? '');
    this.records.push({ action: 'start', pod: name, images });
    let ip = this.addresses.get(name);
    if (ip === undefined) {
      ip = `127.0.1.${this.addresses.size + 2}`;
      this.addresses.set(name, ip);
    }
    let exit: (code: number | null) => void = () => undefined;
    const exited = new Promise<number | null>((resolve) => (exit = resolve));
    this.exits.set(name, exit);
    const running: RunningPod = {
      podIP: ip,
      ready: () => Promise.resolve(this.readiness.get(name) ?? true),
      exited,
      stop: async (graceSeconds: number) => {
        this.records.push({ action: 'stop', pod: name, images, graceSeconds });
        exit(0);
        await exited;
      },
    };
    return Promise.resolve(running);
  }

  /** The readiness the pod's probe reports from now on. */
  setReady(pod: string, ready: boolean): void {
    this.readiness.set(pod, ready);
  }

  /** The pod's process exits on its own with `code`. */
  crash(pod: string, code = 1): void {
    this.exits.get(pod)?.(code);
  }
}
