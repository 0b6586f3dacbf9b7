package main

// The flags every subcommand accepts, named as etcd's benchmark tool names them where it has
// the same idea (--endpoints, --conns, --clients, --total), plus the measurement window.

import (
	"flag"
	"fmt"
	"io"
	"strings"
	"time"
)

// loadCommand is one subcommand: its own flags, its positional arguments, and the load itself.
type loadCommand interface {
	register(fs *flag.FlagSet)
	configure(args []string) error
	run(c *commonFlags, conns []*conn, out *output) (*result, error)
}

type commonFlags struct {
	endpoints      string
	conns          int
	clients        int
	total          int64
	duration       time.Duration
	warmup         time.Duration
	dialTimeout    time.Duration
	requestTimeout time.Duration
	cacert         string
	cert           string
	key            string
}

func newFlagSet(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return fs
}

func newCommonFlags() *commonFlags {
	return &commonFlags{
		endpoints:      "127.0.0.1:2379",
		conns:          1,
		clients:        1,
		dialTimeout:    10 * time.Second,
		requestTimeout: 10 * time.Second,
	}
}

// register binds the common flags into fs, each defaulting to its current value: binding the
// same fields into the root and then the subcommand flag set lets them appear on either side of
// the subcommand (the second registration keeps what the first parse set).
func (c *commonFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&c.endpoints, "endpoints", c.endpoints, "comma-separated host:port list; connection k uses endpoint k mod n")
	fs.IntVar(&c.conns, "conns", c.conns, "gRPC connections")
	fs.IntVar(&c.clients, "clients", c.clients, "closed-loop clients, dealt round-robin over the connections")
	fs.Int64Var(&c.total, "total", c.total, "measure this many requests (after the warm-up); 0: measure for --duration")
	fs.DurationVar(&c.duration, "duration", c.duration, "length of the measurement window (when --total is 0)")
	fs.DurationVar(&c.warmup, "warmup", c.warmup, "unmeasured load before the window")
	fs.DurationVar(&c.dialTimeout, "dial-timeout", c.dialTimeout, "time to connect")
	fs.DurationVar(&c.requestTimeout, "request-timeout", c.requestTimeout, "deadline of each request")
	fs.StringVar(&c.cacert, "cacert", c.cacert, "verify the servers with this CA bundle (TLS); empty: plaintext")
	fs.StringVar(&c.cert, "cert", c.cert, "client certificate (TLS, with --key)")
	fs.StringVar(&c.key, "key", c.key, "client key (TLS, with --cert)")
}

func (c *commonFlags) validate() error {
	switch {
	case c.endpointList() == nil:
		return fmt.Errorf("--endpoints is empty")
	case c.conns < 1:
		return fmt.Errorf("--conns must be ≥ 1")
	case c.clients < 1:
		return fmt.Errorf("--clients must be ≥ 1")
	case (c.total > 0) == (c.duration > 0):
		return fmt.Errorf("give exactly one of --total and --duration")
	case c.total < 0 || c.duration < 0 || c.warmup < 0:
		return fmt.Errorf("--total, --duration and --warmup must not be negative")
	case (c.cert == "") != (c.key == ""):
		return fmt.Errorf("give both --cert and --key, or neither")
	case c.cert != "" && c.cacert == "":
		return fmt.Errorf("--cert needs --cacert")
	}
	return nil
}

func (c *commonFlags) endpointList() []string {
	var eps []string
	for _, e := range strings.Split(c.endpoints, ",") {
		if e = strings.TrimSpace(e); e != "" {
			eps = append(eps, e)
		}
	}
	return eps
}

// parseInterspersed parses flags wherever they appear among the positional arguments (as etcd's
// benchmark tool accepts `range <key> --consistency s`); "--" ends the flags.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return positional, nil
		}
		if len(args) > 0 && len(rest) < len(args) && args[len(args)-len(rest)-1] == "--" {
			return append(positional, rest...), nil
		}
		positional = append(positional, rest[0])
		args = rest[1:]
	}
}
