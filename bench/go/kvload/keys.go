package main

// Keys of the put-like loads: the decimal key number, zero-padded to --key-size bytes.
// Key numbers are drawn uniformly from [0, key-space-size), or taken in turn when sequential.

import (
	"fmt"
	"math/rand"
	"strconv"
	"sync/atomic"
)

type keyPicker struct {
	size       int
	space      int64
	sequential bool
	next       atomic.Int64
}

func newKeyPicker(size int, space int64, sequential bool) (*keyPicker, error) {
	if space < 1 {
		return nil, fmt.Errorf("--key-space-size must be ≥ 1")
	}
	if digits := len(strconv.FormatInt(space-1, 10)); size < digits {
		return nil, fmt.Errorf("--key-size %d cannot hold %d distinct keys (needs %d)", size, space, digits)
	}
	return &keyPicker{size: size, space: space, sequential: sequential}, nil
}

// key returns the next key; `rng` is the caller's own source (rand.Rand is not goroutine-safe).
func (k *keyPicker) key(rng *rand.Rand) string {
	var n int64
	if k.sequential {
		n = (k.next.Add(1) - 1) % k.space
	} else {
		n = rng.Int63n(k.space)
	}
	return k.format(n)
}

func (k *keyPicker) format(n int64) string {
	return fmt.Sprintf("%0*d", k.size, n)
}
