//go:build wasip1

package main

import (
	"bytes"
	"unsafe"
)

// The module as a reactor (scripts/build-wasm builds it with -buildmode=c-shared as
// bundle-check-reactor.wasm): its runtime starts once (_initialize), and each check is a call,
// with no instance to start. The input is what standard input holds in the command: a line
// of JSON options, then the page.

var in, out []byte

// bundleCheckInput returns the address of a buffer of n bytes for the next check's input,
// which the caller fills.
//
//go:wasmexport bundle_check_input
func bundleCheckInput(n uint32) uint32 {
	if uint32(cap(in)) < n {
		in = make([]byte, n)
	}
	in = in[:n]
	if n == 0 {
		return 0
	}
	return uint32(uintptr(unsafe.Pointer(unsafe.SliceData(in))))
}

// bundleCheck checks the input and returns the exit code of the command (0 clean, 1
// findings, 2 bad options, 3 failed); bundle_check_output holds the report, or the error.
//
//go:wasmexport bundle_check
func bundleCheck() uint32 {
	var stdout, stderr bytes.Buffer
	code := run(bytes.NewReader(in), &stdout, &stderr)
	out = stdout.Bytes()
	if code > 1 {
		out = stderr.Bytes()
	}
	return uint32(code)
}

// bundleCheckOutput returns the address of the last check's output; bundle_check_output_len
// its length.
//
//go:wasmexport bundle_check_output
func bundleCheckOutput() uint32 {
	if len(out) == 0 {
		return 0
	}
	return uint32(uintptr(unsafe.Pointer(unsafe.SliceData(out))))
}

//go:wasmexport bundle_check_output_len
func bundleCheckOutputLen() uint32 { return uint32(len(out)) }
