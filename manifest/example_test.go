package manifest_test

import (
	"fmt"

	"github.com/miniapp/bundle/manifest"
)

func ExampleParse() {
	src := []byte(`id = "hello"
name = "Hello"
descripton = "Greets you."
entry = "index.html"
maxKB = 9000
`)
	_, problems := manifest.Parse("miniapp.toml", src)
	for _, p := range problems {
		fmt.Println(p)
		fmt.Println("  " + p.Note)
	}
	// Output:
	// miniapp.toml: description: error: missing required field "description"
	//   add description = "…" (one or two sentences on what the app is for and what it does: the host tells it to the model)
	// miniapp.toml:3:1: descripton: error: unknown field "descripton"
	//   did you mean "description"?
	// miniapp.toml:5:9: maxKB: error: maxKB 9000 is out of range
	//   the size budget is 1 to 8192 KB; the default is 512
}
