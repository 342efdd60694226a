package curated

// mustSpec is the curated command of name (tests name real ones).
func mustSpec(name string) *Spec {
	s, ok := Lookup(name)
	if !ok {
		panic("no curated command " + name)
	}
	return s
}

// Reformat runs the reformatter of the curated command named command; ok is
// false for a name without one.
func Reformat(command, text string, o ReformatOptions) (Output, bool) {
	s, _ := Lookup(command)
	return s.ReformatText(text, o)
}
