// Command compare measures bundle build against Vite 8 with vite-plugin-singlefile on
// samples/order-book: median whole-process wall time of each over alternating runs, their
// ratio, both outputs' gzip sizes, and the peak RSS of bundle build. It is not run in CI.
//
//	(cd bench && npm ci) && go run ./bench/compare -runs 9
//
// For a fair comparison of sizes, the Vite build gets the same SDK script in its index.html
// and the same @miniapp/sdk/react module that bundle build injects and resolves.
package main

import (
	"bytes"
	"compress/gzip"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/miniapp/bundle/manifest"
	"github.com/miniapp/bundle/sdk"
)

func main() {
	runs := flag.Int("runs", 9, "builds of each tool")
	app := flag.String("app", "samples/order-book", "the app to build")
	flag.Parse()
	if err := run(*app, *runs); err != nil {
		fmt.Fprintln(os.Stderr, "compare:", err)
		os.Exit(1)
	}
}

func run(app string, runs int) error {
	root, _ := os.Getwd()
	bench := filepath.Join(root, "bench")
	viteBin := filepath.Join(bench, "node_modules", "vite", "bin", "vite.js")
	if _, err := os.Stat(viteBin); err != nil {
		return fmt.Errorf("vite is not installed: run (cd bench && npm ci)")
	}
	appDir, _ := filepath.Abs(app)
	if _, err := os.Stat(filepath.Join(appDir, "node_modules")); err != nil {
		return fmt.Errorf("%s has no node_modules: run npm ci there", app)
	}
	work, err := os.MkdirTemp("", "compare")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)

	bin := filepath.Join(work, "bundle")
	if out, err := exec.Command("go", "build", "-o", bin, "./cmd/bundle").CombinedOutput(); err != nil {
		return fmt.Errorf("go build: %v\n%s", err, out)
	}
	viteApp, err := prepareVite(appDir, work, bench)
	if err != nil {
		return err
	}

	bundleOut := filepath.Join(work, "out")
	bundleCmd := func() *exec.Cmd { return exec.Command(bin, "build", "--out", bundleOut, appDir) }
	viteCmd := func() *exec.Cmd {
		c := exec.Command("node", viteBin, "build", "--config", filepath.Join(viteApp, "vite.config.mjs"))
		c.Dir = viteApp
		return c
	}
	// One warm-up each, then alternate.
	for _, c := range []*exec.Cmd{bundleCmd(), viteCmd()} {
		if out, err := c.CombinedOutput(); err != nil {
			return fmt.Errorf("%s: %v\n%s", c.Args[0], err, out)
		}
	}
	var tb, tv []time.Duration
	var rss int64
	for i := 0; i < runs; i++ {
		d, r, err := timed(bundleCmd())
		if err != nil {
			return err
		}
		tb = append(tb, d)
		rss = max(rss, r)
		d, _, err = timed(viteCmd())
		if err != nil {
			return err
		}
		tv = append(tv, d)
	}
	m, err := manifest.Load(appDir)
	if err != nil {
		return err
	}
	ob, err := os.ReadFile(filepath.Join(bundleOut, m.ID+".html"))
	if err != nil {
		return err
	}
	ov, err := os.ReadFile(filepath.Join(viteApp, "dist-vite", "index.html"))
	if err != nil {
		return err
	}
	mb, mv := median(tb), median(tv)
	gb, gv := gz(ob), gz(ov)
	fmt.Printf("app: %s, %d alternating runs each\n", app, runs)
	fmt.Printf("bundle build: median %v, output %d bytes, %d gzip, peak RSS %.1f MB\n", mb.Round(time.Millisecond), len(ob), gb, float64(rss)/1024)
	fmt.Printf("vite build:   median %v, output %d bytes, %d gzip\n", mv.Round(time.Millisecond), len(ov), gv)
	fmt.Printf("speed: bundle is %.1fx faster; gzip: bundle is %+.2f%% of vite's\n", float64(mv)/float64(mb), 100*(float64(gb)/float64(gv)-1))
	return nil
}

// prepareVite copies the app for Vite, with the SDK in its index.html and a config that
// inlines everything with vite-plugin-singlefile.
func prepareVite(appDir, work, bench string) (string, error) {
	dst := filepath.Join(work, "vite-app")
	if out, err := exec.Command("cp", "-r", appDir, dst).CombinedOutput(); err != nil {
		return "", fmt.Errorf("copy: %v %s", err, out)
	}
	os.RemoveAll(filepath.Join(dst, "dist"))
	m, err := manifest.Load(appDir)
	if err != nil {
		return "", err
	}
	js, err := sdk.Script(sdk.Config{Name: m.Name, Version: m.Version, Hosts: m.Hosts, LinkDomains: m.LinkDomains, Auth: m.HasCapability("auth")})
	if err != nil {
		return "", err
	}
	page, err := os.ReadFile(filepath.Join(dst, "index.html"))
	if err != nil {
		return "", err
	}
	i := bytes.Index(bytes.ToLower(page), []byte("<meta charset"))
	j := i + bytes.IndexByte(page[i:], '>') + 1
	page = append(page[:j:j], append([]byte("<script>"+js+"</script>"), page[j:]...)...)
	if err := os.WriteFile(filepath.Join(dst, "index.html"), page, 0o644); err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(dst, "sdk-react.ts"), []byte(sdk.Module("@miniapp/sdk/react")), 0o644); err != nil {
		return "", err
	}
	config := fmt.Sprintf(`import { defineConfig } from %q;
import { viteSingleFile } from %q;
export default defineConfig({
  root: %q,
  logLevel: "error",
  plugins: [viteSingleFile()],
  resolve: { alias: { "@miniapp/sdk/react": %q } },
  build: { outDir: "dist-vite", emptyOutDir: true, reportCompressedSize: false },
});
`, filepath.Join(bench, "node_modules", "vite", "dist", "node", "index.js"),
		filepath.Join(bench, "node_modules", "vite-plugin-singlefile", "dist", "esm", "index.js"),
		dst, filepath.Join(dst, "sdk-react.ts"))
	if err := os.WriteFile(filepath.Join(dst, "vite.config.mjs"), []byte(config), 0o644); err != nil {
		return "", err
	}
	return dst, nil
}

func timed(c *exec.Cmd) (time.Duration, int64, error) {
	var out bytes.Buffer
	c.Stdout, c.Stderr = &out, &out
	start := time.Now()
	err := c.Run()
	d := time.Since(start)
	if err != nil {
		return 0, 0, fmt.Errorf("%s: %v\n%s", strings.Join(c.Args, " "), err, out.String())
	}
	var rss int64
	if ru, ok := c.ProcessState.SysUsage().(*syscall.Rusage); ok {
		rss = ru.Maxrss // KB on Linux
	}
	return d, rss, nil
}

func median(ds []time.Duration) time.Duration {
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2]
}

func gz(b []byte) int {
	var buf bytes.Buffer
	w, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	w.Write(b)
	w.Close()
	return buf.Len()
}
