package sdk_test

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/evanw/esbuild/pkg/api"
	"github.com/miniapp/bundle/pipeline/browsertest"
	"github.com/miniapp/bundle/sdk"
)

// TestPureParts runs testdata/unit.ts, the unit tests of the SDK's clamping, framing and
// validation, in Chromium.
func TestPureParts(t *testing.T) {
	dir, _ := filepath.Abs("testdata")
	res := api.Build(api.BuildOptions{EntryPoints: []string{filepath.Join(dir, "unit.ts")}, Bundle: true, Write: false,
		Format: api.FormatIIFE, Target: api.ES2020, LogLevel: api.LogLevelSilent, Outdir: "out"})
	if len(res.Errors) > 0 {
		t.Fatalf("bundle unit.ts: %v", res.Errors[0].Text)
	}
	b := browsertest.Start(t)
	u := b.Serve("/unit.html", []byte(`<!doctype html><meta charset="utf-8"><script>`+string(res.OutputFiles[0].Contents)+`</script>`))
	b.Visit(t, u, 200*time.Millisecond)
	raw := browsertest.Eval[string](t, b, `new Promise(r => { const w = () => window.results ? r(JSON.stringify(window.results)) : setTimeout(w, 20); w(); })`)
	var results []struct {
		Name   string
		OK     bool `json:"ok"`
		Detail string
	}
	if err := json.Unmarshal([]byte(raw), &results); err != nil {
		t.Fatal(err)
	}
	if len(results) < 40 {
		t.Errorf("only %d checks ran", len(results))
	}
	for _, r := range results {
		if !r.OK {
			t.Errorf("%s: failed %s", r.Name, r.Detail)
		}
	}
}

// TestScriptSize holds the SDK to its budget: at most 6 KB gzip added to a bundle.
func TestScriptSize(t *testing.T) {
	js, err := sdk.Script(sdk.Config{Name: "Order Book", Version: "1.0.0", Hosts: []string{"https://chat.example.com"}, LinkDomains: []string{"example.com"}, Auth: true})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	w, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	w.Write([]byte(js))
	w.Close()
	t.Logf("SDK: %d bytes, %d gzip", len(js), buf.Len())
	if buf.Len() > 6*1024 {
		t.Errorf("the SDK is %d bytes gzip, over its 6 KB budget", buf.Len())
	}
	if regexp.MustCompile(`postMessage\([^)]*["'\x60]\*["'\x60]`).MatchString(js) {
		t.Errorf("the compiled SDK calls postMessage with '*'")
	}
	if n := strings.Count(js, "postMessage("); n != 1 {
		t.Errorf("the compiled SDK has %d postMessage calls, want the one that names the pinned origin", n)
	}
	again, _ := sdk.Script(sdk.Config{Name: "Order Book", Version: "1.0.0", Hosts: []string{"https://chat.example.com"}, LinkDomains: []string{"example.com"}, Auth: true})
	if again != js {
		t.Error("Script is not deterministic")
	}
}
