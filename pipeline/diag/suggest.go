package diag

import "strings"

// Suggest returns the candidate closest to s, ignoring case, when it is close enough to be
// what the author meant (an edit distance of at most a third of s, and at least 2); ok is
// false when none is.
func Suggest(s string, candidates []string) (best string, ok bool) {
	limit := max(2, len(s)/3)
	bestD := limit + 1
	for _, c := range candidates {
		if d := editDistance(strings.ToLower(s), strings.ToLower(c)); d < bestD || (d == bestD && c < best) {
			best, bestD = c, d
		}
	}
	return best, bestD <= limit
}

// editDistance is the Levenshtein distance between a and b, in bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
