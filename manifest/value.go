package manifest

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
)

// ReservedIDs are ids an app cannot take: registry.json is the registry of an output folder,
// which an app's entry (<id>.json) would overwrite.
var ReservedIDs = []string{"registry"}

// idProblem says what is wrong with an app id, and what to write instead; "" when it is valid.
func idProblem(id string) (string, string) {
	if !validName(id, 63, "-") {
		return "is not valid", "an id is 1 to 63 characters: a lower-case letter, then lower-case letters, digits and '-' (it names the output files)"
	}
	for _, r := range ReservedIDs {
		if id == r {
			return "is reserved", fmt.Sprintf("choose another id: %s.json is the output folder's registry, which the app's entry would overwrite", r)
		}
	}
	return "", ""
}

// CheckValue checks one value of a manifest field by the rule Parse applies, for a value that
// does not come from a manifest (a registry entry a host reads): field is "id",
// "allowedDomains", "hosts" or "linkDomains", and value one id, origin or host. A value must
// also be as a build writes it: an origin without its trailing slash. CheckValue returns nil,
// or an error saying what is wrong and what to write.
func CheckValue(field, value string) error {
	var v validator
	var why, fix string
	switch field {
	case "id":
		why, fix = idProblem(value)
	case "allowedDomains":
		why, fix = v.origin(value)
	case "hosts":
		why, fix = v.hostOrigin(value)
	case "linkDomains":
		why, fix = v.host(value)
	default:
		return fmt.Errorf("manifest.CheckValue: no rule for the field %q", field)
	}
	if why == "" && field != "id" && field != "linkDomains" && strings.HasSuffix(value, "/") {
		why, fix = "ends in a slash", fmt.Sprintf("write %q (a build writes an origin without it)", strings.TrimSuffix(value, "/"))
	}
	if why != "" {
		return fmt.Errorf("%q %s: %s", value, why, fix)
	}
	return nil
}

// IDFor makes a manifest id and a display name from a folder name, as bundle init names an
// app and a missing id is advised: "My Weather_App" gives "my-weather-app" and "My Weather App".
func IDFor(base string) (id, name string) {
	var b strings.Builder
	for _, r := range strings.ToLower(base) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			b.WriteRune(r)
		case b.Len() > 0 && !strings.HasSuffix(b.String(), "-"):
			b.WriteByte('-')
		}
	}
	id = strings.Trim(b.String(), "-")
	if id == "" || id[0] < 'a' || id[0] > 'z' {
		id = "app-" + id
	}
	id = strings.TrimSuffix(id[:min(len(id), 63)], "-")
	if slices.Contains(ReservedIDs, id) {
		id += "-app"
	}
	words := strings.Split(id, "-")
	for i, w := range words {
		r := []rune(w)
		r[0] = unicode.ToUpper(r[0])
		words[i] = string(r)
	}
	return id, strings.Join(words, " ")
}
