package cli

import (
	"fmt"
	"runtime/debug"

	"github.com/spf13/cobra"
)

// versionText is what `envguard version` and `--version` print: the
// version, the commit it was built from and the Go that built it, read
// from the build information the Go toolchain embeds.
func versionText() string {
	v, commit, goVersion := Version, "unknown", "unknown"
	if bi, ok := debug.ReadBuildInfo(); ok {
		goVersion = bi.GoVersion
		// A `go install module@vX.Y.Z` build knows its module version;
		// a checkout build says (devel) and keeps Version.
		if m := bi.Main.Version; m != "" && m != "(devel)" {
			v = m
		}
		var rev, modified string
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				modified = s.Value
			}
		}
		if rev != "" {
			commit = rev
			if modified == "true" {
				commit += " (with uncommitted changes)"
			}
		}
	}
	return fmt.Sprintf("envguard %s\ncommit %s\n%s\n", v, commit, goVersion)
}

func versionCmd(e *env) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print envguard's version, the commit it was built from and the Go version",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			_, err := fmt.Fprint(e.stdout, versionText())
			return err
		},
	}
}
