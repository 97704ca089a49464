package sdk

import (
	"flag"
	"os"
	"strings"
	"testing"
)

var updateCompiled = flag.Bool("update", false, "rewrite compiled/ from src/")

// TestCompiledIsCurrent: the compiled SDK under compiled/ is what the sources give (go test
// ./sdk -update rewrites it), and Script fills in a Config as a compile with it defined
// would print it.
func TestCompiledIsCurrent(t *testing.T) {
	for _, v := range []struct {
		file  string
		carry bool
	}{{"compiled/sdk.js", false}, {"compiled/sdk-carry.js", true}} {
		want, err := Compile(v.carry)
		if err != nil {
			t.Fatal(err)
		}
		if *updateCompiled {
			if err := os.WriteFile(v.file, []byte(want), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		got, _ := os.ReadFile(v.file)
		if string(got) != want {
			t.Errorf("%s is stale: run go test ./sdk -update", v.file)
		}
	}
	js, err := Script(Config{Name: "Orders </script>", Hosts: []string{"https://chat.example.com"}, Auth: true})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(js, `{name:"Orders <\/script>",version:"",hosts:["https://chat.example.com"],linkDomains:[],auth:!0,displayModes:["inline"]}`) || strings.Contains(js, configSlot) {
		t.Errorf("the config is not in the script as an object literal: %.300s", js)
	}
}
