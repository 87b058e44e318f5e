package api

import (
	"net/http"
	"strings"
)

// An input format the service reads, by the name ?format= takes, with the
// file name a report shows when the client names none.
type inputFormat struct {
	name, file string
	aliases    []string // envspec's Kind names, and the usual file names
}

// inputFormats are the names ?format= (and "format" in a JSON body) take,
// in the order errors list them. The names are those of the readers in
// envspec and lockfile.
var inputFormats = []inputFormat{
	{"environment", "environment.yml", []string{"environment.yml", "environment.yaml", "yaml", "conda"}},
	{"explicit", "explicit.txt", []string{"conda-explicit"}},
	{"conda-lock", "conda-lock.yml", []string{"conda-lock.yml", "conda-lock.yaml"}},
	{"pixi-lock", "pixi.lock", []string{"pixi.lock"}},
	{"pixi-toml", "pixi.toml", []string{"pixi.toml", "pixi"}},
	{"pyproject", "pyproject.toml", []string{"pyproject.toml"}},
	{"uv-lock", "uv.lock", []string{"uv.lock"}},
	{"pylock", "pylock.toml", []string{"pylock.toml"}},
	{"requirements", "requirements.txt", []string{"requirements.txt"}},
	{"collect-env", "collect_env.txt", []string{"collect_env", "collect-env.txt"}},
}

// Formats lists the names ?format= takes.
func Formats() []string {
	out := make([]string, len(inputFormats))
	for i, f := range inputFormats {
		out[i] = f.name
	}
	return out
}

// FormatFile is the file name a report shows for a format when the client
// names no file ("" for a name that is no format).
func FormatFile(format string) string {
	for _, f := range inputFormats {
		if f.name == format {
			return f.file
		}
	}
	return ""
}

// lookupFormat resolves a ?format= value (case-insensitive; a name or an
// alias) to its format, or answers the 400 that names them all.
func lookupFormat(v string) (inputFormat, error) {
	t := strings.ToLower(strings.TrimSpace(v))
	for _, f := range inputFormats {
		if t == f.name {
			return f, nil
		}
		for _, a := range f.aliases {
			if t == a {
				return f, nil
			}
		}
	}
	return inputFormat{}, newError(http.StatusBadRequest, "unknown_format",
		"format "+quote(v)+" is none envguard reads; give one of "+strings.Join(Formats(), ", ")+
			" (or leave it out: the file name and the content tell)")
}
