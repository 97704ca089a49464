package manifest

import (
	"fmt"
	"strings"
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
