package main

import (
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// BenchmarkFence measures what the kernel's fence costs a build: bundle build of each sample
// and of bench/heavy (which needs (cd bench/heavy && npm ci)), as an author runs it, fenced
// and with BUNDLE_FENCE=off, the two interleaved (each round starts with the other), b.N
// rounds. It reports the median wall time of each, in milliseconds, and their ratio; and the
// ratio of the median CPU times (user and system, the build's children included), which a
// machine busy with other work disturbs less; and the paired ratio, one plus the median of
// each round's difference (fenced minus unfenced) over the unfenced median, which a load
// that comes and goes between rounds disturbs less than the ratio of the medians.
//
//	go test ./cmd/bundle -run '^$' -bench Fence -benchtime 15x
//
// With -fence.same both arms are fenced: their ratio is the benchmark's own spread, the
// noise to read a fenced-vs-unfenced ratio against. -fence.bin measures a binary built
// elsewhere (an older commit's), in place of this package's.
func BenchmarkFence(b *testing.B) {
	bin := *fenceBin
	if bin == "" {
		bin = bundleBinary(b)
	}
	for _, app := range []string{"../../samples/hello", "../../samples/todo-ts", "../../samples/order-book", "../../bench/heavy"} {
		b.Run(filepath.Base(app), func(b *testing.B) {
			if _, err := os.Stat(filepath.Join(app, "package.json")); err == nil {
				if _, err := os.Stat(filepath.Join(app, "node_modules")); err != nil {
					b.Fatalf("%s needs its npm packages: (cd %s && npm ci)", app, app)
				}
			}
			out := b.TempDir()
			run := func(fenced bool) (time.Duration, time.Duration) {
				cmd := exec.Command(bin, "build", "--out", out, app)
				cmd.Env = os.Environ()
				if !fenced && !*fenceSame {
					cmd.Env = append(cmd.Env, "BUNDLE_FENCE=off")
				}
				start := time.Now()
				if msg, err := cmd.CombinedOutput(); err != nil {
					b.Fatalf("%v\n%s", err, msg)
				}
				return time.Since(start), cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
			}
			run(true) // the page cache warm for both
			var on, off, cpuOn, cpuOff []time.Duration
			measure := func(fenced bool) {
				wall, cpu := run(fenced)
				if fenced {
					on, cpuOn = append(on, wall), append(cpuOn, cpu)
				} else {
					off, cpuOff = append(off, wall), append(cpuOff, cpu)
				}
			}
			b.ResetTimer()
			for i := range b.N {
				measure(i%2 == 0)
				measure(i%2 != 0)
			}
			b.StopTimer()
			mOn, mOff := median(on), median(off)
			b.ReportMetric(float64(mOn.Microseconds())/1000, "fenced-ms")
			b.ReportMetric(float64(mOff.Microseconds())/1000, "unfenced-ms")
			b.ReportMetric(float64(mOn)/float64(mOff), "ratio")
			b.ReportMetric(float64(median(cpuOn))/float64(median(cpuOff)), "cpu-ratio")
			// The median of each round's difference, over the unfenced median: the two
			// builds of a round run one after the other, so a load that comes and goes
			// on the machine moves both, which it does not do to the two medians.
			diffs := make([]time.Duration, len(on))
			for i := range on {
				diffs[i] = on[i] - off[i]
			}
			b.ReportMetric(1+float64(median(diffs))/float64(mOff), "paired-ratio")
		})
	}
}

var (
	fenceSame = flag.Bool("fence.same", false, "BenchmarkFence: fence both arms, to measure the benchmark's own spread")
	fenceBin  = flag.String("fence.bin", "", "BenchmarkFence: the bundle binary to measure (default: build this package)")
)

func median(d []time.Duration) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[len(s)/2]
}
