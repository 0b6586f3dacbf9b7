package main

// Send stamps: the first 8 bytes of a watched put's value are the nanoseconds since this
// process's stamp clock started (big-endian), so a watcher can tell how long the event took
// to arrive. The clock is monotonic; the rest of the value is padding.

import (
	"encoding/binary"
	"strings"
	"time"
)

const stampSize = 8

type stampClock struct{ base time.Time }

func newStampClock() *stampClock { return &stampClock{base: time.Now()} }

func (c *stampClock) now() time.Duration { return time.Since(c.base) }

// stamp returns a value of `size` bytes (≥ stampSize) carrying the current time.
func (c *stampClock) stamp(size int) string {
	var b [stampSize]byte
	binary.BigEndian.PutUint64(b[:], uint64(c.now()))
	return string(b[:]) + strings.Repeat("w", size-stampSize)
}

func (c *stampClock) parse(value []byte) (time.Duration, bool) {
	if len(value) < stampSize {
		return 0, false
	}
	return time.Duration(binary.BigEndian.Uint64(value[:stampSize])), true
}
