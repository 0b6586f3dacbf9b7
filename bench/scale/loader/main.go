// Command loader writes --total keys through the Go etcd client (clientv3): --clients
// goroutines over --conns connections, each putting the next key of the sequence
// (decimal, zero-padded to --key-size bytes) with a --val-size byte value, one Put per
// request. It prints one JSON line: total, failed, seconds, rate. Built and run by
// bench/scale (GOPATH mode, offline).
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"go.etcd.io/etcd/clientv3"
)

func main() {
	endpoint := flag.String("endpoint", "127.0.0.1:2379", "")
	total := flag.Int("total", 200000, "")
	clients := flag.Int("clients", 100, "")
	conns := flag.Int("conns", 10, "")
	keySize := flag.Int("key-size", 16, "")
	valSize := flag.Int("val-size", 256, "")
	flag.Parse()
	cs := make([]*clientv3.Client, *conns)
	for i := range cs {
		c, err := clientv3.New(clientv3.Config{Endpoints: []string{*endpoint}, DialTimeout: 5 * time.Second})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		cs[i] = c
	}
	val := make([]byte, *valSize)
	for i := range val {
		val[i] = byte('a' + i%26)
	}
	var next int64 = -1
	var failed int64
	start := time.Now()
	var wg sync.WaitGroup
	for w := 0; w < *clients; w++ {
		wg.Add(1)
		go func(c *clientv3.Client) {
			defer wg.Done()
			for {
				n := atomic.AddInt64(&next, 1)
				if n >= int64(*total) {
					return
				}
				key := fmt.Sprintf("%0*d", *keySize, n)
				ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
				_, err := c.Put(ctx, key, string(val))
				cancel()
				if err != nil {
					atomic.AddInt64(&failed, 1)
				}
			}
		}(cs[w%len(cs)])
	}
	wg.Wait()
	el := time.Since(start).Seconds()
	fmt.Printf("{\"total\":%d,\"failed\":%d,\"seconds\":%.3f,\"rate\":%.1f}\n", *total, failed, el, float64(*total)/el)
	if failed > 0 {
		os.Exit(2)
	}
}
