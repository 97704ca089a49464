package localnames

import (
	"strings"
	"testing"
	"time"
)

// BenchmarkRename renames a 300 KB script as esbuild minifies it (generated programs, each in
// a function of its own) and reports, beside MB/s, its time over the time esbuild takes to
// minify the same script again in the same run (rename/minify): what the pass adds to the
// minification the build already pays for.
//
//	go test ./pipeline/internal/localnames -run '^$' -bench Rename -benchtime=20x
func BenchmarkRename(b *testing.B) {
	var src strings.Builder
	for seed := uint64(0); src.Len() < 300_000; seed++ {
		min, ok := minify(generate(seed))
		if !ok {
			b.Fatalf("esbuild cannot read program %d", seed)
		}
		src.WriteString("(() => {\n" + min + "\n})();\n")
	}
	code := src.String()
	if Rename(code) == nil {
		b.Fatal("nothing renamed")
	}
	b.SetBytes(int64(len(code)))
	var rename, esbuild time.Duration
	b.ResetTimer()
	for range b.N {
		start := time.Now()
		Apply(code, Rename(code))
		rename += time.Since(start)
		b.StopTimer()
		start = time.Now()
		minify(code)
		esbuild += time.Since(start)
		b.StartTimer()
	}
	b.ReportMetric(float64(rename)/float64(esbuild), "rename/minify")
}

// BenchmarkResolve resolves every name of the same 300 KB script (generated programs) and
// reports, beside MB/s, its time over the time esbuild takes to minify it in the same run
// (resolve/minify): what the build's checks pay, once a script's sink needs a name's
// binding (pipeline/receivers.go), against a pass the build makes of every script anyway.
//
//	go test ./pipeline/internal/localnames -run '^$' -bench Resolve -benchtime=20x
func BenchmarkResolve(b *testing.B) {
	var src strings.Builder
	for seed := uint64(0); src.Len() < 300_000; seed++ {
		min, ok := minify(generate(seed))
		if !ok {
			b.Fatalf("esbuild cannot read program %d", seed)
		}
		src.WriteString("(() => {\n" + min + "\n})();\n")
	}
	code := src.String()
	if _, ok := Resolve(code); !ok {
		b.Fatal("not resolved")
	}
	b.SetBytes(int64(len(code)))
	var resolve, esbuild time.Duration
	b.ResetTimer()
	for range b.N {
		start := time.Now()
		Resolve(code)
		resolve += time.Since(start)
		b.StopTimer()
		start = time.Now()
		minify(code)
		esbuild += time.Since(start)
		b.StartTimer()
	}
	b.ReportMetric(float64(resolve)/float64(esbuild), "resolve/minify")
}
