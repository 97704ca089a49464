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
// elsewhere (an older commit's), in place of this package's. -fence.base measures another
// binary (an older commit's) in the same rounds, its two arms interleaved with these (each
// round starts one arm further on), and reports its figures as base-*: before and after a
// change, under the same load.
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
			type arm struct {
				bin       string
				fenced    bool
				wall, cpu []time.Duration
			}
			arms := []*arm{{bin: bin, fenced: true}, {bin: bin}}
			if *fenceBase != "" {
				arms = append(arms, &arm{bin: *fenceBase, fenced: true}, &arm{bin: *fenceBase})
			}
			run := func(a *arm) (time.Duration, time.Duration) {
				cmd := exec.Command(a.bin, "build", "--out", out, app)
				cmd.Env = os.Environ()
				if !a.fenced && !*fenceSame {
					cmd.Env = append(cmd.Env, "BUNDLE_FENCE=off")
				}
				start := time.Now()
				if msg, err := cmd.CombinedOutput(); err != nil {
					b.Fatalf("%s: %v\n%s", a.bin, err, msg)
				}
				return time.Since(start), cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
			}
			for _, a := range arms {
				run(a) // the page cache warm for every arm
			}
			b.ResetTimer()
			for i := range b.N {
				for k := range arms {
					a := arms[(i+k)%len(arms)]
					wall, cpu := run(a)
					a.wall, a.cpu = append(a.wall, wall), append(a.cpu, cpu)
				}
			}
			b.StopTimer()
			report := func(prefix string, on, off *arm) {
				mOn, mOff := median(on.wall), median(off.wall)
				b.ReportMetric(float64(mOn.Microseconds())/1000, prefix+"fenced-ms")
				b.ReportMetric(float64(mOff.Microseconds())/1000, prefix+"unfenced-ms")
				b.ReportMetric(float64(mOn)/float64(mOff), prefix+"ratio")
				b.ReportMetric(float64(median(on.cpu))/float64(median(off.cpu)), prefix+"cpu-ratio")
				// The median of each round's difference, over the unfenced median: the
				// arms of a round run one after the other, so a load that comes and
				// goes on the machine moves them all, which it does not do to the
				// medians.
				diffs := make([]time.Duration, len(on.wall))
				for i := range on.wall {
					diffs[i] = on.wall[i] - off.wall[i]
				}
				b.ReportMetric(1+float64(median(diffs))/float64(mOff), prefix+"paired-ratio")
			}
			report("", arms[0], arms[1])
			if len(arms) > 2 {
				report("base-", arms[2], arms[3])
			}
		})
	}
}

var (
	fenceSame = flag.Bool("fence.same", false, "BenchmarkFence: fence both arms, to measure the benchmark's own spread")
	fenceBin  = flag.String("fence.bin", "", "BenchmarkFence: the bundle binary to measure (default: build this package)")
	fenceBase = flag.String("fence.base", "", "BenchmarkFence: another bundle binary (an older commit's) to measure in the same rounds, reported as base-*")
)

func median(d []time.Duration) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[len(s)/2]
}
