package main

// Connections: one clientv3.Client per connection, each pinned to a single endpoint
// (connection k → endpoint k mod n), so --conns really opens that many HTTP/2 connections and the
// caller decides how they spread over the members.

import (
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"os"

	"go.etcd.io/etcd/clientv3"
	"google.golang.org/grpc"
)

type conn struct {
	client *clientv3.Client
}

func openConns(c *commonFlags) ([]*conn, error) {
	eps := c.endpointList()
	tlsConfig, err := c.tlsConfig()
	if err != nil {
		return nil, err
	}
	conns := make([]*conn, 0, c.conns)
	for k := 0; k < c.conns; k++ {
		ep := eps[k%len(eps)]
		cli, err := clientv3.New(clientv3.Config{
			Endpoints:   []string{ep},
			DialTimeout: c.dialTimeout,
			TLS:         tlsConfig,
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

// tlsConfig is nil for plaintext; with --cacert, the servers are verified against it (and
// --cert/--key are presented when given), as etcd's benchmark tool does.
func (c *commonFlags) tlsConfig() (*tls.Config, error) {
	if c.cacert == "" {
		return nil, nil
	}
	pem, err := os.ReadFile(c.cacert)
	if err != nil {
		return nil, fmt.Errorf("reading --cacert: %w", err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(pem) {
		return nil, fmt.Errorf("--cacert %s holds no certificate", c.cacert)
	}
	cfg := &tls.Config{RootCAs: pool}
	if c.cert != "" {
		pair, err := tls.LoadX509KeyPair(c.cert, c.key)
		if err != nil {
			return nil, fmt.Errorf("loading --cert/--key: %w", err)
		}
		cfg.Certificates = []tls.Certificate{pair}
	}
	return cfg, nil
}
