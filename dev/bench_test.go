package dev

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/miniapp/bundle/internal/oneshot"
	"github.com/miniapp/bundle/scaffold"
)

// BenchmarkReload measures, in the harness in Chromium, the time from writing a change to the
// frame showing it, and reports the median: for a script edit, until the harness lists the
// edited tool's new description (the frame reloaded, its code ran, registered its tools and
// the harness listed them again); for a stylesheet edit, until bundle dev's client in the
// frame says it put the new text in place (no reload). The median build time the harness
// shows is the baseline beside it: what is not the build is serving and the browser. On the
// TypeScript template, and on testdata/charts (React 19, recharts, Tailwind CSS v4).
func BenchmarkReload(b *testing.B) {
	defer oneshot.Tune(oneshot.Floor)() // as bundle dev runs
	ts := func(b *testing.B) string {
		dir := filepath.Join(b.TempDir(), "counter")
		if _, err := scaffold.Write(dir, "ts", false); err != nil {
			b.Fatal(err)
		}
		return dir
	}
	for _, app := range []struct {
		name        string
		dir         func(*testing.B) string
		tools       int
		script, css string
		tool, desc  string
		from        string
	}{
		{"ts", ts, 2, "src/main.ts", "src/style.css", "get_count", "Read the current count.", ""},
		{"charts", func(b *testing.B) string { return chartsApp(b) }, 2, "src/App.tsx", "src/app.css", "get_sales", "Read the monthly sales.", ""},
	} {
		for _, kind := range []string{"script", "style"} {
			b.Run(app.name+"/"+kind, func(b *testing.B) {
				dir := app.dir(b)
				tab := harnessOn(b, dir)
				waitJS(b, tab, fmt.Sprintf(`document.querySelectorAll("#tools .tool").length === %d`, app.tools))
				file := filepath.Join(dir, filepath.FromSlash(app.script))
				if kind == "style" {
					file = filepath.Join(dir, filepath.FromSlash(app.css))
				}
				src, _ := os.ReadFile(file)
				var times, builds []time.Duration
				b.ResetTimer()
				for i := range b.N {
					var edited []byte
					var done string
					if kind == "script" {
						desc := fmt.Sprintf("%s (%d)", strings.TrimSuffix(app.desc, "."), i)
						edited = []byte(strings.Replace(string(src), app.desc, desc, 1))
						done = fmt.Sprintf(tool, app.tool) + `.querySelector(".desc").textContent === ` + strconv.Quote(desc)
					} else {
						edited = append(slices.Clone(src), fmt.Sprintf("\nh1 { letter-spacing: %dpx; }\n", i%50+1)...)
						done = `document.getElementById("status").dataset.styled === document.getElementById("status").dataset.version && document.getElementById("status").dataset.version !== ` + strconv.Quote(js(b, tab, `document.getElementById("status").dataset.version`))
					}
					start := time.Now()
					os.WriteFile(file, edited, 0o644)
					waitJS(b, tab, done)
					times = append(times, time.Since(start))
					ms, _ := strconv.Atoi(js(b, tab, `document.getElementById("status").textContent.match(/in (\d+) ms/)[1]`))
					builds = append(builds, time.Duration(ms)*time.Millisecond)
				}
				b.StopTimer()
				b.ReportMetric(median(times), "ms-median-save-to-frame")
				b.ReportMetric(median(builds), "ms-median-build")
			})
		}
	}
}

// BenchmarkStart measures the time from starting bundle dev to the harness's URL, and to the
// end of the first build (the harness showing the app's tools), on testdata/charts.
func BenchmarkStart(b *testing.B) {
	defer oneshot.Tune(oneshot.Floor)() // as bundle dev runs
	dir := chartsApp(b)
	var toURL, toBuild []time.Duration
	for range b.N {
		ctx, cancel := context.WithCancel(context.Background())
		ready := make(chan string, 1)
		done := make(chan error, 1)
		start := time.Now()
		go func() { done <- Run(ctx, dir, Options{Log: io.Discard, Ready: func(u string) { ready <- u }}) }()
		u := <-ready
		toURL = append(toURL, time.Since(start))
		if err := waitBuilt(u); err != nil {
			b.Fatal(err)
		}
		toBuild = append(toBuild, time.Since(start))
		cancel()
		<-done
	}
	b.ReportMetric(median(toURL), "ms-median-to-url")
	b.ReportMetric(median(toBuild), "ms-median-to-first-build")
}

func median(d []time.Duration) float64 {
	s := slices.Clone(d)
	slices.Sort(s)
	return float64(s[len(s)/2].Microseconds()) / 1000
}

// waitBuilt reads the event stream of the harness at u until the first build has ended.
func waitBuilt(u string) error {
	resp, err := http.Get(u + "events")
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		if d, ok := strings.CutPrefix(sc.Text(), "data: "); ok && !strings.Contains(d, `"building":true`) {
			if !strings.Contains(d, `"ok":true`) {
				return fmt.Errorf("the first build failed: %s", d)
			}
			return nil
		}
	}
	return fmt.Errorf("the event stream ended before the first build: %v", sc.Err())
}
