package main

// The generator's only channel to its caller: one JSON object per line on stdout, written whole
// under a lock so lines from different goroutines never interleave.
//
//	{"event":"ready"}                      connections open (and watchers created); warm-up starts
//	{"event":"window-start"}               the measurement window opens
//	{"event":"window-end"}                 it closes
//	{"event":"result", ...result fields}   see result.go
//	{"event":"error","message":"..."}      fatal; the process exits with status 1

import (
	"encoding/json"
	"io"
	"sync"
)

type output struct {
	mu sync.Mutex
	w  io.Writer
}

func newOutput(w io.Writer) *output { return &output{w: w} }

func (o *output) line(v interface{}) {
	b, err := json.Marshal(v)
	if err != nil {
		b = []byte(`{"event":"error","message":"cannot encode output"}`)
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	_, _ = o.w.Write(append(b, '\n'))
}

type eventLine struct {
	Event   string `json:"event"`
	Message string `json:"message,omitempty"`
}

func (o *output) event(name string) { o.line(eventLine{Event: name}) }

func (o *output) fail(err error) { o.line(eventLine{Event: "error", Message: err.Error()}) }

func (o *output) result(r *result) {
	r.Event = "result"
	o.line(r)
}
