// Command envguard tells an ML team, before a GPU job starts, whether a conda
// environment will work on the machine it must run on. See README.md.
package main

import (
	"os"

	"github.com/envguard/envguard/cli"
)

func main() {
	os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
