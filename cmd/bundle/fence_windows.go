package main

// removeAtExit is not needed where there is no fence: the folder is removed in the process.
func removeAtExit(dir string) error { return nil }

// startOpener opens the browser directly where there is no fence.
func startOpener() (func(string) error, error) { return openBrowser, nil }
