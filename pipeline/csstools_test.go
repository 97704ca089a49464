package pipeline

import "testing"

// TestImportsTailwind: a stylesheet enters Tailwind CSS by its tokens, not by the words.
func TestImportsTailwind(t *testing.T) {
	for _, c := range []struct {
		css  string
		want bool
	}{
		{`@import "tailwindcss";`, true},
		{`@import 'tailwindcss' layer(base);`, true},
		{`@import url("tailwindcss");`, true},
		{`@import url( tailwindcss );`, true},
		{"@import\n  /* v4 */ \"tailwindcss/theme.css\" layer(theme);", true},
		{`@tailwind base; @tailwind utilities;`, true},
		{`@tailwind   components`, true},
		{`.a { color: red } @import "tailwindcss";`, true}, // misplaced, but Tailwind reads it
		{`/* @import "tailwindcss"; */ .a { color: red }`, false},
		{`.a::before { content: '@import "tailwindcss"' }`, false},
		{`@import "tailwindcss-animate";`, false},
		{`@import "./tailwindcss.css";`, false},
		{`.tailwind { color: red } @tailwind-ish base;`, false},
		{`@tailwind screens;`, false},
		{`@IMPORT "tailwindcss";`, false}, // Tailwind's compiler matches @import as written
		{`@import "tailwindcss`, true},    // left open at the end of the file
		{`@import "`, false},
		{`@import url(`, false},
		{`@tailwind`, false},
	} {
		if got := importsTailwind(c.css); got != c.want {
			t.Errorf("importsTailwind(%q) = %v, want %v", c.css, got, c.want)
		}
	}
}
