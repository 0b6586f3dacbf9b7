package main

// txn-put: each request is a transaction with no compare whose success branch puts --txn-ops
// keys (distinct within the transaction) with --val-size values.

import (
	"context"
	"flag"
	"fmt"
	"strings"

	"go.etcd.io/etcd/clientv3"
)

type txnPutCommand struct {
	put    putCommand
	txnOps int
}

func (t *txnPutCommand) register(fs *flag.FlagSet) {
	fs.IntVar(&t.put.keySize, "key-size", 8, "key size in bytes")
	fs.IntVar(&t.put.valSize, "val-size", 8, "value size in bytes")
	fs.Int64Var(&t.put.keySpace, "key-space-size", 1, "distinct keys to write")
	fs.IntVar(&t.txnOps, "txn-ops", 1, "puts per transaction")
}

func (t *txnPutCommand) configure(args []string) error {
	if t.txnOps < 1 {
		return fmt.Errorf("--txn-ops must be ≥ 1")
	}
	if int64(t.txnOps) > t.put.keySpace {
		return fmt.Errorf("--txn-ops %d exceeds --key-space-size %d (a transaction may not put a key twice)", t.txnOps, t.put.keySpace)
	}
	return t.put.configure(args)
}

func (t *txnPutCommand) run(c *commonFlags, conns []*conn, out *output) (*result, error) {
	value := strings.Repeat("v", t.put.valSize)
	rngs := clientRands(c.clients)
	out.event("ready")
	return runClosedLoop(c, conns, out, func(ctx context.Context, cn *conn, client int) error {
		ops := make([]clientv3.Op, 0, t.txnOps)
		first := rngs[client].Int63n(t.put.keySpace)
		for i := 0; i < t.txnOps; i++ {
			ops = append(ops, clientv3.OpPut(t.put.keys.format((first+int64(i))%t.put.keySpace), value))
		}
		_, err := cn.client.Txn(ctx).Then(ops...).Commit()
		return err
	}), nil
}
