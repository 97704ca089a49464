package pipeline

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// TestGzipSize: the figure is the length of a gzip stream that decodes to the page, and on the
// samples' real pages it stays near Go's own level 6 (itself within 0.5% of zlib's): within
// 1.5% (it measured -0.2 to +0.9%).
func TestGzipSize(t *testing.T) {
	synthetic := [][]byte{nil, []byte("<!doctype html>"), bytes.Repeat([]byte("<p>order A-1002</p>"), 5000)}
	pages := synthetic
	for _, name := range samples {
		page, err := os.ReadFile(filepath.Join("testdata", name+".html.golden"))
		if err != nil {
			t.Fatal(err)
		}
		pages = append(pages, page)
	}
	for i, page := range pages {
		var buf bytes.Buffer
		gzipTo(&buf, page)
		if got := gzipSize(page); got != buf.Len() {
			t.Errorf("page %d: gzipSize = %d, but the stream is %d bytes", i, got, buf.Len())
		}
		r, err := gzip.NewReader(&buf)
		if err != nil {
			t.Fatalf("page %d: %v", i, err)
		}
		back, err := io.ReadAll(r)
		if err != nil || !bytes.Equal(back, page) {
			t.Fatalf("page %d: the stream does not decode to the page (%d bytes back, %v)", i, len(back), err)
		}
		if i < len(synthetic) {
			continue
		}
		var std bytes.Buffer
		w, _ := gzip.NewWriterLevel(&std, 6)
		w.Write(page)
		w.Close()
		got, want := float64(gzipSize(page)), float64(std.Len())
		t.Logf("page %d: %d bytes, gzip %.0f (Go's level 6: %.0f, %+.2f%%)", i, len(page), got, want, 100*(got/want-1))
		if got > want*1.015 || got < want*0.985 {
			t.Errorf("page %d: gzip figure %.0f is not within 1.5%% of Go's level 6 (%.0f)", i, got, want)
		}
	}
}
