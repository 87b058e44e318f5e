package main

import (
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	neturl "net/url"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// fetcher GETs URLs with a bounded body, a timeout, and a cache directory
// holding each response with its ETag: a second run sends If-None-Match and
// a 304 answers from the cache, so a scheduled run costs the index little.
type fetcher struct {
	client  *http.Client
	cache   string // "" means no cache
	maxBody int64
	ua      string
	// now stamps rows with the date read.
	now func() time.Time
}

// response is one fetched body and what a row cites of it.
type response struct {
	URL         string
	ContentType string
	Body        []byte
	SHA256      string // hex sha256 of Body
	FromCache   bool
}

type cacheMeta struct {
	URL         string `json:"url"`
	ETag        string `json:"etag"`
	ContentType string `json:"content_type"`
}

func (f *fetcher) cachePaths(url string) (meta, body string) {
	sum := sha256.Sum256([]byte(url))
	base := filepath.Join(f.cache, hex.EncodeToString(sum[:16]))
	return base + ".json", base + ".body"
}

// get fetches url asking for one of accept; errors name the URL.
func (f *fetcher) get(ctx context.Context, url, accept string) (*response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, fmt.Errorf("GET %s: %v", url, err)
	}
	if accept != "" {
		req.Header.Set("Accept", accept)
	}
	// Asked for explicitly, so the transport leaves decoding to us and
	// the bound applies to the decoded size.
	req.Header.Set("Accept-Encoding", "gzip")
	if f.ua != "" {
		req.Header.Set("User-Agent", f.ua)
	}
	var cached *cacheMeta
	metaPath, bodyPath := "", ""
	if f.cache != "" {
		metaPath, bodyPath = f.cachePaths(url)
		if b, err := os.ReadFile(metaPath); err == nil {
			var m cacheMeta
			if json.Unmarshal(b, &m) == nil && m.URL == url && m.ETag != "" {
				if _, err := os.Stat(bodyPath); err == nil {
					cached = &m
					req.Header.Set("If-None-Match", m.ETag)
				}
			}
		}
	}
	resp, err := f.client.Do(req)
	if err != nil {
		// The client's error repeats the URL; say it once.
		var ue *neturl.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return nil, fmt.Errorf("GET %s: %v", url, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusNotModified {
		if cached == nil {
			return nil, fmt.Errorf("GET %s: 304 Not Modified to a request without If-None-Match", url)
		}
		body, err := os.ReadFile(bodyPath)
		if err != nil {
			return nil, fmt.Errorf("GET %s: 304, but the cached body is unreadable: %v", url, err)
		}
		return newResponse(url, cached.ContentType, body, true), nil
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("GET %s: %s", url, resp.Status)
	}
	var r io.Reader = resp.Body
	if strings.EqualFold(resp.Header.Get("Content-Encoding"), "gzip") {
		gz, err := gzip.NewReader(resp.Body)
		if err != nil {
			return nil, fmt.Errorf("GET %s: gzip: %v", url, err)
		}
		defer gz.Close()
		r = gz
	}
	body, err := io.ReadAll(io.LimitReader(r, f.maxBody+1))
	if err != nil {
		return nil, fmt.Errorf("GET %s: reading the body: %v", url, err)
	}
	if int64(len(body)) > f.maxBody {
		return nil, fmt.Errorf("GET %s: body larger than the %d-byte limit (-max-body)", url, f.maxBody)
	}
	ct := resp.Header.Get("Content-Type")
	if f.cache != "" {
		if et := resp.Header.Get("ETag"); et != "" {
			if err := f.store(metaPath, bodyPath, cacheMeta{URL: url, ETag: et, ContentType: ct}, body); err != nil {
				return nil, fmt.Errorf("caching %s: %v", url, err)
			}
		}
	}
	return newResponse(url, ct, body, false), nil
}

func newResponse(url, ct string, body []byte, cached bool) *response {
	sum := sha256.Sum256(body)
	return &response{URL: url, ContentType: ct, Body: body, SHA256: hex.EncodeToString(sum[:]), FromCache: cached}
}

// store writes the body before the metadata, each by rename, so a crash
// never leaves an ETag pointing at a partial body.
func (f *fetcher) store(metaPath, bodyPath string, m cacheMeta, body []byte) error {
	if err := os.MkdirAll(f.cache, 0o755); err != nil {
		return err
	}
	if err := writeAtomic(bodyPath, body); err != nil {
		return err
	}
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	return writeAtomic(metaPath, b)
}

func writeAtomic(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".kbsync-*")
	if err != nil {
		return err
	}
	_, werr := tmp.Write(data)
	cerr := tmp.Close()
	if err := errors.Join(werr, cerr); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// mediaType is a Content-Type without its parameters, lowercased.
func mediaType(ct string) string {
	t, _, _ := strings.Cut(ct, ";")
	return strings.ToLower(strings.TrimSpace(t))
}
