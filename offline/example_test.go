package offline_test

import (
	"fmt"

	"github.com/miniapp/bundle/offline"
)

func ExampleCheck() {
	page := []byte(`<!doctype html>
<link rel="stylesheet" href="https://fonts.example/css">
<img src="data:image/png;base64,iVBORw0KGgo=" alt="">
<a href="https://docs.example.com/help">help</a>
<p style="background: u\72l(bg.png)">`)
	findings, _ := offline.Check("page.html", page, offline.Options{LinkDomains: []string{"docs.example.com"}})
	for _, f := range findings {
		fmt.Println(f.Message)
	}
	// Output:
	// page.html:2:30: error: <link href> loads "https://fonts.example/css" from outside the bundle
	// page.html:5:23: error: CSS url() in style="" loads "bg.png" from outside the bundle
}
