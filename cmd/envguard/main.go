// Command envguard tells an ML team, before a GPU job starts, whether a conda
// environment will work on the machine it must run on. See README.md.
package main

import (
	"os"

	"github.com/envguard/envguard/cli"
)

func main() {
	// One-shot commands read the GPUs in a child process of this binary
	// (gpucheck.NewChildProbe says why); where the binary's path cannot be
	// read, in this process, with the same result.
	if exe, err := os.Executable(); err == nil {
		cli.ReadGPUsWith(exe)
	}
	os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
