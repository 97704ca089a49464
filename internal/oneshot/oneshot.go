// Package oneshot tunes Go's collector for a process that does one job and exits, as bundle
// build does, or one job again and again, as bundle dev's rebuilds of one app. As esbuild's
// own CLI does, the collector stays off while the process is small: nothing it frees would be
// used again before the exit (in bundle dev, a collection every few rebuilds frees as much as
// one every rebuild would). A memory limit brings it back when
// the process reaches Floor, so that a heavy build stays in bounds (bench/heavy, 12,000
// modules: 520 MB instead of 750); and when a collection finds most of that limit live, the
// limit rises to twice what is live, so that a build bigger still does not collect again
// and again for little.
package oneshot

import (
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync/atomic"
)

// Floor is the memory the process may hold before the collector first runs.
const Floor = 512 << 20

// Tune turns the collector off under a memory limit of floor bytes, which rises as next
// says after each collection, and returns the function that restores Go's defaults. GOGC or
// GOMEMLIMIT in the environment win: Tune then changes nothing.
func Tune(floor int64) (restore func()) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	debug.SetGCPercent(-1)
	debug.SetMemoryLimit(floor)
	var done atomic.Bool
	var watch func()
	watch = func() {
		sentinel := new([16]byte) // a finalizer needs an object of its own on the heap
		runtime.SetFinalizer(sentinel, func(*[16]byte) {
			if done.Load() {
				return
			}
			limit := debug.SetMemoryLimit(-1)
			if n := next(limit, live()); n != limit {
				debug.SetMemoryLimit(n)
			}
			watch()
		})
	}
	watch()
	return func() {
		done.Store(true)
		debug.SetGCPercent(100)
		debug.SetMemoryLimit(math.MaxInt64)
	}
}

// next returns the memory limit to set after a collection that left live bytes of a limit
// in use: the same limit while they are under 60% of it, else twice what is live.
func next(limit, live int64) int64 {
	if live*10 > limit*6 {
		return max(limit, 2*live)
	}
	return limit
}

// live returns the bytes the last collection found in use, heap and stacks.
func live() int64 {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}, {Name: "/memory/classes/heap/stacks:bytes"}}
	metrics.Read(s)
	var n int64
	for _, v := range s {
		if v.Value.Kind() == metrics.KindUint64 {
			n += int64(v.Value.Uint64())
		}
	}
	return n
}
