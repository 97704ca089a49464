package dev

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// BenchmarkReload measures, in the harness, the time from writing a one-line change to the
// reloaded frame's new handshake (ui/notifications/initialized), and reports the median.
func BenchmarkReload(b *testing.B) {
	dir, tab := harnessSession(b)
	waitJS(b, tab, `document.querySelectorAll("#tools .tool").length === 2`)
	main := filepath.Join(dir, "src", "main.ts")
	src, _ := os.ReadFile(main)
	var times []time.Duration
	b.ResetTimer()
	for i := range b.N {
		before := js(b, tab, `document.getElementById("status").dataset.handshakes`)
		start := time.Now()
		os.WriteFile(main, []byte(strings.Replace(string(src), "Read the current count.", fmt.Sprintf("Read the count (%d).", i), 1)), 0o644)
		waitJS(b, tab, `document.getElementById("status").dataset.handshakes !== "`+before+`"`)
		times = append(times, time.Since(start))
	}
	b.StopTimer()
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "ms-median-write-to-handshake")
}
