package main

// A tally is what one goroutine saw inside the window: successes (with their latencies),
// failures, and the first failure's text. Tallies are merged once the window has closed.

type tally struct {
	ok         uint64
	errors     uint64
	firstError string
	latency    histogram
}

func (t *tally) success(micros float64) {
	t.ok++
	t.latency.record(micros)
}

func (t *tally) failure(err error) {
	if t.errors == 0 && t.firstError == "" {
		t.firstError = err.Error()
	}
	t.errors++
}

func (t *tally) merge(o *tally) {
	t.ok += o.ok
	t.errors += o.errors
	if t.firstError == "" {
		t.firstError = o.firstError
	}
	t.latency.merge(&o.latency)
}
