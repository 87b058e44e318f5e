package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"

	"golang.org/x/net/html"
)

// PEP 691's JSON form of the simple API.
const simpleJSON = "application/vnd.pypi.simple.v1+json"

// project is one project page of a simple index, in either form.
type project struct {
	Name     string
	Versions []string // PEP 700; nil from an HTML page
	Files    []file
}

type file struct {
	Filename       string
	URL            string
	SHA256         string
	RequiresPython string
	UploadTime     string // PEP 700, RFC 3339; "" from HTML
	Size           int64
	// Metadata is the PEP 658/714 metadata file's sha256; HasMetadata
	// says the index serves <url>.metadata at all (it may give no hash).
	HasMetadata    bool
	MetadataSHA256 string
	Yanked         bool
}

type jsonFile struct {
	Filename       string            `json:"filename"`
	URL            string            `json:"url"`
	Hashes         map[string]string `json:"hashes"`
	RequiresPython *string           `json:"requires-python"`
	UploadTime     string            `json:"upload-time"`
	Size           int64             `json:"size"`
	CoreMetadata   json.RawMessage   `json:"core-metadata"`
	DistInfoMeta   json.RawMessage   `json:"dist-info-metadata"`
	Yanked         json.RawMessage   `json:"yanked"`
}

// parseSimpleJSON reads a PEP 691 project page; base resolves relative
// file URLs.
func parseSimpleJSON(data []byte, base string) (*project, error) {
	var p struct {
		Meta struct {
			APIVersion string `json:"api-version"`
		} `json:"meta"`
		Name     string     `json:"name"`
		Versions []string   `json:"versions"`
		Files    []jsonFile `json:"files"`
	}
	if err := json.Unmarshal(data, &p); err != nil {
		return nil, fmt.Errorf("JSON simple page: %v", err)
	}
	if major, _, _ := strings.Cut(p.Meta.APIVersion, "."); major != "1" {
		return nil, fmt.Errorf("JSON simple page: api-version %q, want 1.x (PEP 691)", p.Meta.APIVersion)
	}
	if p.Name == "" {
		return nil, fmt.Errorf("JSON simple page: no project name")
	}
	out := &project{Name: p.Name, Versions: p.Versions}
	for i, f := range p.Files {
		if f.Filename == "" || f.URL == "" {
			return nil, fmt.Errorf("JSON simple page: files[%d] lacks filename or url", i)
		}
		u, err := resolveURL(base, f.URL)
		if err != nil {
			return nil, fmt.Errorf("JSON simple page: files[%d] url: %v", i, err)
		}
		nf := file{Filename: f.Filename, URL: u, SHA256: strings.ToLower(f.Hashes["sha256"]), UploadTime: f.UploadTime, Size: f.Size}
		if f.RequiresPython != nil {
			nf.RequiresPython = *f.RequiresPython
		}
		// PEP 714 renamed dist-info-metadata to core-metadata; either is
		// true or a hash map.
		meta := f.CoreMetadata
		if len(meta) == 0 {
			meta = f.DistInfoMeta
		}
		nf.HasMetadata, nf.MetadataSHA256 = metadataField(meta)
		nf.Yanked = len(f.Yanked) > 0 && !bytes.Equal(f.Yanked, []byte("false"))
		out.Files = append(out.Files, nf)
	}
	return out, nil
}

func metadataField(raw json.RawMessage) (bool, string) {
	if len(raw) == 0 {
		return false, ""
	}
	var b bool
	if json.Unmarshal(raw, &b) == nil {
		return b, ""
	}
	var m map[string]string
	if json.Unmarshal(raw, &m) == nil {
		return true, strings.ToLower(m["sha256"])
	}
	return false, ""
}

// parseSimpleHTML reads a PEP 503 project page (the PyTorch wheel index
// serves these): each <a> is a file, its fragment the hash, and PEP 592,
// 658 and 714 attributes say yanked, Requires-Python and metadata.
func parseSimpleHTML(data []byte, base, name string) (*project, error) {
	doc, err := html.Parse(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("HTML simple page: %v", err)
	}
	out := &project{Name: name}
	var walk func(*html.Node) error
	walk = func(n *html.Node) error {
		if n.Type == html.ElementNode && n.Data == "a" {
			var f file
			var href string
			for _, a := range n.Attr {
				switch a.Key {
				case "href":
					href = a.Val
				case "data-requires-python":
					f.RequiresPython = a.Val
				case "data-yanked":
					f.Yanked = true
				case "data-core-metadata", "data-dist-info-metadata":
					if f.HasMetadata && f.MetadataSHA256 != "" {
						continue
					}
					f.HasMetadata = a.Val != "false"
					if h, ok := strings.CutPrefix(a.Val, "sha256="); ok {
						f.MetadataSHA256 = strings.ToLower(h)
					}
				}
			}
			if href != "" {
				u, err := resolveURL(base, href)
				if err != nil {
					return fmt.Errorf("HTML simple page: href %q: %v", href, err)
				}
				pu, _ := url.Parse(u)
				if h, ok := strings.CutPrefix(pu.Fragment, "sha256="); ok {
					f.SHA256 = strings.ToLower(h)
				}
				pu.Fragment = ""
				f.URL = pu.String()
				f.Filename = textOf(n)
				if f.Filename == "" {
					f.Filename = pathBase(pu.Path)
				}
				out.Files = append(out.Files, f)
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if err := walk(c); err != nil {
				return err
			}
		}
		return nil
	}
	if err := walk(doc); err != nil {
		return nil, err
	}
	return out, nil
}

func textOf(n *html.Node) string {
	var b strings.Builder
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.TextNode {
			b.WriteString(c.Data)
		}
	}
	return strings.TrimSpace(b.String())
}

func pathBase(p string) string {
	if i := strings.LastIndex(p, "/"); i >= 0 {
		p = p[i+1:]
	}
	if u, err := url.PathUnescape(p); err == nil {
		return u
	}
	return p
}

func resolveURL(base, ref string) (string, error) {
	b, err := url.Parse(base)
	if err != nil {
		return "", err
	}
	r, err := url.Parse(ref)
	if err != nil {
		return "", err
	}
	return b.ResolveReference(r).String(), nil
}

// wheelTags splits a wheel's filename (name-ver(-build)?-py-abi-plat.whl)
// into its version (with local part), Python tags and platform tags; ok
// is false for an sdist or a malformed name.
func wheelTags(filename string) (version string, python, platforms []string, ok bool) {
	stem, isWhl := strings.CutSuffix(filename, ".whl")
	if !isWhl {
		return "", nil, nil, false
	}
	parts := strings.Split(stem, "-")
	if len(parts) != 5 && len(parts) != 6 {
		return "", nil, nil, false
	}
	n := len(parts)
	version, _ = url.PathUnescape(parts[1])
	return version, strings.Split(parts[n-3], "."), strings.Split(parts[n-1], "."), true
}

// sdistVersion reads the version of name-ver.tar.gz / .zip.
func sdistVersion(filename, normName string) (string, bool) {
	for _, ext := range []string{".tar.gz", ".zip", ".tar.bz2"} {
		stem, ok := strings.CutSuffix(filename, ext)
		if !ok {
			continue
		}
		i := strings.LastIndex(stem, "-")
		if i <= 0 || normalize(stem[:i]) != normName {
			return "", false
		}
		return stem[i+1:], true
	}
	return "", false
}
