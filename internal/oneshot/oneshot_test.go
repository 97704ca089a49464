package oneshot

import (
	"math"
	"runtime"
	"runtime/debug"
	"testing"

	"github.com/miniapp/bundle/internal/testwait"
)

func TestNext(t *testing.T) {
	for _, r := range []struct{ limit, live, want int64 }{
		{512, 100, 512}, {512, 307, 512}, {512, 308, 616}, {512, 400, 800}, {1000, 900, 1800},
	} {
		if got := next(r.limit, r.live); got != r.want {
			t.Errorf("next(%d, %d) = %d, want %d", r.limit, r.live, got, r.want)
		}
	}
}

// TestTune: the collector is off under the floor; a collection that finds most of the limit
// live raises it; restore gives Go's defaults back.
func TestTune(t *testing.T) {
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	keep := make([][]byte, 0, 16)
	for range 16 {
		keep = append(keep, make([]byte, 1<<20)) // 16 MB live, over the floor
	}
	restore := Tune(8 << 20)
	if p := debug.SetGCPercent(-1); p != -1 {
		t.Errorf("GC percent %d under Tune, want -1 (off)", p)
	}
	testwait.For(func() bool {
		runtime.GC()
		return debug.SetMemoryLimit(-1) != 8<<20
	})
	if l := debug.SetMemoryLimit(-1); l < 32<<20 {
		t.Errorf("memory limit %d after a collection found 16 MB live, want at least twice that", l)
	}
	runtime.KeepAlive(keep)
	restore()
	if p := debug.SetGCPercent(-1); p != 100 {
		t.Errorf("GC percent %d after restore, want 100", p)
	}
	debug.SetGCPercent(100)
	if l := debug.SetMemoryLimit(-1); l != math.MaxInt64 {
		t.Errorf("memory limit %d after restore", l)
	}
}

func TestEnvironmentWins(t *testing.T) {
	t.Setenv("GOMEMLIMIT", "1GiB")
	before := debug.SetMemoryLimit(-1)
	restore := Tune(8 << 20)
	if l := debug.SetMemoryLimit(-1); l != before {
		t.Errorf("Tune changed the limit %d → %d though GOMEMLIMIT is set", before, l)
	}
	restore()
}
