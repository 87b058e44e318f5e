package main

import (
	"bufio"
	"bytes"
	"fmt"
	"regexp"
	"strings"
)

// metadata is what kbsync reads of a core metadata file (PEP 658 serves
// it beside the wheel as <file-url>.metadata).
type metadata struct {
	Name           string
	Version        string
	RequiresPython string
	RequiresDist   []string
}

// parseMetadata reads the header block of a METADATA file (RFC 822 style:
// "Key: value", continuation lines start with whitespace; the body after
// the first blank line is the description and is skipped).
func parseMetadata(data []byte) (*metadata, error) {
	m := &metadata{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	var key, val string
	n, seen := 0, false
	flush := func() {
		if key == "" {
			return
		}
		switch strings.ToLower(key) {
		case "name":
			m.Name = val
		case "version":
			m.Version = val
		case "requires-python":
			m.RequiresPython = val
		case "requires-dist":
			m.RequiresDist = append(m.RequiresDist, val)
		}
		key, val = "", ""
	}
	for sc.Scan() {
		n++
		line := strings.TrimRight(sc.Text(), "\r")
		if line == "" {
			break
		}
		if line[0] == ' ' || line[0] == '\t' {
			if key == "" {
				return nil, fmt.Errorf("METADATA line %d: continuation line before any header", n)
			}
			val += " " + strings.TrimSpace(line)
			continue
		}
		flush()
		k, v, ok := strings.Cut(line, ":")
		if !ok || strings.TrimSpace(k) == "" || strings.ContainsAny(k, " \t") {
			return nil, fmt.Errorf("METADATA line %d: %q is not a 'Key: value' header", n, line)
		}
		key, val, seen = k, strings.TrimSpace(v), true
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("METADATA: %v", err)
	}
	flush()
	if !seen || m.Name == "" || m.Version == "" {
		return nil, fmt.Errorf("METADATA: no Name and Version headers")
	}
	return m, nil
}

var reqName = regexp.MustCompile(`^\s*([A-Za-z0-9][A-Za-z0-9._-]*)`)

// requirementName is a Requires-Dist line's project name, normalised.
func requirementName(req string) string {
	m := reqName.FindStringSubmatch(req)
	if m == nil {
		return ""
	}
	return normalize(m[1])
}

// cudaPins are the requirements naming CUDA wheels: nvidia-*, and the
// cuda-* runtime bundles TensorFlow's and-cuda extra pins.
func cudaPins(reqs []string) []string {
	var out []string
	for _, r := range reqs {
		n := requirementName(r)
		if strings.HasPrefix(n, "nvidia-") || strings.HasPrefix(n, "cuda-") {
			out = append(out, r)
		}
	}
	return out
}

// pinsOf are the requirements on name (xformers' torch pin).
func pinsOf(reqs []string, name string) []string {
	var out []string
	for _, r := range reqs {
		if requirementName(r) == name {
			out = append(out, r)
		}
	}
	return out
}

var normRe = regexp.MustCompile(`[-_.]+`)

// normalize is PEP 503's name normalisation.
func normalize(s string) string { return normRe.ReplaceAllString(strings.ToLower(s), "-") }
