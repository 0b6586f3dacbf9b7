// Command kvload is the bench's load generator: closed-loop etcd v3 clients over the Go clientv3,
// with flags shaped like etcd's own `benchmark` tool.
//
//	kvload [common flags] put      [--key-size 8] [--val-size 8] [--key-space-size 1] [--sequential-keys]
//	kvload [common flags] range    <key> [<end>] [--consistency l|s]
//	kvload [common flags] txn-put  [--key-size 8] [--val-size 8] [--key-space-size 1] [--txn-ops 1]
//	kvload [common flags] watch    [--streams 10] [--watch-per-stream 100] [--key-space-size 1] [--put-rate 100] [--put-clients 10]
//
// Common flags (accepted before or after the subcommand): --endpoints, --conns, --clients,
// --total or --duration, --warmup, --dial-timeout, --request-timeout.
//
// Output: JSON lines on stdout (see output.go): "ready", "window-start", "window-end", then one
// "result" line; a fatal error is an "error" line and exit status 1. Nothing else goes to stdout.
package main

import (
	"fmt"
	"os"
)

func main() {
	out := newOutput(os.Stdout)
	if err := run(os.Args[1:], out); err != nil {
		out.fail(err)
		os.Exit(1)
	}
}

func run(args []string, out *output) error {
	common := newCommonFlags()
	root := newFlagSet("kvload")
	common.register(root)
	if err := root.Parse(args); err != nil {
		return err
	}
	rest := root.Args()
	if len(rest) == 0 {
		return fmt.Errorf("missing subcommand (put, range, txn-put, watch)")
	}
	sub, subArgs := rest[0], rest[1:]
	var load loadCommand
	switch sub {
	case "put":
		load = &putCommand{}
	case "range":
		load = &rangeCommand{}
	case "txn-put":
		load = &txnPutCommand{}
	case "watch":
		load = &watchCommand{}
	default:
		return fmt.Errorf("unknown subcommand %q (put, range, txn-put, watch)", sub)
	}
	fs := newFlagSet("kvload " + sub)
	common.register(fs)
	load.register(fs)
	positional, err := parseInterspersed(fs, subArgs)
	if err != nil {
		return err
	}
	if err := common.validate(); err != nil {
		return err
	}
	if err := load.configure(positional); err != nil {
		return err
	}
	conns, err := openConns(common)
	if err != nil {
		return err
	}
	defer closeConns(conns)
	res, err := load.run(common, conns, out)
	if err != nil {
		return err
	}
	res.Kind = sub
	out.result(res)
	return nil
}
