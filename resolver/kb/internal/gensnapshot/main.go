// Command gensnapshot writes resolver/kb/snapshot.gob from the embedded
// data/*.yaml: `go generate ./resolver/kb` after editing the data.
package main

import (
	"fmt"
	"os"

	"github.com/envguard/envguard/resolver/kb"
)

func main() {
	k, err := kb.LoadEmbeddedYAML()
	if err != nil {
		fmt.Fprintf(os.Stderr, "gensnapshot: %v\n", err)
		os.Exit(1)
	}
	b, err := kb.Snapshot(k)
	if err != nil {
		fmt.Fprintf(os.Stderr, "gensnapshot: %v\n", err)
		os.Exit(1)
	}
	if err := os.WriteFile("snapshot.gob", b, 0o644); err != nil {
		fmt.Fprintf(os.Stderr, "gensnapshot: %v\n", err)
		os.Exit(1)
	}
}
