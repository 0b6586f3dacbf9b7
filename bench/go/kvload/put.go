package main

// put: each request writes a --val-size value under a key from the key picker (keys.go).

import (
	"context"
	"flag"
	"fmt"
	"math/rand"
	"strings"
)

type putCommand struct {
	keySize    int
	valSize    int
	keySpace   int64
	sequential bool
	keys       *keyPicker
}

func (p *putCommand) register(fs *flag.FlagSet) {
	fs.IntVar(&p.keySize, "key-size", 8, "key size in bytes")
	fs.IntVar(&p.valSize, "val-size", 8, "value size in bytes")
	fs.Int64Var(&p.keySpace, "key-space-size", 1, "distinct keys to write")
	fs.BoolVar(&p.sequential, "sequential-keys", false, "write keys in turn instead of at random")
}

func (p *putCommand) configure(args []string) error {
	if len(args) > 0 {
		return fmt.Errorf("put takes no arguments, got %q", args)
	}
	if p.valSize < 0 {
		return fmt.Errorf("--val-size must not be negative")
	}
	keys, err := newKeyPicker(p.keySize, p.keySpace, p.sequential)
	p.keys = keys
	return err
}

func (p *putCommand) run(c *commonFlags, conns []*conn, out *output) (*result, error) {
	value := strings.Repeat("v", p.valSize)
	rngs := clientRands(c.clients)
	out.event("ready")
	return runClosedLoop(c, conns, out, func(ctx context.Context, cn *conn, client int) error {
		_, err := cn.client.Put(ctx, p.keys.key(rngs[client]), value)
		return err
	}), nil
}

// clientRands gives each closed-loop client its own seeded source (runs are repeatable).
func clientRands(clients int) []*rand.Rand {
	rngs := make([]*rand.Rand, clients)
	for i := range rngs {
		rngs[i] = rand.New(rand.NewSource(int64(0x5eed + 7919*i)))
	}
	return rngs
}
