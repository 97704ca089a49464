package pipeline

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/binary"
	"hash/crc32"
	"io"
	"testing"
)

// TestGzipSizeIsAStream: the chunks the size line counts, some compressed before the policy
// was inserted, put together with a gzip header and trailer, are one gzip stream that gives
// the final page back, of the size reported, within 0.5% of one stream compressed on one
// core.
func TestGzipSizeIsAStream(t *testing.T) {
	res, err := Build(context.Background(), sampleDir(t, "order-book"), Options{NoWrite: true})
	if err != nil {
		t.Fatal(err)
	}
	big := bytes.Repeat(res.HTML, 3)
	rows := []struct {
		name string
		page []byte
		at   int
	}{
		{"order-book", res.HTML, 40}, {"empty", nil, 0}, {"one chunk", res.HTML[:1000], 10},
		{"a chunk and a byte", res.HTML[:gzipChunk+1], 0}, {"at the end", res.HTML[:gzipChunk+1], gzipChunk + 1},
		{"three and a half", big[:7*gzipChunk/2], 5000},
	}
	const meta = `<meta http-equiv="Content-Security-Policy" content="default-src 'none'">`
	for _, r := range rows {
		g := startGzip(r.page, r.at)
		final := insertPolicyAt(r.page, r.at, "default-src 'none'")
		g.finish(final)
		got := g.size()

		var stream bytes.Buffer
		stream.Write([]byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff})
		tail := min(len(r.page), r.at+gzipChunk)
		deflateChunk(&stream, final, 0, tail+len(meta))
		for start := tail; start < len(r.page); start += gzipChunk {
			deflateChunk(&stream, r.page, start, min(len(r.page), start+gzipChunk))
		}
		stream.Write(binary.LittleEndian.AppendUint32(binary.LittleEndian.AppendUint32(nil, crc32.ChecksumIEEE(final)), uint32(len(final))))
		zr, err := gzip.NewReader(bytes.NewReader(stream.Bytes()))
		if err != nil {
			t.Fatalf("%s: %v", r.name, err)
		}
		back, err := io.ReadAll(zr)
		if err != nil || !bytes.Equal(back, final) {
			t.Errorf("%s: the stream does not give the page back (%v)", r.name, err)
		}
		if got != stream.Len() {
			t.Errorf("%s: size %d, the stream is %d bytes", r.name, got, stream.Len())
		}
		var one bytes.Buffer
		w, _ := gzip.NewWriterLevel(&one, gzip.DefaultCompression)
		w.Write(final)
		w.Close()
		if d := float64(got)/float64(one.Len()) - 1; d > 0.005 {
			t.Errorf("%s: %d bytes in chunks, %d in one stream (%+.2f%%)", r.name, got, one.Len(), 100*d)
		}
		t.Logf("%s: %d bytes in chunks, %d in one stream", r.name, got, one.Len())
	}
}
