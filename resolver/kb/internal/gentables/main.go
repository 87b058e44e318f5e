// Command gentables writes resolver/kb/tables_gen.go, the embedded
// data/*.yaml read, validated and printed as Go literals (kb.GoSource), so
// that the compiler lays the knowledge base out in the binary and a process
// starts with it decoded: `go generate ./resolver/kb` after editing the data.
package main

import (
	"fmt"
	"os"

	"github.com/envguard/envguard/resolver/kb"
)

func main() {
	k, err := kb.LoadEmbeddedYAML()
	if err == nil {
		var src []byte
		if src, err = kb.GoSource(k); err == nil {
			err = os.WriteFile("tables_gen.go", src, 0o644)
		}
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "gentables: %v\n", err)
		os.Exit(1)
	}
}
