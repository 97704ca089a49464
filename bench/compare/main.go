// Command compare measures bundle build against esbuild's CLI alone on the same entries (the
// floor: what bundle adds around esbuild) and against Vite 8 with vite-plugin-singlefile, on
// each sample and on bench/heavy (Material UI with its icons, charts, a router, a web font):
// median whole-process wall time over interleaved runs (each run starting with the next tool,
// so that no tool always follows the same one), peak RSS, and gzip bytes of each. It is not
// run in CI.
//
//	(cd bench && npm ci) && (cd bench/heavy && npm ci) && go run ./bench/compare -runs 7
//
// For a fair comparison of sizes, the Vite build gets the same SDK script in its index.html
// and the same @miniapp/sdk/react module that bundle build injects and resolves.
package main

import (
	"bytes"
	"compress/gzip"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/miniapp/bundle/bench/internal/measure"
	"github.com/miniapp/bundle/manifest"
	"github.com/miniapp/bundle/pipeline"
	"github.com/miniapp/bundle/sdk"
)

func main() {
	runs := flag.Int("runs", 7, "builds of each tool")
	apps := flag.String("app", "samples/hello,samples/todo-ts,samples/order-book,bench/heavy", "the apps to build, comma-separated")
	flag.Parse()
	failed := false
	for _, app := range strings.Split(*apps, ",") {
		if err := run(app, *runs); err != nil {
			fmt.Fprintln(os.Stderr, "compare:", app+":", err)
			failed = true
		}
	}
	if failed {
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
	if _, err := os.Stat(filepath.Join(appDir, "package.json")); err == nil {
		if _, err := os.Stat(filepath.Join(appDir, "node_modules")); err != nil {
			return fmt.Errorf("%s has no node_modules: run npm ci there", app)
		}
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

	m, err := manifest.Load(appDir)
	if err != nil {
		return err
	}
	// The floor bundles what bundle build bundles with esbuild: the page's local module
	// scripts and stylesheets (hello's stylesheet inlines a web font), or the script entry.
	ents, err := pipeline.Entries(appDir)
	if err != nil {
		return err
	}
	if err := writeSDK(work); err != nil {
		return err
	}
	sdkModule := filepath.Join(work, "sdk.ts")
	esbuildBin := filepath.Join(bench, "node_modules", ".bin", "esbuild")
	esbuildCmd := func() *exec.Cmd {
		args := append(slices.Clone(ents), "--bundle", "--minify", "--format=esm", "--jsx=automatic", "--target=chrome111,edge111,firefox114,safari16.4",
			"--outdir="+filepath.Join(work, "esbuild-out"), "--log-level=error", "--alias:@miniapp/sdk/react="+filepath.Join(work, "sdk-react.ts"),
			"--alias:@miniapp/sdk="+sdkModule)
		for _, ext := range []string{".png", ".jpg", ".svg", ".gif", ".webp", ".woff", ".woff2", ".ttf"} {
			args = append(args, "--loader:"+ext+"=dataurl")
		}
		c := exec.Command(esbuildBin, args...)
		c.Dir = appDir
		// The SDK's modules, written outside the app, import react from the app's packages.
		c.Env = append(os.Environ(), "NODE_PATH="+filepath.Join(appDir, "node_modules"))
		return c
	}
	bundleOut := filepath.Join(work, "out")
	// bundle build as an author runs it: its size line, and so its gzip figure, included.
	bundleCmd := func() *exec.Cmd { return exec.Command(bin, "build", "--out", bundleOut, appDir) }
	viteCmd := func() *exec.Cmd {
		c := exec.Command("node", viteBin, "build", "--config", filepath.Join(viteApp, "vite.config.mjs"))
		c.Dir = viteApp
		return c
	}
	// One warm-up each, then interleave. Vite may not build an app that leans on what it
	// does not read (tsconfig paths): then it is left out of the table.
	viteOK := true
	for _, c := range []*exec.Cmd{bundleCmd(), esbuildCmd(), viteCmd()} {
		if out, err := c.CombinedOutput(); err != nil {
			if c.Args[0] == "node" {
				fmt.Printf("%s: vite build failed, left out: %s\n", app, strings.SplitN(string(out), "\n", 2)[0])
				viteOK = false
				continue
			}
			return fmt.Errorf("%s: %v\n%s", c.Args[0], err, out)
		}
	}
	var tb, te, tv []time.Duration
	var rssB, rssE, rssV int64
	tools := []struct {
		cmd func() *exec.Cmd
		t   *[]time.Duration
		rss *int64
	}{{bundleCmd, &tb, &rssB}, {esbuildCmd, &te, &rssE}, {viteCmd, &tv, &rssV}}
	if !viteOK {
		tools = tools[:2]
	}
	for i := 0; i < runs; i++ {
		// Each run starts with the next tool, so that none always follows the same one
		// (after Vite's half a gigabyte, or on files the one before just read).
		for j := range tools {
			tool := tools[(i+j)%len(tools)]
			c := tool.cmd()
			d, r, err := measure.Run(c)
			if err != nil {
				return fmt.Errorf("%s: %w", strings.Join(c.Args, " "), err)
			}
			*tool.t, *tool.rss = append(*tool.t, d), max(*tool.rss, r)
		}
	}
	ob, err := os.ReadFile(filepath.Join(bundleOut, m.ID+".html"))
	if err != nil {
		return err
	}
	me := measure.Median(te)
	var oe []byte
	filepath.WalkDir(filepath.Join(work, "esbuild-out"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			b, _ := os.ReadFile(p)
			oe = append(oe, b...)
		}
		return nil
	})
	mb := measure.Median(tb)
	fmt.Printf("\n%s, %d interleaved runs each (median wall, peak RSS, gzip bytes)\n", app, runs)
	fmt.Printf("  bundle build    %8v  %7.1f MB  %8d gzip  (%d bytes)\n", mb.Round(time.Millisecond), float64(rssB)/1024, gz(ob), len(ob))
	fmt.Printf("  esbuild CLI     %8v  %7.1f MB  %8d gzip  (scripts and CSS only: the floor)\n", me.Round(time.Millisecond), float64(rssE)/1024, gz(oe))
	fmt.Printf("  bundle / esbuild floor: %.2fx (%+dms)\n", float64(mb)/float64(me), (mb - me).Milliseconds())
	if viteOK {
		ov, err := os.ReadFile(filepath.Join(viteApp, "dist-vite", "index.html"))
		if err != nil {
			return err
		}
		mv := measure.Median(tv)
		fmt.Printf("  vite + singlefile %6v  %7.1f MB  %8d gzip\n", mv.Round(time.Millisecond), float64(rssV)/1024, gz(ov))
		fmt.Printf("  bundle is %.1fx faster than vite; peak RSS %.2f of vite's; gzip %+.1f%%\n", float64(mv)/float64(mb), float64(rssB)/float64(rssV), 100*(float64(gz(ob))/float64(gz(ov))-1))
	}
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
	if err := writeSDK(dst); err != nil {
		return "", err
	}
	config := fmt.Sprintf(`import { defineConfig } from %q;
import { viteSingleFile } from %q;
export default defineConfig({
  root: %q,
  logLevel: "error",
  plugins: [viteSingleFile()],
  resolve: { alias: { "@miniapp/sdk/react": %q, "@miniapp/sdk": %q } },
  build: { outDir: "dist-vite", emptyOutDir: true, reportCompressedSize: false },
});
`, filepath.Join(bench, "node_modules", "vite", "dist", "node", "index.js"),
		filepath.Join(bench, "node_modules", "vite-plugin-singlefile", "dist", "esm", "index.js"),
		dst, filepath.Join(dst, "sdk-react.ts"), filepath.Join(dst, "sdk.ts"))
	if err := os.WriteFile(filepath.Join(dst, "vite.config.mjs"), []byte(config), 0o644); err != nil {
		return "", err
	}
	return dst, nil
}

// writeSDK writes the modules @miniapp/sdk and @miniapp/sdk/react resolve to in a build
// (sdk.ts, sdk-react.ts) into dir, with the SDK's own modules they import.
func writeSDK(dir string) error {
	rel := regexp.MustCompile(`from\s*"\./([a-z-]+)"`)
	todo := map[string]string{"sdk.ts": "@miniapp/sdk", "sdk-react.ts": "@miniapp/sdk/react"}
	done := map[string]bool{}
	for len(todo) > 0 {
		for file, spec := range todo {
			delete(todo, file)
			if done[file] {
				continue
			}
			done[file] = true
			src := sdk.Module(spec)
			if spec == "@miniapp/sdk/react" {
				src = strings.ReplaceAll(src, `from "@miniapp/sdk"`, `from "./sdk"`)
			}
			if err := os.WriteFile(filepath.Join(dir, file), []byte(src), 0o644); err != nil {
				return err
			}
			for _, m := range rel.FindAllStringSubmatch(src, -1) {
				if m[1] != "sdk" && !done[m[1]+".ts"] {
					todo[m[1]+".ts"] = "./" + m[1]
				}
			}
		}
	}
	return nil
}

func gz(b []byte) int {
	var buf bytes.Buffer
	w, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	w.Write(b)
	w.Close()
	return buf.Len()
}
