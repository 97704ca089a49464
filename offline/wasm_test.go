package offline

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// The WebAssembly build of the check (cmd/bundle-check-wasm, built by scripts/build-wasm) run
// under Node through check.mjs, against the native check, on the checker's own tables.

var wasmAll = flag.Bool("wasm-all", false, "TestWasmSameVerdicts: run every page through the command module too, not every fourth of the tables")

var (
	wasmOnce sync.Once
	wasmDir  string
	wasmErr  error
)

// buildWasm builds the WebAssembly checker once per test binary with the repository's script
// (its fixed flags), into a folder the process removes when it ends.
func buildWasm(tb testing.TB) string {
	tb.Helper()
	wasmOnce.Do(func() {
		dir, err := os.MkdirTemp("", "bundle-wasm-")
		if err != nil {
			wasmErr = err
			return
		}
		out, err := exec.Command("../scripts/build-wasm", dir).CombinedOutput()
		if err != nil {
			wasmErr = fmt.Errorf("scripts/build-wasm: %v\n%s", err, out)
			return
		}
		wasmDir = dir
	})
	if wasmErr != nil {
		tb.Fatal(wasmErr)
	}
	return wasmDir
}

func TestMain(m *testing.M) {
	code := m.Run()
	if wasmDir != "" {
		os.RemoveAll(wasmDir)
	}
	os.Exit(code)
}

type wasmCase struct {
	Options Request `json:"options"`
	Page    string  `json:"page"` // base64
}

type wasmResult struct {
	Code   int    `json:"code"`
	Stdout string `json:"stdout"`
	Error  string `json:"error"`
}

// The two modules scripts/build-wasm builds.
const (
	wasmCommand = "bundle-check.wasm"         // options and page on standard input
	wasmReactor = "bundle-check-reactor.wasm" // started once, called per page
)

// runWasm runs cases through check.mjs and the module named module, in one Node process.
func runWasm(t testing.TB, module string, cases []wasmCase, env ...string) []byte {
	dir := buildWasm(t)
	tmp := t.TempDir()
	in, out := filepath.Join(tmp, "cases.json"), filepath.Join(tmp, "out.json")
	b, _ := json.Marshal(cases)
	if err := os.WriteFile(in, b, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("node", "--no-warnings", "testdata/wasm/run.mjs", filepath.Join(dir, "check.mjs"), filepath.Join(dir, module), in, out)
	cmd.Env = append(os.Environ(), env...)
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("node: %v\n%s", err, msg)
	}
	res, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// nativeReport is what bundle check --format json prints for the case, and its exit code.
func nativeReport(t testing.TB, q Request, page []byte) ([]byte, int) {
	fs, err := Check(q.FileName(), page, q.Options())
	if err != nil {
		t.Fatal(err)
	}
	var r Report
	r.Add(q.FileName(), fs)
	var b bytes.Buffer
	r.Encode(&b)
	if len(fs) > 0 {
		return b.Bytes(), 1
	}
	return b.Bytes(), 0
}

// TestWasmSameVerdicts runs every page of the checker's tables (refuse, pass, tree, policy and
// single-file rows, each as bundle check and as bundle check --single-file), the model pages
// and arbitrary bytes through the WebAssembly build under Node, and compares each report with
// the native one byte for byte, through both modules. It takes about a minute of CPU (the two
// builds, and the command's fresh instance per page): it is the only test of that build.
func TestWasmSameVerdicts(t *testing.T) {
	var cases []wasmCase
	add := func(q Request, page []byte) {
		cases = append(cases, wasmCase{Options: q, Page: base64.StdEncoding.EncodeToString(page)})
	}
	var pages []string
	for _, r := range refuseRows {
		pages = append(pages, r.html)
	}
	for _, r := range passRows {
		pages = append(pages, r.html)
	}
	for _, r := range treeRows {
		pages = append(pages, r.html)
	}
	for _, p := range pages {
		add(Request{Name: "p.html"}, []byte(p))
		add(Request{Name: "p.html", SingleFile: true}, []byte(p))
	}
	for _, r := range policyRows {
		add(Request{Name: "p.html", Policy: builtPolicy}, []byte(r.html))
	}
	tables := len(cases)
	for _, r := range singleRows {
		add(Request{Name: "p.html", SingleFile: true, LinkDomains: r.opts.LinkDomains, AllowedDomains: r.opts.AllowedDomains,
			FileSizes: map[string]int64{"logo.png": 3000}}, []byte(r.html))
	}
	models, _ := filepath.Glob("testdata/model/*.html")
	for _, m := range models {
		b, err := os.ReadFile(m)
		if err != nil {
			t.Fatal(err)
		}
		add(Request{Name: filepath.Base(m), SingleFile: true}, b)
	}
	// Any bytes: table rows cut and spliced at random places, and random bytes.
	rng := rand.New(rand.NewPCG(29, 1))
	for i := 0; i < 60; i++ {
		a, b := pages[rng.IntN(len(pages))], pages[rng.IntN(len(pages))]
		p := a[:rng.IntN(len(a)+1)] + b[rng.IntN(len(b)+1):]
		add(Request{Name: "p.html", SingleFile: i%2 == 0}, []byte(p))
		raw := make([]byte, rng.IntN(512))
		for j := range raw {
			raw[j] = byte(rng.UintN(256))
		}
		add(Request{}, raw)
	}
	add(Request{}, nil)

	// The command starts an instance per page (about 100 ms on a busy machine): it runs every
	// fourth page of the tables, and every model page and arbitrary input, unless -wasm-all.
	var some []wasmCase
	for i, c := range cases {
		if *wasmAll || i%4 == 0 || i >= tables {
			some = append(some, c)
		}
	}
	for _, module := range []string{wasmReactor, wasmCommand} {
		cases := cases
		if module == wasmCommand {
			cases = some
		}
		var got []wasmResult
		if err := json.Unmarshal(runWasm(t, module, cases), &got); err != nil {
			t.Fatal(err)
		}
		if len(got) != len(cases) {
			t.Fatalf("%s: %d results for %d cases", module, len(got), len(cases))
		}
		for i, c := range cases {
			page, _ := base64.StdEncoding.DecodeString(c.Page)
			want, code := nativeReport(t, c.Options, page)
			if got[i].Code != code || got[i].Stdout != string(want) {
				t.Errorf("%s: case %d (%+v) %.120q: wasm exit %d %s\n%s\nnative exit %d\n%s", module, i, c.Options, page, got[i].Code, got[i].Error, got[i].Stdout, code, want)
			}
		}
	}
	t.Logf("the reports of the WebAssembly modules are the native ones, byte for byte: the reactor's of %d pages, the command's of %d", len(cases), len(some))
}

// TestWasmBadOptions: options that are not JSON are said, exit 2, through the wrapper, by
// either module.
func TestWasmBadOptions(t *testing.T) {
	dir := buildWasm(t)
	for _, module := range []string{wasmReactor, wasmCommand} {
		script := fmt.Sprintf(`import { check } from %q;
try { await check("<p>", { nope: 1 }, { wasm: %q }); console.log("no error"); } catch (e) { console.log(e.code, e.message); }`,
			filepath.Join(dir, "check.mjs"), filepath.Join(dir, module))
		out, err := exec.Command("node", "--no-warnings", "--input-type=module", "-e", script).CombinedOutput()
		if err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		if !strings.HasPrefix(string(out), "2 bundle-check-wasm: the first line of standard input must be the options as JSON") || !strings.Contains(string(out), `unknown field "nope"`) {
			t.Errorf("%s: got %s", module, out)
		}
	}
}

// page100KB is a page of about 100 KB as a model writes one: a stylesheet, markup and an
// inline script, with URLs that are not loads.
func page100KB() []byte {
	var b bytes.Buffer
	b.WriteString("<!doctype html><html lang=en><head><meta charset=utf-8><title>Orders</title><style>")
	for i := 0; b.Len() < 25_000; i++ {
		fmt.Fprintf(&b, ".c%d{color:#%06x;padding:%dpx;background:url(data:image/png;base64,iVBORw0KGgo=)}\n", i, i*2654435761&0xffffff, i%17)
	}
	b.WriteString("</style></head><body><table>")
	for i := 0; b.Len() < 60_000; i++ {
		fmt.Fprintf(&b, `<tr class="c%d"><td><a href="#o%d" title="https://orders.example/%d">Order %d</a></td><td>%d.%02d</td></tr>`+"\n", i%400, i, i, i, i*7, i%100)
	}
	b.WriteString("</table><script>\n")
	for i := 0; b.Len() < 100_000; i++ {
		fmt.Fprintf(&b, "const u%d=\"https://api.example/v1/orders/%d\";function f%d(x){return x>%d?u%d:'<img src=https://x.example/%d.png>'}\n", i, i, i, i, i, i)
	}
	b.WriteString("</script></body></html>\n")
	return b.Bytes()
}

// BenchmarkWasmCheck100KB checks a 100 KB page natively (the timed loop) and, in the same run,
// with the native CLI (bundle check --single-file --format json -, a process per page) and
// through the WebAssembly modules under Node, as check.mjs runs them (the reactor started
// once and called per page; the command a fresh instance per page): the milliseconds per
// page of each and their ratios.
func BenchmarkWasmCheck100KB(b *testing.B) {
	page := page100KB()
	q := Request{Name: "p.html", SingleFile: true}
	b.SetBytes(int64(len(page)))
	t0 := time.Now()
	for i := 0; i < b.N; i++ {
		nativeReport(b, q, page)
	}
	native := time.Since(t0).Seconds() * 1000 / float64(b.N)
	b.StopTimer()
	n := max(5, min(b.N, 50))
	cli := filepath.Join(b.TempDir(), "bundle")
	if out, err := exec.Command("go", "build", "-o", cli, "../cmd/bundle").CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	t1 := time.Now()
	for i := 0; i < n; i++ {
		cmd := exec.Command(cli, "check", "--single-file", "--format", "json", "-")
		cmd.Stdin = bytes.NewReader(page)
		if out, err := cmd.Output(); err != nil || !bytes.Contains(out, []byte(`"clean": true`)) {
			b.Fatalf("bundle check: %v\n%s", err, out)
		}
	}
	cliMS := time.Since(t1).Seconds() * 1000 / float64(n)
	wasmMS := map[string]float64{}
	for _, module := range []string{wasmReactor, wasmCommand} {
		var r struct {
			MS float64 `json:"ms_per_check"`
		}
		if err := json.Unmarshal(runWasm(b, module, []wasmCase{{Options: q, Page: base64.StdEncoding.EncodeToString(page)}}, fmt.Sprintf("BENCH=%d", n)), &r); err != nil {
			b.Fatal(err)
		}
		wasmMS[module] = r.MS
	}
	b.ReportMetric(native, "native-ms/page")
	b.ReportMetric(cliMS, "cli-ms/page")
	b.ReportMetric(wasmMS[wasmReactor], "reactor-ms/page")
	b.ReportMetric(wasmMS[wasmCommand], "command-ms/page")
	b.ReportMetric(wasmMS[wasmReactor]/native, "reactor/native")
	b.ReportMetric(wasmMS[wasmReactor]/cliMS, "reactor/cli")
	b.ReportMetric(wasmMS[wasmCommand]/cliMS, "command/cli")
}
