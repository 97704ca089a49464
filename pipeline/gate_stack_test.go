//go:build !race

package pipeline

import (
	"context"
	"fmt"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"strings"
	"testing"
	"time"

	"github.com/miniapp/bundle/internal/oneshot"
)

// TestWaitingLoadStack: a load waiting at the gate holds a 16 KB stack. esbuild's parseFile has
// a 10.6 KB frame, so 16 KB is close to full, and anything that grows the frames below a
// waiting load (a fatter gate callback, an esbuild upgrade, profile-guided optimisation) makes
// it 32 KB and doubles what a barrel of thousands of modules holds at the peak (bench/heavy:
// about 200 MB more). An app whose barrel re-exports 6,000 modules is built while the stack
// memory per goroutine is sampled when most of them wait. The race detector's frames are
// larger, hence the build constraint; scripts/test runs this test without it.
func TestWaitingLoadStack(t *testing.T) {
	dir := t.TempDir()
	var barrel, main strings.Builder
	for i := range 6000 {
		fmt.Fprintf(&barrel, "export { default as I%d } from './icons/i%d.js';\n", i, i)
		writeFile(t, filepath.Join(dir, "icons", fmt.Sprintf("i%d.js", i)), fmt.Sprintf("export default function I%d() { return %q; }\n", i, strings.Repeat("M0 0h24v24H0z", 1+i%7)))
	}
	writeFile(t, filepath.Join(dir, "icons.js"), barrel.String())
	main.WriteString("import { I1, I5999 } from './icons.js';\ndocument.body.textContent = I1() + I5999();\n")
	writeFile(t, filepath.Join(dir, "main.js"), main.String())
	writeFile(t, filepath.Join(dir, "miniapp.toml"), "id = \"barrel\"\nname = \"Barrel\"\ndescription = \"Six thousand modules behind one barrel.\"\nentry = \"main.js\"\n")

	sample := []metrics.Sample{{Name: "/memory/classes/heap/stacks:bytes"}}
	stop := make(chan struct{})
	type peak struct{ waiting, goroutines, stacks int }
	var best peak
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			select {
			case <-stop:
				return
			default:
			}
			loadGate.mu.Lock()
			waiting := len(loadGate.queue)
			loadGate.mu.Unlock()
			if waiting > best.waiting {
				metrics.Read(sample)
				best = peak{waiting, runtime.NumGoroutine(), int(sample[0].Value.Uint64())}
			}
			time.Sleep(100 * time.Microsecond)
		}
	}()
	// Under the collector bundle build runs with (off until the memory limit): a collection
	// during the build would hold freed stacks until it ends, and count them.
	// The gate's bound of a two-core machine on any machine: the loads let in are subtracted
	// below at parseStack each, and a thousand of them (eight cores) would hide a regression.
	defer func(limit int) { loadGate.limit = limit }(loadGate.limit)
	loadGate.limit = 256
	runtime.GC()
	restore := oneshot.Tune(oneshot.Floor)
	_, err := Build(context.Background(), dir, Options{NoWrite: true})
	restore()
	close(stop)
	<-done
	if err != nil {
		t.Fatal(err)
	}
	if best.waiting < 1000 {
		t.Fatalf("at most %d loads waited at the gate: the test no longer measures them", best.waiting)
	}
	// The loads let in hold parseStack each (growStack) or less: what is left is the
	// waiting loads' at least (with 16 KB each, 14-17 KB here; with 32 KB, 29 or more).
	per := (best.stacks - (best.goroutines-best.waiting)*parseStack) / best.waiting
	t.Logf("%d loads waiting, %d goroutines, %d MB of stacks: %.1f KB a waiting load at least", best.waiting, best.goroutines, best.stacks>>20, float64(per)/1024)
	if per > 23<<10 {
		t.Errorf("%.1f KB of stack a waiting load while %d loads wait at the gate: a waiting load no longer fits in 16 KB (see loadGate)", float64(per)/1024, best.waiting)
	}
}
