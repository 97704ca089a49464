package pipeline

import "slices"

// The platform's globals. A name no script of the page gives (no declaration binds it, no
// script assigns it) reads the global object's property: the platform's (document, console,
// structuredClone, …), whose functions have their own sink rules, or one the build cannot
// see given (another frame's, an extension's, a script's Object.assign(window, { $ }) or
// window[name] = …): a call of such a name is refused where its argument holds what the
// policy blocks (checkGlobalCall). Which names are the platform's is Chromium's answer, not a
// list written by hand: platformglobals_table.go is generated in Chromium by
// gen_platformglobals.go, and TestPlatformGlobals generates it again and compares.

//go:generate go run gen_platformglobals.go

// isPlatformGlobal reports whether name is a property of the global object of a page of
// nothing, its own or inherited, as Chromium has it.
func isPlatformGlobal(name string) bool {
	_, found := slices.BinarySearch(platformGlobalNames[:], name)
	return found
}

// isElementMember reports whether name is a property of an element of some interface (or of
// an HTMLCollection), its own or inherited, as Chromium has it.
func isElementMember(name string) bool {
	_, found := slices.BinarySearch(platformElementNames[:], name)
	return found
}
