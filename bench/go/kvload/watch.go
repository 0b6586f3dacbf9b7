package main

// watch: --streams watch streams (stream s on connection s mod conns), each carrying
// --watch-per-stream watchers; watcher i watches key i mod --key-space-size. Once every watcher
// is created, --clients put clients write those keys in turn at --put-rate puts/s in total, each
// value stamped with its send time (stamp.go). Every put reaches the watchers of its key, so the
// offered event rate is put-rate × watchers / key-space-size.
//
// Measured: events delivered inside the window (count, throughput) and each event's delivery
// latency, from the put's send to the event's arrival (so it includes the put's commit). The
// puts themselves are reported as puts / putErrors.

import (
	"context"
	"flag"
	"fmt"
	"sync"
	"time"

	"go.etcd.io/etcd/clientv3"
)

type watchCommand struct {
	streams   int
	perStream int
	keySize   int
	valSize   int
	keySpace  int64
	putRate   float64
	keys      *keyPicker
}

const createTimeout = 2 * time.Minute

func (wc *watchCommand) register(fs *flag.FlagSet) {
	fs.IntVar(&wc.streams, "streams", 10, "watch streams")
	fs.IntVar(&wc.perStream, "watch-per-stream", 100, "watchers per stream")
	fs.IntVar(&wc.keySize, "key-size", 8, "key size in bytes")
	fs.IntVar(&wc.valSize, "val-size", stampSize, "value size in bytes (at least the 8-byte send stamp)")
	fs.Int64Var(&wc.keySpace, "key-space-size", 1, "distinct watched keys")
	fs.Float64Var(&wc.putRate, "put-rate", 100, "puts per second, over all put clients")
}

func (wc *watchCommand) configure(args []string) error {
	switch {
	case len(args) > 0:
		return fmt.Errorf("watch takes no arguments, got %q", args)
	case wc.streams < 1 || wc.perStream < 1:
		return fmt.Errorf("--streams and --watch-per-stream must be ≥ 1")
	case wc.valSize < stampSize:
		return fmt.Errorf("--val-size must be at least %d (the send stamp)", stampSize)
	case wc.putRate <= 0:
		return fmt.Errorf("--put-rate must be > 0")
	}
	keys, err := newKeyPicker(wc.keySize, wc.keySpace, true)
	wc.keys = keys
	return err
}

// streamTally is shared by the watchers of one stream.
type streamTally struct {
	mu sync.Mutex
	t  tally
}

func (wc *watchCommand) run(c *commonFlags, conns []*conn, out *output) (*result, error) {
	clock := newStampClock()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	w := newWindow(c, out)
	tallies := make([]streamTally, wc.streams)
	var watching sync.WaitGroup
	created := make(chan error, wc.streams*wc.perStream)
	for s := 0; s < wc.streams; s++ {
		watcher := clientv3.NewWatcher(conns[s%len(conns)].client)
		defer watcher.Close()
		for j := 0; j < wc.perStream; j++ {
			key := wc.keys.format(int64(s*wc.perStream+j) % wc.keySpace)
			ch := watcher.Watch(ctx, key, clientv3.WithCreatedNotify())
			watching.Add(1)
			go func(st *streamTally) {
				defer watching.Done()
				wc.receive(ctx, ch, st, w, clock, created)
			}(&tallies[s])
		}
	}
	if err := awaitCreated(created, wc.streams*wc.perStream); err != nil {
		return nil, err
	}
	out.event("ready")
	puts := wc.putLoad(c, conns, w, clock)
	w.run()
	putTally := puts()
	cancel()
	watching.Wait()
	var sum tally
	for i := range tallies {
		sum.merge(&tallies[i].t)
	}
	res := newResult(c, &sum, w)
	res.Puts, res.PutErrors = &putTally.ok, &putTally.errors
	if sum.firstError == "" && putTally.firstError != "" {
		res.FirstError = "put: " + putTally.firstError
	}
	return res, nil
}

// receive consumes one watcher's channel: the created notification first (reported on `created`),
// then events until ctx is cancelled.
func (wc *watchCommand) receive(ctx context.Context, ch clientv3.WatchChan, st *streamTally, w *window, clock *stampClock, created chan<- error) {
	first := true
	for resp := range ch {
		if first {
			first = false
			if !resp.Created || resp.Err() != nil {
				created <- fmt.Errorf("watch not created: %v", resp.Err())
				return
			}
			created <- nil
			continue
		}
		now := clock.now()
		st.mu.Lock()
		if err := resp.Err(); err != nil && w.countEvent() {
			st.t.failure(err)
		}
		for _, ev := range resp.Events {
			if !w.countEvent() {
				continue
			}
			sent, ok := clock.parse(ev.Kv.Value)
			if !ok {
				st.t.failure(fmt.Errorf("event on %q carries no send stamp", ev.Kv.Key))
				continue
			}
			st.t.success(float64(now-sent) / float64(time.Microsecond))
		}
		st.mu.Unlock()
	}
	if first {
		created <- fmt.Errorf("watch channel closed before creation")
	} else if ctx.Err() == nil {
		st.mu.Lock()
		if w.countEvent() {
			st.t.failure(fmt.Errorf("watch channel closed by the server"))
		}
		st.mu.Unlock()
	}
}

func awaitCreated(created <-chan error, n int) error {
	deadline := time.After(createTimeout)
	for i := 0; i < n; i++ {
		select {
		case err := <-created:
			if err != nil {
				return err
			}
		case <-deadline:
			return fmt.Errorf("only %d of %d watchers created within %v", i, n, createTimeout)
		}
	}
	return nil
}

// putLoad starts the paced put clients; the returned function waits for them to stop (after the
// window has closed) and returns their tally of the puts that completed while the window was open.
// Client p sends its k-th put at start + (k·clients + p) / put-rate; when it is more than a slot
// behind it drops the missed slots instead of catching up in a burst.
func (wc *watchCommand) putLoad(c *commonFlags, conns []*conn, w *window, clock *stampClock) func() tally {
	tallies := make([]tally, c.clients)
	var wg sync.WaitGroup
	start := time.Now()
	for p := 0; p < c.clients; p++ {
		wg.Add(1)
		go func(p int) {
			defer wg.Done()
			cn := conns[p%len(conns)]
			slot := func(k int) time.Time {
				return start.Add(time.Duration(float64(k*c.clients+p) / wc.putRate * float64(time.Second)))
			}
			for k := 0; !w.closed(); k++ {
				// A client that fell behind skips the slots it missed: the rate never exceeds --put-rate.
				for time.Since(slot(k+1)) > 0 {
					k++
				}
				time.Sleep(time.Until(slot(k)))
				if w.closed() {
					return
				}
				ctx, cancel := context.WithTimeout(context.Background(), c.requestTimeout)
				_, err := cn.client.Put(ctx, wc.keys.key(nil), clock.stamp(wc.valSize))
				cancel()
				if w.open() {
					if err != nil {
						tallies[p].failure(err)
					} else {
						tallies[p].ok++
					}
				}
			}
		}(p)
	}
	return func() tally {
		wg.Wait()
		var sum tally
		for i := range tallies {
			sum.merge(&tallies[i])
		}
		return sum
	}
}
