// Command bundle-check-wasm is bundle's offline check compiled to WebAssembly (WASI preview 1),
// for a host that is not written in Go: it runs in Node's node:wasi (check.mjs), wasmtime or
// any WASI runtime, with no file system and no network.
//
// It reads standard input: one line of JSON, the options (offline.Request: name,
// link_domains, single_file, allowed_domains, policy, file_sizes; {} for none), then the page's
// bytes, as they are, to the end. It writes the report of bundle check --format json to
// standard output, the same bytes the native check writes for that page and those options,
// and exits 0 when the page is clean, 1 when it has findings, 2 when the options are not
// JSON, 3 when the checker failed.
//
// scripts/build-wasm builds it reproducibly.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/miniapp/bundle/offline"
)

func main() {
	os.Exit(run(os.Stdin, os.Stdout, os.Stderr))
}

func run(stdin io.Reader, stdout, stderr io.Writer) int {
	in := bufio.NewReaderSize(stdin, 1<<16)
	line, err := in.ReadBytes('\n')
	if err != nil && err != io.EOF {
		fmt.Fprintf(stderr, "bundle-check-wasm: read standard input: %v\n", err)
		return 2
	}
	var q offline.Request
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&q); err != nil {
		fmt.Fprintf(stderr, "bundle-check-wasm: the first line of standard input must be the options as JSON ({} for none): %v\n", err)
		return 2
	}
	page, err := io.ReadAll(in)
	if err != nil {
		fmt.Fprintf(stderr, "bundle-check-wasm: read standard input: %v\n", err)
		return 2
	}
	fs, err := offline.Check(q.FileName(), page, q.Options())
	if err != nil {
		fmt.Fprintf(stderr, "bundle-check-wasm: %v\n", err)
		return 3
	}
	var r offline.Report
	r.Add(q.FileName(), fs)
	if err := r.Encode(stdout); err != nil {
		fmt.Fprintf(stderr, "bundle-check-wasm: write the report: %v\n", err)
		return 3
	}
	if len(fs) > 0 {
		return 1
	}
	return 0
}
