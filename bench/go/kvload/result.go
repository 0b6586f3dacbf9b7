package main

// The "result" line: what was measured inside the window.
//
// count/errors: requests (watch: events delivered) that completed inside the window, without /
// with an error. durationSeconds: the window's length. latencyMicros: quantiles of the successful
// ones (watch: delivery latency, from the moment the put was sent to the event's arrival).
// histogram: the non-empty buckets ([index, count]; bucket i covers [1.01^i, 1.01^(i+1)) µs).
// cpuMicros: user + system CPU of this process inside the window. puts / putErrors: watch only,
// the puts that fed the watchers during the window.

import "time"

type latencySummary struct {
	Mean float64 `json:"mean"`
	P50  float64 `json:"p50"`
	P90  float64 `json:"p90"`
	P99  float64 `json:"p99"`
	P999 float64 `json:"p999"`
}

type result struct {
	Event           string         `json:"event"`
	Kind            string         `json:"kind"`
	Count           uint64         `json:"count"`
	Errors          uint64         `json:"errors"`
	FirstError      string         `json:"firstError,omitempty"`
	DurationSeconds float64        `json:"durationSeconds"`
	Throughput      float64        `json:"throughput"`
	LatencyMicros   latencySummary `json:"latencyMicros"`
	Histogram       [][2]uint64    `json:"histogram"`
	CPUMicros       int64          `json:"cpuMicros"`
	Conns           int            `json:"conns"`
	Clients         int            `json:"clients"`
	Puts            *uint64        `json:"puts,omitempty"`
	PutErrors       *uint64        `json:"putErrors,omitempty"`
}

func newResult(c *commonFlags, t *tally, w *window) *result {
	d := w.length()
	r := &result{
		Count:           t.ok,
		Errors:          t.errors,
		FirstError:      t.firstError,
		DurationSeconds: d.Seconds(),
		Histogram:       t.latency.sparse(),
		CPUMicros:       int64(w.cpu() / time.Microsecond),
		Conns:           c.conns,
		Clients:         c.clients,
	}
	if d > 0 {
		r.Throughput = float64(t.ok) / d.Seconds()
	}
	if t.latency.n > 0 {
		r.LatencyMicros = latencySummary{
			Mean: t.latency.sumUs / float64(t.latency.n),
			P50:  t.latency.quantile(0.5),
			P90:  t.latency.quantile(0.9),
			P99:  t.latency.quantile(0.99),
			P999: t.latency.quantile(0.999),
		}
	}
	return r
}
