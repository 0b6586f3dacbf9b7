package main

// The measurement window: warm-up (unmeasured), then either a fixed --duration or the time the
// first --total requests issued after the warm-up take to complete. The window announces its
// opening and closing on the output, so the caller can sample the servers over the same span,
// and takes the process's CPU time at both ends.
//
// Which requests count: with --duration, those that complete while the window is open; with
// --total, the first `total` issued after it opened (it closes when the last of them completes).

import (
	"sync"
	"sync/atomic"
	"time"
)

const (
	stateWarmup int32 = iota
	stateOpen
	stateClosed
)

type window struct {
	out      *output
	warmup   time.Duration
	duration time.Duration
	total    int64

	state     atomic.Int32
	issued    atomic.Int64
	completed atomic.Int64
	allDone   chan struct{}
	doneOnce  sync.Once

	start, end       time.Time
	cpuStart, cpuEnd time.Duration
}

func newWindow(c *commonFlags, out *output) *window {
	return &window{out: out, warmup: c.warmup, duration: c.duration, total: c.total, allDone: make(chan struct{})}
}

// run drives the window from warm-up to close; it returns once the window has closed.
func (w *window) run() {
	time.Sleep(w.warmup)
	w.cpuStart = processCPU()
	w.start = time.Now()
	w.state.Store(stateOpen)
	w.out.event("window-start")
	if w.total > 0 {
		<-w.allDone
	} else {
		time.Sleep(w.duration)
	}
	w.state.Store(stateClosed)
	w.end = time.Now()
	w.cpuEnd = processCPU()
	w.out.event("window-end")
}

func (w *window) closed() bool { return w.state.Load() == stateClosed }

func (w *window) open() bool { return w.state.Load() == stateOpen }

// beginRequest is called before a client issues a request: goOn false means stop issuing;
// counted is the --total admission of this request (always false with --duration).
func (w *window) beginRequest() (goOn bool, counted bool) {
	switch w.state.Load() {
	case stateClosed:
		return false, false
	case stateOpen:
		if w.total > 0 {
			if w.issued.Add(1) > w.total {
				return false, false
			}
			return true, true
		}
	}
	return true, false
}

// endRequest is called when a request completes; it says whether the request is measured.
func (w *window) endRequest(counted bool) bool {
	if w.total == 0 {
		return w.state.Load() == stateOpen
	}
	if counted && w.completed.Add(1) == w.total {
		w.doneOnce.Do(func() { close(w.allDone) })
	}
	return counted
}

// countEvent says whether an event arriving now is measured (watch: events, not requests).
func (w *window) countEvent() bool {
	if w.state.Load() != stateOpen {
		return false
	}
	if w.total == 0 {
		return true
	}
	n := w.issued.Add(1)
	if n == w.total {
		w.doneOnce.Do(func() { close(w.allDone) })
	}
	return n <= w.total
}

func (w *window) length() time.Duration { return w.end.Sub(w.start) }

func (w *window) cpu() time.Duration { return w.cpuEnd - w.cpuStart }
