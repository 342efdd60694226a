//go:build unix && !linux

package ttyask

// flush discards the input typed before the question.
func (t *terminal) flush() { t.drain() }
