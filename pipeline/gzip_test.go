package pipeline

import (
	"bytes"
	"compress/gzip"
	"testing"
)

// TestGzipSize: the figure is the length of the page gzipped at level 6.
func TestGzipSize(t *testing.T) {
	for _, page := range [][]byte{nil, []byte("<!doctype html>"), bytes.Repeat([]byte("<p>order A-1002</p>"), 5000)} {
		var buf bytes.Buffer
		w, _ := gzip.NewWriterLevel(&buf, 6)
		w.Write(page)
		w.Close()
		if got := gzipSize(page); got != buf.Len() {
			t.Errorf("gzipSize of %d bytes = %d, want %d", len(page), got, buf.Len())
		}
	}
}
