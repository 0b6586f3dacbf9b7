package main

// range <key> [<end>]: each request reads the key (or [key, end)), linearizable
// (--consistency l, the default) or serializable (--consistency s).

import (
	"context"
	"flag"
	"fmt"

	"go.etcd.io/etcd/clientv3"
)

type rangeCommand struct {
	consistency string
	limit       int64
	opts        []clientv3.OpOption
	key         string
}

func (r *rangeCommand) register(fs *flag.FlagSet) {
	fs.StringVar(&r.consistency, "consistency", "l", "l: linearizable, s: serializable")
	fs.Int64Var(&r.limit, "limit", 0, "maximum keys per response (0: no limit)")
}

func (r *rangeCommand) configure(args []string) error {
	if len(args) < 1 || len(args) > 2 {
		return fmt.Errorf("range takes <key> [<end>], got %q", args)
	}
	r.key = args[0]
	if len(args) == 2 {
		r.opts = append(r.opts, clientv3.WithRange(args[1]))
	}
	switch r.consistency {
	case "l":
	case "s":
		r.opts = append(r.opts, clientv3.WithSerializable())
	default:
		return fmt.Errorf("--consistency must be l or s, got %q", r.consistency)
	}
	if r.limit > 0 {
		r.opts = append(r.opts, clientv3.WithLimit(r.limit))
	}
	return nil
}

func (r *rangeCommand) run(c *commonFlags, conns []*conn, out *output) (*result, error) {
	out.event("ready")
	return runClosedLoop(c, conns, out, func(ctx context.Context, cn *conn, _ int) error {
		_, err := cn.client.Get(ctx, r.key, r.opts...)
		return err
	}), nil
}
