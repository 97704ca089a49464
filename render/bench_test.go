package render

import (
	"context"
	"path/filepath"
	"testing"
)

// BenchmarkRender renders each sample in one running Chromium, a tab per page, with a
// screenshot: the time per page, handshake to screenshot, without the browser's start.
func BenchmarkRender(b *testing.B) {
	r, err := Start(context.Background(), Options{Screenshot: true})
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	for _, name := range []string{"hello", "order-book"} {
		b.Run(name, func(b *testing.B) {
			res, entry := buildB(b, filepath.Join("..", "samples", name))
			b.ResetTimer()
			for range b.N {
				rep, err := r.Render(context.Background(), name+".html", res, entry)
				if err != nil || rep.Failed() {
					b.Fatalf("%v %+v", err, rep)
				}
			}
		})
	}
}
