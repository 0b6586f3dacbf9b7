package main

// Latency histogram with log-spaced buckets: bucket i holds latencies in [1.01^i, 1.01^(i+1))
// microseconds, so every quantile read from it is within 1 % of a recorded value. The bench's
// TypeScript side uses the same buckets (bench/load/histogram.ts), so it can merge and re-read
// them. Not safe for concurrent use: each goroutine records into its own, merged at the end.

import "math"

const (
	histGrowth  = 1.01
	histBuckets = 2200 // 1.01^2200 µs ≈ 52 min
)

var logGrowth = math.Log(histGrowth)

type histogram struct {
	counts [histBuckets]uint64
	n      uint64
	sumUs  float64
}

func (h *histogram) record(micros float64) {
	i := 0
	if micros > 1 {
		i = int(math.Log(micros) / logGrowth)
	}
	if i >= histBuckets {
		i = histBuckets - 1
	}
	h.counts[i]++
	h.n++
	h.sumUs += micros
}

func (h *histogram) merge(o *histogram) {
	for i := range h.counts {
		h.counts[i] += o.counts[i]
	}
	h.n += o.n
	h.sumUs += o.sumUs
}

// quantile returns the q-quantile (0 < q ≤ 1) in microseconds, the geometric middle of its
// bucket; 0 when empty.
func (h *histogram) quantile(q float64) float64 {
	if h.n == 0 {
		return 0
	}
	rank := uint64(math.Ceil(q * float64(h.n)))
	if rank < 1 {
		rank = 1
	}
	var seen uint64
	for i, c := range h.counts {
		seen += c
		if seen >= rank {
			return math.Pow(histGrowth, float64(i)+0.5)
		}
	}
	return math.Pow(histGrowth, histBuckets)
}

// sparse lists the non-empty buckets as [index, count] pairs.
func (h *histogram) sparse() [][2]uint64 {
	out := [][2]uint64{}
	for i, c := range h.counts {
		if c > 0 {
			out = append(out, [2]uint64{uint64(i), c})
		}
	}
	return out
}
