//go:build !unix

package fstools

import "testing"

func rerunUnprivileged(t *testing.T, name string) {
	t.Skip("running with full privileges: permissions are not enforced")
}
