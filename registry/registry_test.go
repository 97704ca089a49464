package registry_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/miniapp/bundle/registry"
)

func entryFor(page []byte) registry.Entry {
	yes := true
	e := registry.Entry{SchemaVersion: registry.SchemaVersion, ID: "orders", Name: "Orders", File: "orders.html",
		URI: "ui://orders", MIMEType: registry.ResourceMIMEType, CSP: "default-src 'none'",
		Meta: registry.ResourceMeta{UI: registry.UIMeta{CSP: registry.UICSP{ConnectDomains: []string{"https://api.example.com"}, ResourceDomains: []string{"data:"}},
			Domain: "orders.example.com", PrefersBorder: &yes}}}
	e.Pin(page)
	return e
}

// TestResource: resources/read serves the page unchanged with the entry's _meta, as MCP Apps
// has it, and refuses a page the entry does not pin.
func TestResource(t *testing.T) {
	page := []byte("<!doctype html><meta charset=utf-8><title>é</title><p>Orders</p>")
	e := entryFor(page)
	res, err := registry.Resource(page, e)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(res)
	var got struct {
		Contents []struct {
			URI      string `json:"uri"`
			MIMEType string `json:"mimeType"`
			Text     string `json:"text"`
			Meta     struct {
				UI struct {
					CSP struct {
						ConnectDomains  []string `json:"connectDomains"`
						ResourceDomains []string `json:"resourceDomains"`
					} `json:"csp"`
					Domain        string `json:"domain"`
					PrefersBorder *bool  `json:"prefersBorder"`
				} `json:"ui"`
			} `json:"_meta"`
		} `json:"contents"`
	}
	if err := json.Unmarshal(b, &got); err != nil || len(got.Contents) != 1 {
		t.Fatalf("%s: %v", b, err)
	}
	c := got.Contents[0]
	if c.URI != "ui://orders" || c.MIMEType != "text/html;profile=mcp-app" || c.Text != string(page) ||
		c.Meta.UI.CSP.ConnectDomains[0] != "https://api.example.com" || c.Meta.UI.CSP.ResourceDomains[0] != "data:" ||
		c.Meta.UI.Domain != "orders.example.com" || c.Meta.UI.PrefersBorder == nil || !*c.Meta.UI.PrefersBorder {
		t.Errorf("resource: %s", b)
	}
	if _, err := registry.Resource(append(page, ' '), e); err == nil || !strings.Contains(err.Error(), "SHA-256") {
		t.Errorf("a page the entry does not pin: %v", err)
	}
}

// TestFolderAndRead: a folder's registry lists its entries whose pages are there, keyed by
// id; Read refuses a registry whose key is not its entry's id.
func TestFolderAndRead(t *testing.T) {
	dir := t.TempDir()
	page := []byte("<p>x</p>")
	e := entryFor(page)
	b, _ := registry.Marshal(e)
	os.WriteFile(filepath.Join(dir, "orders.json"), b, 0o644)
	os.WriteFile(filepath.Join(dir, "orders.html"), page, 0o644)
	orphan := e
	orphan.ID, orphan.File = "gone", "gone.html"
	b, _ = registry.Marshal(orphan)
	os.WriteFile(filepath.Join(dir, "gone.json"), b, 0o644)
	os.WriteFile(filepath.Join(dir, "package.json"), []byte(`{"name":"x"}`), 0o644)
	r, err := registry.Folder(dir)
	if err != nil {
		t.Fatal(err)
	}
	if ids := r.IDs(); len(ids) != 1 || ids[0] != "orders" {
		t.Errorf("ids %v", ids)
	}
	r.Apps["other"] = e
	b, _ = registry.Marshal(r)
	p := filepath.Join(dir, registry.FileName)
	os.WriteFile(p, b, 0o644)
	if _, err := registry.Read(p); err == nil || !strings.Contains(err.Error(), "apps.other") {
		t.Errorf("a key that is not the id: %v", err)
	}
	for _, bad := range []string{`{"schema_version":1,"id":"x","file":"../x.html","sha256":"` + strings.Repeat("a", 64) + `"}`, `{"schema_version":2}`, `[`} {
		if _, err := registry.ParseEntry("e.json", []byte(bad)); err == nil {
			t.Errorf("ParseEntry(%s) accepted", bad)
		}
	}
}
