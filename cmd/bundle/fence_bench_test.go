package main

import (
	"flag"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// BenchmarkFence measures what the kernel's fence costs a build: bundle build of each sample
// and of bench/heavy (which needs (cd bench/heavy && npm ci)), as an author runs it, fenced
// and with BUNDLE_FENCE=off, b.N rounds, and in each round a third build, fenced again (the
// control), the arms interleaved (each round starts one arm further on).
//
//	go test ./cmd/bundle -run '^$' -bench Fence -benchtime 25x
//
// It reports, for the wall time and for the CPU time (user and system, the build's children
// included, which a machine busy with other work disturbs less): fenced-ms and unfenced-ms,
// the medians of the wall time; ratio, the ratio of the medians (cpu-ratio, of the CPU
// times); paired, one plus the median of each round's difference (fenced minus unfenced)
// over the unfenced median, which a load that comes and goes between rounds disturbs less
// (cpu-paired, of the CPU times); paired-lo and paired-hi (cpu-lo and cpu-hi), its 95%
// confidence interval by bootstrap over the rounds (2,000 resamples from a fixed seed: the
// same times give the same interval); and same-paired, same-lo and same-hi, the figure of
// the control against the fenced arm, two arms that differ in nothing: the benchmark's own
// spread in this run, what paired is read against.
//
// With -fence.same both arms are fenced. -fence.bin measures a binary built elsewhere (an
// older commit's), in place of this package's. -fence.base measures another binary (an
// older commit's) in the same rounds, its fenced and unfenced arms interleaved with these,
// and reports its figures as base-*: before and after a change, under the same load, and
// vs-base, vs-base-lo and vs-base-hi, the paired figure of this binary's fenced builds over
// the other's, round by round (vs-base-cpu and its interval, of the CPU times). Name
// one app as -bench's second part (-bench 'Fence/hello').
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
			on, off, same := &fenceArm{bin: bin, fenced: true}, &fenceArm{bin: bin}, &fenceArm{bin: bin, fenced: true}
			arms := []*fenceArm{on, off, same}
			var baseOn, baseOff *fenceArm
			if *fenceBase != "" {
				baseOn, baseOff = &fenceArm{bin: *fenceBase, fenced: true}, &fenceArm{bin: *fenceBase}
				arms = append(arms, baseOn, baseOff)
			}
			run := func(a *fenceArm) (time.Duration, time.Duration) {
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
			report := func(prefix string, on, off *fenceArm) {
				b.ReportMetric(float64(median(on.wall).Microseconds())/1000, prefix+"fenced-ms")
				b.ReportMetric(float64(median(off.wall).Microseconds())/1000, prefix+"unfenced-ms")
				b.ReportMetric(float64(median(on.wall))/float64(median(off.wall)), prefix+"ratio")
				b.ReportMetric(float64(median(on.cpu))/float64(median(off.cpu)), prefix+"cpu-ratio")
				p, lo, hi := pairedRatio(on.wall, off.wall)
				b.ReportMetric(p, prefix+"paired")
				b.ReportMetric(lo, prefix+"paired-lo")
				b.ReportMetric(hi, prefix+"paired-hi")
				p, lo, hi = pairedRatio(on.cpu, off.cpu)
				b.ReportMetric(p, prefix+"cpu-paired")
				b.ReportMetric(lo, prefix+"cpu-lo")
				b.ReportMetric(hi, prefix+"cpu-hi")
			}
			report("", on, off)
			p, lo, hi := pairedRatio(same.wall, on.wall)
			b.ReportMetric(p, "same-paired")
			b.ReportMetric(lo, "same-lo")
			b.ReportMetric(hi, "same-hi")
			if baseOn != nil {
				report("base-", baseOn, baseOff)
				// This binary fenced against the other fenced, round by round: what the
				// change did to a fenced build.
				p, lo, hi := pairedRatio(on.wall, baseOn.wall)
				b.ReportMetric(p, "vs-base")
				b.ReportMetric(lo, "vs-base-lo")
				b.ReportMetric(hi, "vs-base-hi")
				p, lo, hi = pairedRatio(on.cpu, baseOn.cpu)
				b.ReportMetric(p, "vs-base-cpu")
				b.ReportMetric(lo, "vs-base-cpu-lo")
				b.ReportMetric(hi, "vs-base-cpu-hi")
			}
		})
	}
}

// A fenceArm is one of BenchmarkFence's builds: its binary, whether it is fenced, and the
// times of each round.
type fenceArm struct {
	bin       string
	fenced    bool
	wall, cpu []time.Duration
}

// pairedRatio returns one plus the median of the rounds' differences (a[i] minus b[i]) over
// the median of b, and its 95% confidence interval by bootstrap: the rounds resampled with
// replacement 2,000 times, from a fixed seed, the 2.5th and 97.5th percentiles of the figure.
func pairedRatio(a, b []time.Duration) (ratio, lo, hi float64) {
	figure := func(idx []int) float64 {
		diffs := make([]time.Duration, len(idx))
		bs := make([]time.Duration, len(idx))
		for k, i := range idx {
			diffs[k], bs[k] = a[i]-b[i], b[i]
		}
		return 1 + float64(median(diffs))/float64(median(bs))
	}
	all := make([]int, len(a))
	for i := range all {
		all[i] = i
	}
	ratio = figure(all)
	const resamples = 2000
	rng := rand.New(rand.NewPCG(1, 2))
	figures := make([]float64, resamples)
	idx := make([]int, len(a))
	for r := range figures {
		for k := range idx {
			idx[k] = rng.IntN(len(a))
		}
		figures[r] = figure(idx)
	}
	slices.Sort(figures)
	return ratio, figures[resamples*25/1000], figures[resamples*975/1000-1]
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

// TestPairedRatio: BenchmarkFence's paired figure and its bootstrap interval, on times whose
// answer is known: no difference at all (the interval is the one figure), 2 ms every round
// (the figure is 1 + 2 ms over the median; the interval holds it, and moves only with the
// median it is divided by), and rounds that differ by up to 9 ms either way, whose interval
// is wide and holds 1.
func TestPairedRatio(t *testing.T) {
	ms := func(v ...float64) []time.Duration {
		out := make([]time.Duration, len(v))
		for i, x := range v {
			out[i] = time.Duration(x * float64(time.Millisecond))
		}
		return out
	}
	base := ms(20, 22, 21, 40, 19, 20, 23, 20, 21, 30, 20, 22)
	shifted := make([]time.Duration, len(base))
	for i, d := range base {
		shifted[i] = d + 2*time.Millisecond
	}
	for _, row := range []struct {
		name     string
		a, b     []time.Duration
		ratio    float64
		min, max float64 // bounds the interval must lie within
		holds    float64 // a figure the interval must hold (0: none)
	}{
		{name: "same", a: base, b: base, ratio: 1, min: 1, max: 1},
		{name: "shift_2ms", a: shifted, b: base, ratio: 1 + 2.0/21, min: 1 + 2.0/23, max: 1 + 2.0/20},
		// Differences -8 to +9 ms, median +3; the unfenced median 22 ms.
		{name: "noise", a: ms(20, 25, 18, 22, 30, 19, 21, 26, 17, 23, 20, 24), b: ms(22, 19, 24, 20, 21, 27, 18, 22, 25, 20, 23, 19),
			ratio: 1 + 3.0/22, min: 0.5, max: 1.5, holds: 1},
	} {
		t.Run(row.name, func(t *testing.T) {
			got, lo, hi := pairedRatio(row.a, row.b)
			if d := got - row.ratio; d > 1e-9 || d < -1e-9 {
				t.Errorf("paired = %.4f, want %.4f", got, row.ratio)
			}
			if lo > got || hi < got || lo < row.min-1e-9 || hi > row.max+1e-9 {
				t.Errorf("interval [%.4f, %.4f], want it inside [%.4f, %.4f] holding the figure %.4f", lo, hi, row.min, row.max, got)
			}
			if row.holds != 0 && (lo > row.holds || hi < row.holds) {
				t.Errorf("interval [%.4f, %.4f] does not hold %v: rounds that differ by ±9 ms say no cost apart from none", lo, hi, row.holds)
			}
			if a, b, c := pairedRatio(row.a, row.b); a != got || b != lo || c != hi {
				t.Errorf("a second call gave %v %v %v, want the same (a fixed seed)", a, b, c)
			}
		})
	}
}
