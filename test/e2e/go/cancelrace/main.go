// Command cancelrace drives one etcd v3 endpoint with the Go clientv3 and calls that are cancelled
// right after they start: the frames of such a call reach the server as a HEADERS frame followed
// at once by RST_STREAM(CANCEL) on the same stream. It is a client for cancel-race.test.ts.
//
//	cancelrace --endpoint http://127.0.0.1:2379 [--cacert ca.crt --cert c.crt --key c.key] [--ops 400] [--workers 8]
//
// Phases (each --ops calls, spread over --workers goroutines):
//   - get-timeout, put-timeout: Get / Put with a context.WithTimeout of 100 µs;
//   - get-cancel, put-cancel: Get / Put with a context whose cancel() another goroutine calls at once;
//   - watch-cancel: clientv3 Watch opened on its own gRPC stream (distinct metadata) and cancelled at once;
//   - watch-deadline: a raw Watch stream with a 100 µs deadline (grpc-timeout on a bidi call);
//   - keepalive-cancel: a raw LeaseKeepAlive stream cancelled at once.
//
// Output: one JSON line on stdout, {"phases":{name:{"ok":n,"cancelled":n,"deadline":n,"other":n,
// "ms":n,"samples":[...]}}, "final":"ok"|error}. "final" is a plain Put then Get after the phases.
// Exit status 1 only when the client cannot be built or the final Put/Get fails.
package main

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"go.etcd.io/etcd/clientv3"
	pb "go.etcd.io/etcd/etcdserver/etcdserverpb"
	"go.uber.org/zap"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
)

type tally struct {
	mu        sync.Mutex
	OK        int      `json:"ok"`
	Cancelled int      `json:"cancelled"`
	Deadline  int      `json:"deadline"`
	Other     int      `json:"other"`
	Millis    int64    `json:"ms"`
	Samples   []string `json:"samples"`
}

func (t *tally) add(err error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	switch {
	case err == nil:
		t.OK++
	case errors.Is(err, context.Canceled) || status.Code(err) == codes.Canceled:
		t.Cancelled++
	case errors.Is(err, context.DeadlineExceeded) || status.Code(err) == codes.DeadlineExceeded:
		t.Deadline++
	default:
		t.Other++
		if len(t.Samples) < 5 {
			t.Samples = append(t.Samples, err.Error())
		}
	}
}

type phase struct {
	name string
	call func(cli *clientv3.Client, i int) error
}

const tiny = 100 * time.Microsecond

// cancelledAtOnce is a context whose cancel() another goroutine calls as soon as it is scheduled.
func cancelledAtOnce() context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	go cancel()
	return ctx
}

func key(i int) string { return "cancel-race/go/" + strconv.Itoa(i%64) }

var phases = []phase{
	{"get-timeout", func(cli *clientv3.Client, i int) error {
		ctx, cancel := context.WithTimeout(context.Background(), tiny)
		defer cancel()
		_, err := cli.Get(ctx, key(i))
		return err
	}},
	{"put-timeout", func(cli *clientv3.Client, i int) error {
		ctx, cancel := context.WithTimeout(context.Background(), tiny)
		defer cancel()
		_, err := cli.Put(ctx, key(i), "v")
		return err
	}},
	{"get-cancel", func(cli *clientv3.Client, i int) error {
		_, err := cli.Get(cancelledAtOnce(), key(i))
		return err
	}},
	{"put-cancel", func(cli *clientv3.Client, i int) error {
		_, err := cli.Put(cancelledAtOnce(), key(i), "v")
		return err
	}},
	{"watch-cancel", func(cli *clientv3.Client, i int) error {
		// Distinct metadata gives each Watch its own gRPC stream (clientv3 groups watchers by it).
		ctx, cancel := context.WithCancel(metadata.AppendToOutgoingContext(context.Background(), "race", strconv.Itoa(i)))
		ch := cli.Watch(ctx, key(i))
		cancel()
		for resp := range ch {
			if err := resp.Err(); err != nil {
				return err
			}
		}
		return context.Canceled
	}},
	{"watch-deadline", func(cli *clientv3.Client, i int) error {
		ctx, cancel := context.WithTimeout(context.Background(), tiny)
		defer cancel()
		stream, err := pb.NewWatchClient(cli.ActiveConnection()).Watch(ctx)
		if err != nil {
			return err
		}
		create := &pb.WatchCreateRequest{Key: []byte(key(i))}
		if err := stream.Send(&pb.WatchRequest{RequestUnion: &pb.WatchRequest_CreateRequest{CreateRequest: create}}); err != nil {
			return err
		}
		_, err = stream.Recv()
		return err
	}},
	{"keepalive-cancel", func(cli *clientv3.Client, i int) error {
		ctx := cancelledAtOnce()
		stream, err := pb.NewLeaseClient(cli.ActiveConnection()).LeaseKeepAlive(ctx)
		if err != nil {
			return err
		}
		_ = stream.Send(&pb.LeaseKeepAliveRequest{ID: int64(i + 1)})
		_, err = stream.Recv()
		return err
	}},
}

func tlsConfig(cacert, cert, keyFile string) (*tls.Config, error) {
	if cacert == "" {
		return nil, nil
	}
	pem, err := os.ReadFile(cacert)
	if err != nil {
		return nil, err
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(pem) {
		return nil, fmt.Errorf("%s holds no certificate", cacert)
	}
	cfg := &tls.Config{RootCAs: pool}
	if cert != "" {
		pair, err := tls.LoadX509KeyPair(cert, keyFile)
		if err != nil {
			return nil, err
		}
		cfg.Certificates = []tls.Certificate{pair}
	}
	return cfg, nil
}

func run(cli *clientv3.Client, p phase, ops, workers int) *tally {
	t := &tally{Samples: []string{}}
	start := time.Now()
	defer func() { t.Millis = time.Since(start).Milliseconds() }()
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := w; i < ops; i += workers {
				t.add(p.call(cli, i))
			}
		}(w)
	}
	wg.Wait()
	return t
}

// final is a plain Put then Get of the value just written, with a generous deadline.
func final(cli *clientv3.Client) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := cli.Put(ctx, "cancel-race/go/final", "done"); err != nil {
		return fmt.Errorf("put: %w", err)
	}
	res, err := cli.Get(ctx, "cancel-race/go/final")
	if err != nil {
		return fmt.Errorf("get: %w", err)
	}
	if len(res.Kvs) != 1 || string(res.Kvs[0].Value) != "done" {
		return fmt.Errorf("get: read back %v", res.Kvs)
	}
	return nil
}

func main() {
	endpoint := flag.String("endpoint", "", "client URL of the member")
	cacert := flag.String("cacert", "", "CA of the server certificate (TLS)")
	cert := flag.String("cert", "", "client certificate (TLS)")
	keyFile := flag.String("key", "", "client key (TLS)")
	ops := flag.Int("ops", 400, "calls per phase")
	workers := flag.Int("workers", 8, "goroutines per phase")
	only := flag.String("phases", "", "comma list of phases (default: all)")
	flag.Parse()

	cfg, err := tlsConfig(*cacert, *cert, *keyFile)
	if err != nil {
		fmt.Fprintln(os.Stderr, "tls:", err)
		os.Exit(1)
	}
	// The client logs every cancelled attempt at warn level; errors only.
	logConfig := zap.NewProductionConfig()
	logConfig.Level = zap.NewAtomicLevelAt(zap.ErrorLevel)
	cli, err := clientv3.New(clientv3.Config{Endpoints: []string{*endpoint}, DialTimeout: 5 * time.Second, TLS: cfg, LogConfig: &logConfig})
	if err != nil {
		fmt.Fprintln(os.Stderr, "connect:", err)
		os.Exit(1)
	}
	defer cli.Close()

	summary := struct {
		Phases map[string]*tally `json:"phases"`
		Final  string            `json:"final"`
	}{Phases: map[string]*tally{}}
	for _, p := range phases {
		if *only != "" && !strings.Contains(","+*only+",", ","+p.name+",") {
			continue
		}
		summary.Phases[p.name] = run(cli, p, *ops, *workers)
	}
	summary.Final = "ok"
	if err := final(cli); err != nil {
		summary.Final = err.Error()
	}
	out, _ := json.Marshal(summary)
	fmt.Println(string(out))
	if summary.Final != "ok" {
		os.Exit(1)
	}
}
