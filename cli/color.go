package cli

import "os"

// useColor decides whether text output is coloured: --color always or
// never, else (auto) only when stdout is a terminal and NO_COLOR is unset
// or empty (no-color.org).
func (e *env) useColor() (bool, error) {
	switch e.color {
	case "always":
		return true, nil
	case "never":
		return false, nil
	case "auto", "":
	default:
		return false, usageErr("--color %q: want auto, always or never", e.color)
	}
	if e.getenv("NO_COLOR") != "" {
		return false, nil
	}
	f, ok := e.stdout.(*os.File)
	if !ok {
		return false, nil
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0, nil
}
