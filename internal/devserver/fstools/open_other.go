//go:build !unix

package fstools

import "os"

// openFlags: other systems have no FIFOs to block on in a served tree.
const openFlags = os.O_RDONLY
