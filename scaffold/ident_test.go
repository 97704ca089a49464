package scaffold

import "testing"

// TestIdent: a folder's name gives an id the manifest accepts, a reserved one included.
func TestIdent(t *testing.T) {
	for base, want := range map[string]string{"My Weather_App": "my-weather-app", "registry": "registry-app", "42": "app-42"} {
		if id, _ := ident(base); id != want {
			t.Errorf("ident(%q) = %q, want %q", base, id, want)
		}
	}
}
