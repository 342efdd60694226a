package main

// noEnv is an empty environment for run.
func noEnv(string) string { return "" }
