package host_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/klauspost/compress/gzhttp"

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

// TestMain runs the baseline server of the benchmarks when asked to: the folder served with
// what a Go host writes without bundle, net/http's FileServer, gzip on the fly from
// klauspost's gzhttp, no write timeout.
func TestMain(m *testing.M) {
	if dir := os.Getenv("HOST_BENCH_BASELINE"); dir != "" {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			panic(err)
		}
		fmt.Printf("serving at http://%s/registry.json\n", ln.Addr())
		h, _ := gzhttp.NewWrapper(gzhttp.MinSize(0))
		http.Serve(ln, h(http.FileServer(http.Dir(dir))))
		return
	}
	os.Exit(m.Run())
}

// server runs a server of the folder out in its own process, bundle serve or (baseline) the
// FileServer of TestMain, and returns its base URL and process.
func server(b *testing.B, out string, baseline bool) (string, *os.Process) {
	b.Helper()
	var cmd *exec.Cmd
	if baseline {
		cmd = exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), "HOST_BENCH_BASELINE="+out)
	} else {
		exe := filepath.Join(b.TempDir(), "bundle")
		if msg, err := exec.Command("go", "build", "-o", exe, "../cmd/bundle").CombinedOutput(); err != nil {
			b.Fatalf("build bundle: %v\n%s", err, msg)
		}
		cmd = exec.Command(exe, "serve", "--addr", "127.0.0.1:0", out)
	}
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		b.Fatal(err)
	}
	return strings.TrimSuffix(strings.TrimSpace(line[strings.Index(line, "http://"):]), "/registry.json"), cmd.Process
}

// BenchmarkServe runs bundle serve in its own process and requests a 500 KB bundle from this
// one over loopback, 32 connections at once: revalidations answered 304, full responses, and
// full responses asking for gzip; the baseline is net/http's FileServer (gzhttp compressing
// as it goes) in a process of its own, on the same files. It reports requests per second and
// the 99th-percentile latency of each.
func BenchmarkServe(b *testing.B) {
	out := b.TempDir()
	entry := bigApp(b, out)
	for _, srv := range []string{"bundle", "fileserver"} {
		base, _ := server(b, out, srv == "fileserver")
		paths := map[string]string{"bundle": "/big/" + entry.SHA256 + ".html", "fileserver": "/" + entry.File}
		for _, mode := range []string{"304", "200", "200-gzip"} {
			b.Run(srv+"/"+mode, func(b *testing.B) {
				url := base + paths[srv]
				const conns = 32
				client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: conns, DisableCompression: true}}
				etag := ""
				if mode == "304" {
					req, _ := http.NewRequest(http.MethodGet, url, nil)
					resp, err := client.Do(req)
					if err != nil {
						b.Fatal(err)
					}
					io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
					etag = resp.Header.Get("Etag")
					if etag == "" {
						etag = resp.Header.Get("Last-Modified")
					}
				}
				var next atomic.Int64
				var bytes atomic.Int64
				lat := make([][]time.Duration, conns)
				var wg sync.WaitGroup
				b.ResetTimer()
				start := time.Now()
				for c := range conns {
					wg.Add(1)
					go func() {
						defer wg.Done()
						for next.Add(1) <= int64(b.N) {
							req, _ := http.NewRequest(http.MethodGet, url, nil)
							switch {
							case mode == "304" && strings.HasPrefix(etag, `"`):
								req.Header.Set("If-None-Match", etag)
							case mode == "304":
								req.Header.Set("If-Modified-Since", etag)
							case mode == "200-gzip":
								req.Header.Set("Accept-Encoding", "gzip")
							}
							t0 := time.Now()
							resp, err := client.Do(req)
							if err != nil {
								b.Error(err)
								return
							}
							n, _ := io.Copy(io.Discard, resp.Body)
							resp.Body.Close()
							bytes.Add(n)
							lat[c] = append(lat[c], time.Since(t0))
							gz := resp.Header.Get("Content-Encoding") == "gzip"
							if (mode == "304" && resp.StatusCode != 304) || (mode != "304" && resp.StatusCode != 200) || gz != (mode == "200-gzip") || (mode == "200" && n != int64(entry.Bytes)) {
								b.Errorf("status %d, %d bytes, Content-Encoding %q", resp.StatusCode, n, resp.Header.Get("Content-Encoding"))
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
					b.ReportMetric(float64(bytes.Load())/float64(len(all)), "bytes/resp")
				}
				b.ReportMetric(float64(b.N)/elapsed.Seconds(), "req/s")
			})
		}
	}
}

// rss returns the resident memory of a process, in bytes (Linux's /proc).
func rss(b *testing.B, p *os.Process) int64 {
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", p.Pid))
	if err != nil {
		b.Fatalf("read the server's memory: %v", err)
	}
	for _, l := range strings.Split(string(status), "\n") {
		if v, ok := strings.CutPrefix(l, "VmRSS:"); ok {
			var kb int64
			fmt.Sscanf(strings.TrimSpace(v), "%d", &kb)
			return kb << 10
		}
	}
	return 0
}

// sockets returns how many sockets a process has open (Linux's /proc).
func sockets(b *testing.B, p *os.Process) int {
	fds, err := os.ReadDir(fmt.Sprintf("/proc/%d/fd", p.Pid))
	if err != nil {
		b.Fatalf("read the server's descriptors: %v", err)
	}
	n := 0
	for _, fd := range fds {
		if l, err := os.Readlink(fmt.Sprintf("/proc/%d/fd/%s", p.Pid, fd.Name())); err == nil && strings.HasPrefix(l, "socket:") {
			n++
		}
	}
	return n
}

// BenchmarkServeSlowReaders opens 200 connections to a server of a 6 MB bundle, each asking
// for the page with a 4 KB receive window and reading nothing, and reports the server's
// resident memory above what it was before (peak), how many of the connections it dropped
// and how long that took; the baseline (FileServer, no write timeout) is watched for as long
// (30 s at most). Run with -benchtime=1x.
func BenchmarkServeSlowReaders(b *testing.B) {
	out := b.TempDir()
	e := bigPage(b, out, 6<<20)
	for _, srv := range []string{"bundle", "fileserver"} {
		base, proc := server(b, out, srv == "fileserver")
		path := map[string]string{"bundle": "/big/" + e.SHA256 + ".html", "fileserver": "/" + e.File}[srv]
		addr := strings.TrimPrefix(base, "http://")
		b.Run(srv, func(b *testing.B) {
			for range b.N {
				before, idle := rss(b, proc), sockets(b, proc)
				dialer := net.Dialer{Control: func(_, _ string, c syscall.RawConn) error {
					return c.Control(func(fd uintptr) { syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 4096) })
				}}
				var conns []net.Conn
				start := time.Now()
				for range 200 {
					c, err := dialer.Dial("tcp", addr)
					if err != nil {
						b.Fatal(err)
					}
					conns = append(conns, c)
					fmt.Fprintf(c, "GET %s HTTP/1.1\r\nHost: x\r\n\r\n", path)
				}
				var peak int64
				open := 0
				for end := start.Add(30 * time.Second); time.Now().Before(end); time.Sleep(100 * time.Millisecond) {
					peak = max(peak, rss(b, proc)-before)
					if open = sockets(b, proc) - idle; open <= 0 && time.Since(start) > time.Second {
						break
					}
				}
				b.ReportMetric(float64(peak)/(1<<20), "peak-MB-over-idle")
				b.ReportMetric(float64(len(conns)-max(open, 0)), "dropped")
				b.ReportMetric(time.Since(start).Seconds(), "s-watched")
				for _, c := range conns {
					c.Close()
				}
			}
		})
	}
}
