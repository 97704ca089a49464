package manifest

import (
	"regexp"
	"strings"
	"testing"
)

// TestValidName: the hand-written checks of ids and capabilities accept what their patterns do.
func TestValidName(t *testing.T) {
	id := regexp.MustCompile(`^[a-z][a-z0-9-]{0,62}$`)
	capability := regexp.MustCompile(`^[a-z][a-z0-9._-]{0,63}$`)
	alphabet := []string{"a", "z", "0", "9", "-", ".", "_", "A", "é", " ", "/"}
	var names []string
	var gen func(prefix string, n int)
	gen = func(prefix string, n int) {
		names = append(names, prefix)
		if n > 0 {
			for _, c := range alphabet {
				gen(prefix+c, n-1)
			}
		}
	}
	gen("", 3)
	for _, n := range []int{62, 63, 64, 65} {
		names = append(names, "a"+strings.Repeat("b", n-1), "a"+strings.Repeat("-", n-1), "a"+strings.Repeat(".", n-1))
	}
	for _, s := range names {
		if got, want := validName(s, 63, "-"), id.MatchString(s); got != want {
			t.Errorf("id %q: %v, the pattern says %v", s, got, want)
		}
		if got, want := validName(s, 64, "._-"), capability.MatchString(s); got != want {
			t.Errorf("capability %q: %v, the pattern says %v", s, got, want)
		}
	}
}

// TestIDFor: a folder's name gives an id the manifest accepts, a reserved one included.
func TestIDFor(t *testing.T) {
	for base, want := range map[string][2]string{
		"My Weather_App": {"my-weather-app", "My Weather App"},
		"registry":       {"registry-app", "Registry App"},
		"42":             {"app-42", "App 42"},
		"dq":             {"dq", "Dq"},
	} {
		id, name := IDFor(base)
		if id != want[0] || name != want[1] {
			t.Errorf("IDFor(%q) = %q, %q, want %q, %q", base, id, name, want[0], want[1])
		}
		if why, _ := idProblem(id); why != "" {
			t.Errorf("IDFor(%q) = %q, which %s", base, id, why)
		}
	}
}
