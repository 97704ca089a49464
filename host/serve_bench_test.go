package host_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/miniapp/bundle/pipeline"
	"github.com/miniapp/bundle/registry"
)

// bigApp builds an app of about 500 KB into out and returns its entry.
func bigApp(b *testing.B, out string) registry.Entry {
	b.Helper()
	dir := b.TempDir()
	rng := rand.New(rand.NewPCG(1, 2))
	var rows []string
	for i := 0; len(strings.Join(rows, ",")) < 545_000; i++ {
		rows = append(rows, fmt.Sprintf(`{"id":%d,"name":"item-%x","price":%d}`, i, rng.Uint64(), rng.IntN(100000)))
	}
	os.WriteFile(filepath.Join(dir, "data.json"), []byte("["+strings.Join(rows, ",")+"]"), 0o644)
	os.WriteFile(filepath.Join(dir, "main.ts"), []byte("import data from \"./data.json\";\ndocument.getElementById(\"root\")!.textContent = data.length + \" items\";\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "miniapp.toml"), []byte("id = \"big\"\nname = \"Big\"\ndescription = \"A 500 KB bundle.\"\nentry = \"main.ts\"\nmaxKB = 1024\nhosts = [\"https://chat.example.com\"]\n"), 0o644)
	res, err := pipeline.Build(context.Background(), dir, pipeline.Options{OutDir: out})
	if err != nil {
		b.Fatal(err)
	}
	if _, err := pipeline.WriteRegistry(out); err != nil {
		b.Fatal(err)
	}
	return res.Entry
}

// BenchmarkServe runs bundle serve in its own process and requests a 500 KB bundle from this
// one over loopback, 32 connections at once: revalidations answered 304, and full responses.
// It reports requests per second and the 99th-percentile latency.
func BenchmarkServe(b *testing.B) {
	out := b.TempDir()
	entry := bigApp(b, out)
	exe := filepath.Join(b.TempDir(), "bundle")
	if msg, err := exec.Command("go", "build", "-o", exe, "../cmd/bundle").CombinedOutput(); err != nil {
		b.Fatalf("build bundle: %v\n%s", err, msg)
	}
	cmd := exec.Command(exe, "serve", "--addr", "127.0.0.1:0", out)
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		b.Fatal(err)
	}
	base := strings.TrimSuffix(strings.TrimSpace(line[strings.Index(line, "http://"):]), "/registry.json")
	url := base + "/big/" + entry.SHA256 + ".html"
	for _, mode := range []string{"304", "200"} {
		b.Run(mode, func(b *testing.B) {
			const conns = 32
			client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: conns, DisableCompression: true}}
			var next atomic.Int64
			lat := make([][]time.Duration, conns)
			var wg sync.WaitGroup
			b.SetBytes(int64(entry.Bytes))
			if mode == "304" {
				b.SetBytes(0)
			}
			b.ResetTimer()
			start := time.Now()
			for c := range conns {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for next.Add(1) <= int64(b.N) {
						req, _ := http.NewRequest(http.MethodGet, url, nil)
						if mode == "304" {
							req.Header.Set("If-None-Match", `"`+entry.SHA256+`"`)
						}
						t0 := time.Now()
						resp, err := client.Do(req)
						if err != nil {
							b.Error(err)
							return
						}
						n, _ := io.Copy(io.Discard, resp.Body)
						resp.Body.Close()
						lat[c] = append(lat[c], time.Since(t0))
						if (mode == "304" && resp.StatusCode != 304) || (mode == "200" && (resp.StatusCode != 200 || n != int64(entry.Bytes))) {
							b.Errorf("status %d, %d bytes", resp.StatusCode, n)
							return
						}
					}
				}()
			}
			wg.Wait()
			elapsed := time.Since(start)
			b.StopTimer()
			all := slices.Concat(lat...)
			slices.Sort(all)
			if len(all) > 0 {
				b.ReportMetric(float64(all[len(all)*99/100].Microseconds())/1000, "p99-ms")
			}
			b.ReportMetric(float64(b.N)/elapsed.Seconds(), "req/s")
		})
	}
}
