package main

// Connections: one clientv3.Client per connection, each pinned to a single endpoint
// (connection k → endpoint k mod n), so --conns really opens that many HTTP/2 connections and the
// caller decides how they spread over the members.

import (
	"fmt"

	"go.etcd.io/etcd/clientv3"
	"google.golang.org/grpc"
)

type conn struct {
	client *clientv3.Client
}

func openConns(c *commonFlags) ([]*conn, error) {
	eps := c.endpointList()
	conns := make([]*conn, 0, c.conns)
	for k := 0; k < c.conns; k++ {
		ep := eps[k%len(eps)]
		cli, err := clientv3.New(clientv3.Config{
			Endpoints:   []string{ep},
			DialTimeout: c.dialTimeout,
			DialOptions: []grpc.DialOption{grpc.WithBlock()},
		})
		if err != nil {
			closeConns(conns)
			return nil, fmt.Errorf("connecting to %s: %w", ep, err)
		}
		conns = append(conns, &conn{client: cli})
	}
	return conns, nil
}

func closeConns(conns []*conn) {
	for _, c := range conns {
		_ = c.client.Close()
	}
}
