//go:build !linux && !darwin

package termbg

// pending: unknown here.
func pending(int) int { return -1 }

// pushBack: not possible here.
func pushBack(int, []byte) bool { return false }
