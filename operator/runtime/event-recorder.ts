/**
 * Records core/v1 Events about objects the operator manages, source component
 * `kvstore-operator`, reported by it: every Event created names `reportingComponent`
 * `kvstore-operator` and `reportingInstance` (this operator: its pod name, else the host name;
 * what `kubectl get events -o wide` and events.k8s.io/v1 show as the reporting controller and
 * instance). Repeats are folded the way kubectl shows them: an event with the same
 * involved object, type, reason and message as one already recorded by this recorder increments
 * that Event's `count` and moves its `lastTimestamp` (merge patch) instead of creating a new one;
 * if that Event is gone (expired), a new one is created.
 *
 * Events are best effort: `emit` never rejects (failures go to `onError`); `record` answers the
 * typed result. Calls are serialized, so concurrent repeats cannot create duplicates. The
 * remembered events are bounded (least recently used first out).
 */
import { hostname } from 'node:os';
import type { CoreEvent, KubeClient, KubeError, KubeResult } from './kube/types.js';
import type { Timers } from './timers.js';

export const EVENT_SOURCE_COMPONENT = 'kvstore-operator';

export type EventType = 'Normal' | 'Warning';

/** What an event is about (a KvstoreCluster, a Pod, ...). */
export interface EventSubject {
  readonly apiVersion: string;
  readonly kind: string;
  readonly metadata: { readonly name: string; readonly namespace?: string; readonly uid?: string; readonly resourceVersion?: string };
}

export interface EventNotice {
  readonly type: EventType;
  /** CamelCase reason, e.g. `UpgradeStarted`. */
  readonly reason: string;
  readonly message: string;
}

export interface EventRecorderOptions {
  readonly kube: KubeClient;
  readonly timers: Timers;
  /** `source.host` (e.g. the operator pod's node or name); omitted when absent. */
  readonly host?: string;
  /** `reportingInstance`: which operator process reports (its pod name; default the host name). At most 128 characters are kept (the API server's limit). */
  readonly instance?: string;
  /** Remembered events for folding repeats (default 4096). */
  readonly cacheSize?: number;
  readonly onError?: (error: KubeError, notice: EventNotice) => void;
}

interface Remembered {
  readonly name: string;
  readonly namespace: string;
  readonly count: number;
}

/** Kubernetes `Time`: RFC 3339 in whole seconds. */
export function kubeTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export class EventRecorder {
  readonly #o: EventRecorderOptions;
  readonly #seen = new Map<string, Remembered>();
  readonly #cacheSize: number;
  readonly #instance: string;
  #tail: Promise<unknown> = Promise.resolve();
  #seq = 0;

  constructor(options: EventRecorderOptions) {
    this.#o = options;
    this.#cacheSize = options.cacheSize ?? 4096;
    this.#instance = (options.instance ?? hostname()).slice(0, 128);
  }

  /** Records `notice` about `subject`; never rejects. (Fits the engine's EventSink.) */
  async emit(subject: EventSubject, notice: EventNotice): Promise<void> {
    const r = await this.record(subject, notice);
    if (!r.ok) this.#o.onError?.(r.error, notice);
  }

  /** Records `notice` about `subject`: a new Event, or the remembered one with count + 1. */
  record(subject: EventSubject, notice: EventNotice): Promise<KubeResult<CoreEvent>> {
    const run = this.#tail.then(() => this.#record(subject, notice));
    this.#tail = run.catch(() => undefined); // a broken invariant in one call must not stall the others
    return run;
  }

  async #record(subject: EventSubject, notice: EventNotice): Promise<KubeResult<CoreEvent>> {
    const m = subject.metadata;
    const namespace = m.namespace ?? 'default';
    const key = JSON.stringify([subject.apiVersion, subject.kind, namespace, m.name, m.uid ?? '', notice.type, notice.reason, notice.message]);
    const now = kubeTime(this.#o.timers.now());
    const known = this.#seen.get(key);
    if (known !== undefined) {
      const patched = await this.#o.kube.mergePatch<CoreEvent>(
        { apiVersion: 'v1', kind: 'Event', namespace: known.namespace, name: known.name },
        { count: known.count + 1, lastTimestamp: now },
      );
      if (patched.ok) {
        this.#remember(key, { ...known, count: patched.value.count ?? known.count + 1 });
        return patched;
      }
      this.#seen.delete(key);
      if (patched.error.kind !== 'NotFound') return patched;
    }
    this.#seq += 1;
    const suffix = (BigInt(this.#o.timers.now()) * 1_000_000n + BigInt(this.#seq)).toString(16);
    const event: CoreEvent = {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: `${m.name}.${suffix}`, namespace },
      involvedObject: {
        apiVersion: subject.apiVersion,
        kind: subject.kind,
        namespace,
        name: m.name,
        ...(m.uid !== undefined ? { uid: m.uid } : {}),
        ...(m.resourceVersion !== undefined ? { resourceVersion: m.resourceVersion } : {}),
      },
      reason: notice.reason,
      message: notice.message,
      type: notice.type,
      count: 1,
      firstTimestamp: now,
      lastTimestamp: now,
      source: { component: EVENT_SOURCE_COMPONENT, ...(this.#o.host !== undefined ? { host: this.#o.host } : {}) },
      reportingComponent: EVENT_SOURCE_COMPONENT,
      reportingInstance: this.#instance,
    };
    const created = await this.#o.kube.createEvent(event);
    if (created.ok) this.#remember(key, { name: created.value.metadata.name, namespace, count: 1 });
    return created;
  }

  #remember(key: string, value: Remembered): void {
    this.#seen.delete(key);
    this.#seen.set(key, value);
    while (this.#seen.size > this.#cacheSize) {
      const oldest = this.#seen.keys().next().value;
      if (oldest === undefined) break;
      this.#seen.delete(oldest);
    }
  }
}
