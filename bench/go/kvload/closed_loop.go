package main

// Closed-loop clients: each keeps exactly one request in flight, issuing the next as soon as the
// previous one completes (after a failure, following a 10 ms pause so a failing server is not
// hammered). Client i uses connection i mod conns. Every request carries --request-timeout, so a
// stuck server cannot keep the run from ending.

import (
	"context"
	"sync"
	"time"
)

// request issues one request for client `client` on connection `cn` and waits for its answer.
type request func(ctx context.Context, cn *conn, client int) error

func runClosedLoop(c *commonFlags, conns []*conn, out *output, issue request) *result {
	w := newWindow(c, out)
	tallies := make([]tally, c.clients)
	var wg sync.WaitGroup
	for i := 0; i < c.clients; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			cn := conns[i%len(conns)]
			t := &tallies[i]
			for {
				goOn, counted := w.beginRequest()
				if !goOn {
					return
				}
				ctx, cancel := context.WithTimeout(context.Background(), c.requestTimeout)
				t0 := time.Now()
				err := issue(ctx, cn, i)
				elapsed := time.Since(t0)
				cancel()
				if w.endRequest(counted) {
					if err != nil {
						t.failure(err)
					} else {
						t.success(float64(elapsed) / float64(time.Microsecond))
					}
				}
				if err != nil {
					time.Sleep(10 * time.Millisecond)
				}
			}
		}(i)
	}
	w.run()
	wg.Wait()
	var sum tally
	for i := range tallies {
		sum.merge(&tallies[i])
	}
	return newResult(c, &sum, w)
}
