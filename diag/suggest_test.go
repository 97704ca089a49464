package diag

import "testing"

// TestSuggest holds the "did you mean" rule to slips of one or two keystrokes: a long name
// that shares a prefix with another is not a misspelling of it (postcss-preset-env was
// "meant" as postcss-nesting when a third of the name could change).
func TestSuggest(t *testing.T) {
	plugins := []string{"postcss", "postcss-nesting", "tailwindcss", "@tailwindcss/typography", "@tailwindcss/forms"}
	for _, row := range []struct {
		name, s    string
		candidates []string
		want       string // "" for no suggestion
	}{
		{"dropped_letter", "postcss-nestin", plugins, "postcss-nesting"},
		{"swapped_letters", "postcss-nesitng", plugins, "postcss-nesting"},
		{"two_slips", "postcs-nestign", plugins, "postcss-nesting"},
		{"case_only", "PostCSS-Nesting", plugins, "postcss-nesting"},
		{"scoped_slip", "@tailwindcss/typograpy", plugins, "@tailwindcss/typography"},
		{"long_prefix_is_another_name", "postcss-preset-env", plugins, ""},
		{"long_prefix_is_another_name_scoped", "@tailwindcss/aspect-ratio", plugins, ""},
		{"three_slips", "postcs-nestnig-x", plugins, ""},
		{"short_names_are_not_each_other", "ab", []string{"xy"}, ""},
		{"one_letter", "x", []string{"y", "xy"}, ""},
		{"swap_is_one_edit", "chekc", []string{"check", "chuck"}, "check"},
		{"transposed_first", "nmae", []string{"name", "same"}, "name"},
		{"nearest_wins", "colr", []string{"color", "col"}, "col"},
		{"case_counted_breaks_tie", "Name", []string{"NAME", "name"}, "name"},
		{"no_candidates", "name", nil, ""},
	} {
		t.Run(row.name, func(t *testing.T) {
			got, ok := Suggest(row.s, row.candidates)
			if !ok {
				got = ""
			}
			if got != row.want {
				t.Errorf("Suggest(%q) = %q, want %q", row.s, got, row.want)
			}
		})
	}
}
