/**
 * Narrow handles over prom-client metrics, so producers (raft loop, WAL, MVCC, lease) depend
 * on "a counter" rather than on prom-client or on a metric name.
 *
 * Contract: each factory registers on exactly the registry given — or on none when `name` is
 * null (the metric is kept, updatable and invisible; `role` names it internally). Fan-out
 * handles update several metrics at once (e.g. `mvcc_put_total` and its debugging twin).
 */
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';

export interface CounterHandle {
  inc(by?: number): void;
}

export interface GaugeHandle {
  set(value: number): void;
  inc(by?: number): void;
  dec(by?: number): void;
}

export interface HistogramHandle {
  observe(seconds: number): void;
  /** Starts a timer; calling the returned function observes the elapsed seconds and returns them. */
  startTimer(): () => number;
}

interface Spec {
  readonly registry: Registry;
  readonly role: string;
  readonly name: string | null;
  readonly help: string;
}

const common = (s: Spec) => ({
  name: s.name ?? `unexposed_${s.role}`,
  help: s.help,
  registers: s.name === null ? [] : [s.registry],
});

export function counter(s: Spec): Counter {
  return new Counter(common(s));
}

export function gauge(s: Spec): Gauge {
  return new Gauge(common(s));
}

export function labeledGauge<L extends string>(s: Spec, labelNames: readonly L[]): Gauge<L> {
  return new Gauge<L>({ ...common(s), labelNames });
}

export function histogram(s: Spec, buckets: readonly number[]): Histogram {
  return new Histogram({ ...common(s), buckets: [...buckets] });
}

/**
 * A counter for the request path: `inc` adds to a plain number, which reaches the prom-client
 * counter when the registry is read (its `collect`). `metric` is the counter to register.
 */
export function tallyCounter(s: Spec): { readonly metric: Counter; readonly handle: CounterHandle } {
  let pending = 0;
  const metric = new Counter({
    ...common(s),
    collect() {
      if (pending === 0) return;
      this.inc(pending);
      pending = 0;
    },
  });
  return {
    metric,
    handle: {
      inc(by = 1) {
        pending += by;
      },
    },
  };
}

/**
 * A gauge set on every applied batch: the handle records the value in a plain number, which
 * reaches the prom-client gauge when the registry is read. `metric` is the gauge to register.
 */
export function latestGauge(s: Spec): { readonly metric: Gauge; readonly handle: GaugeHandle } {
  let value = 0;
  let changed = false;
  const metric = new Gauge({
    ...common(s),
    collect() {
      if (!changed) return;
      this.set(value);
      changed = false;
    },
  });
  return {
    metric,
    handle: {
      set(v) {
        value = v;
        changed = true;
      },
      inc(by = 1) {
        value += by;
        changed = true;
      },
      dec(by = 1) {
        value -= by;
        changed = true;
      },
    },
  };
}

export function fanCounter(...targets: readonly CounterHandle[]): CounterHandle {
  return {
    inc(by = 1) {
      for (const t of targets) t.inc(by);
    },
  };
}

export function fanGauge(...targets: readonly Gauge[]): GaugeHandle {
  return {
    set(value) {
      for (const t of targets) t.set(value);
    },
    inc(by = 1) {
      for (const t of targets) t.inc(by);
    },
    dec(by = 1) {
      for (const t of targets) t.dec(by);
    },
  };
}

export function histogramHandle(h: Histogram): HistogramHandle {
  return {
    observe: (seconds) => h.observe(seconds),
    startTimer: () => h.startTimer(),
  };
}

/** `count` buckets starting at `start`, each `factor` times the previous (Prometheus' ExponentialBuckets). */
export function exponentialBuckets(start: number, factor: number, count: number): number[] {
  return Array.from({ length: count }, (_, i) => start * factor ** i);
}
