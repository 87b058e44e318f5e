package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"
	"unicode"
)

// Bounds on the small request fields: they end up in logs, reports and
// lookups, so a client must not make them arbitrarily large.
const (
	maxTargets   = 64
	maxNameLen   = 128
	defaultFile  = "environment.yml"
	maxFileLen   = 255
	yamlMediaMsg = "send the environment file as application/yaml (or text/yaml, application/x-yaml, text/plain; a TOML lock file or manifest as application/toml), or JSON {\"environment\": \"...\"} as application/json"
)

type bodyKind int

const (
	bodyYAML bodyKind = iota
	bodyJSON
)

// bodyKindOf reads the Content-Type. A missing one is taken as the raw
// file, which is what `curl --data-binary @environment.yml` sends once told
// the type, and what most scripts mean.
func bodyKindOf(r *http.Request, allowYAML bool) (bodyKind, error) {
	// A compressed body would be judged as the compressed bytes (or, once
	// inflated, escape the body limit): only identity is accepted.
	for _, ce := range r.Header.Values("Content-Encoding") {
		for _, c := range strings.Split(ce, ",") {
			if c = strings.TrimSpace(c); c != "" && !strings.EqualFold(c, "identity") {
				return 0, newError(http.StatusUnsupportedMediaType, "unsupported_media_type",
					"Content-Encoding "+quote(c)+" is not accepted: send the body uncompressed")
			}
		}
	}
	ct := r.Header.Get("Content-Type")
	if ct == "" {
		if allowYAML {
			return bodyYAML, nil
		}
		return bodyJSON, nil
	}
	mt, params, err := mime.ParseMediaType(ct)
	if err != nil {
		return 0, newError(http.StatusUnsupportedMediaType, "unsupported_media_type", "Content-Type "+quote(ct)+" does not parse: "+err.Error())
	}
	if cs, ok := params["charset"]; ok && !strings.EqualFold(cs, "utf-8") && !strings.EqualFold(cs, "utf8") && !strings.EqualFold(cs, "us-ascii") {
		return 0, newError(http.StatusUnsupportedMediaType, "unsupported_media_type", "charset "+quote(cs)+" is not supported; send UTF-8")
	}
	switch {
	case mt == "application/json" || strings.HasSuffix(mt, "+json"):
		return bodyJSON, nil
	case allowYAML && (mt == "application/yaml" || mt == "text/yaml" || mt == "application/x-yaml" || mt == "text/x-yaml" || mt == "text/plain"):
		return bodyYAML, nil
	case allowYAML && (mt == "application/toml" || mt == "text/toml"):
		// uv.lock, pylock.toml, pixi.toml, pyproject.toml: which one the
		// ?format=, the file name or the content tells.
		return bodyYAML, nil
	}
	msg := yamlMediaMsg
	if !allowYAML {
		msg = "send the request as application/json"
	}
	return 0, newError(http.StatusUnsupportedMediaType, "unsupported_media_type", "Content-Type "+quote(mt)+" is not accepted: "+msg)
}

// readBody reads the whole body within BodyTimeout (and the request
// deadline); the router's MaxBytesReader turns an oversized one into
// *http.MaxBytesError, answered 413, and a body that does not arrive in
// time is answered 408.
func (s *server) readBody(w http.ResponseWriter, r *http.Request) ([]byte, error) {
	start := time.Now()
	deadline := start.Add(s.cfg.BodyTimeout)
	if d, ok := r.Context().Deadline(); ok && d.Before(deadline) {
		deadline = d
	}
	rc := http.NewResponseController(w)
	// Where the connection cannot take a deadline (ErrNotSupported), the
	// server's ReadTimeout still bounds the read.
	limited := rc.SetReadDeadline(deadline) == nil
	b, err := io.ReadAll(r.Body)
	if limited && err == nil {
		// No deadline while the request is judged: net/http watches the
		// connection to cancel the context when the client goes away, and
		// a deadline passing there would cancel it too. After an error the
		// deadline stays, so that net/http does not wait for the rest of a
		// slow body before it answers and closes the connection.
		_ = rc.SetReadDeadline(time.Time{})
	}
	if err != nil {
		var mbe *http.MaxBytesError
		var ne net.Error
		switch {
		case errors.As(err, &mbe):
			return nil, newError(http.StatusRequestEntityTooLarge, "body_too_large",
				"request body is larger than the limit of "+itoa(mbe.Limit)+" bytes")
		case errors.Is(err, os.ErrDeadlineExceeded) || errors.As(err, &ne) && ne.Timeout():
			return nil, newError(http.StatusRequestTimeout, "body_timeout",
				"the request body did not arrive within "+deadline.Sub(start).Round(time.Millisecond).String()+"; send it at once")
		}
		return nil, newError(http.StatusBadRequest, "bad_request", "reading the request body: "+err.Error())
	}
	return b, nil
}

type validateJSON struct {
	Environment json.RawMessage `json:"environment"`
	Targets     []string        `json:"targets"`
	Platform    string          `json:"platform"`
	File        string          `json:"file"`
	Format      string          `json:"format"`
}

// parseValidateRequest builds the ValidateRequest from the body and the
// query (?target= repeatable, ?platform=, ?file=, ?format=).
func parseValidateRequest(kind bodyKind, body []byte, r *http.Request) (ValidateRequest, error) {
	q := r.URL.Query()
	req := ValidateRequest{File: q.Get("file"), Targets: q["target"], Platform: q.Get("platform"), Format: q.Get("format")}
	switch q.Get("pretty") {
	case "", "0", "false":
	case "1", "true":
		req.Pretty = true
	default:
		return req, newError(http.StatusBadRequest, "bad_request", fmt.Sprintf("?pretty=%q: want 1 or 0", q.Get("pretty")))
	}
	switch kind {
	case bodyYAML:
		req.Body = body
	case bodyJSON:
		var j validateJSON
		if err := decodeJSON(body, &j); err != nil {
			return req, err
		}
		if len(j.Environment) == 0 || string(j.Environment) == "null" {
			return req, newError(http.StatusBadRequest, "bad_request", `the JSON body needs "environment": the environment file as a string`)
		}
		var env string
		if err := json.Unmarshal(j.Environment, &env); err != nil {
			return req, newError(http.StatusBadRequest, "bad_request", `"environment" must be a string holding the environment file, not `+jsonKind(j.Environment))
		}
		req.Body = []byte(env)
		req.Targets = append(req.Targets, j.Targets...)
		if j.Platform != "" {
			if req.Platform != "" && req.Platform != j.Platform {
				return req, newError(http.StatusBadRequest, "bad_request", "platform "+quote(req.Platform)+" in the query and "+quote(j.Platform)+" in the body disagree")
			}
			req.Platform = j.Platform
		}
		if j.File != "" && req.File == "" {
			req.File = j.File
		}
		if j.Format != "" {
			if req.Format != "" && req.Format != j.Format {
				return req, newError(http.StatusBadRequest, "bad_request", "format "+quote(req.Format)+" in the query and "+quote(j.Format)+" in the body disagree")
			}
			req.Format = j.Format
		}
	}
	if req.Format != "" {
		f, err := lookupFormat(req.Format)
		if err != nil {
			return req, err
		}
		req.Format = f.name
	}
	if len(bytes.TrimSpace(req.Body)) == 0 {
		return req, newError(http.StatusBadRequest, "empty_body", "the environment file is empty; "+yamlMediaMsg)
	}
	req.FileNamed = req.File != ""
	if req.File == "" {
		req.File = defaultFile
		if f := FormatFile(req.Format); f != "" {
			req.File = f
		}
	}
	if err := checkField("file", req.File, maxFileLen); err != nil {
		return req, err
	}
	if err := checkField("platform", req.Platform, maxNameLen); err != nil {
		return req, err
	}
	if len(req.Targets) > maxTargets {
		return req, newError(http.StatusBadRequest, "bad_request", "too many targets: "+itoa(int64(len(req.Targets)))+" (at most "+itoa(maxTargets)+")")
	}
	for _, t := range req.Targets {
		if t == "" {
			return req, newError(http.StatusBadRequest, "bad_request", "a target name is empty")
		}
		if err := checkField("target", t, maxNameLen); err != nil {
			return req, err
		}
	}
	return req, nil
}

// decodeJSON decodes exactly one JSON object with no unknown fields, so a
// typo ("target" for "targets") is an error rather than silently ignored.
func decodeJSON(body []byte, v any) error {
	if len(bytes.TrimSpace(body)) == 0 {
		return newError(http.StatusBadRequest, "empty_body", "the request body is empty; send a JSON object")
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		e := newError(http.StatusBadRequest, "bad_json", "the JSON body does not decode: "+err.Error())
		var se *json.SyntaxError
		if errors.As(err, &se) {
			e.Line = lineAt(body, se.Offset)
		}
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			e.Line = lineAt(body, te.Offset)
		}
		return e
	}
	if dec.More() {
		return newError(http.StatusBadRequest, "bad_json", "the JSON body holds more than one value")
	}
	if _, err := dec.Token(); err != io.EOF {
		return newError(http.StatusBadRequest, "bad_json", "the JSON body has data after its object")
	}
	return nil
}

func lineAt(b []byte, off int64) int {
	if off < 0 {
		return 0
	}
	if off > int64(len(b)) {
		off = int64(len(b))
	}
	return bytes.Count(b[:off], []byte{'\n'}) + 1
}

func jsonKind(raw json.RawMessage) string {
	switch bytes.TrimSpace(raw)[0] {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case 't', 'f':
		return "a boolean"
	default:
		return "a number"
	}
}

func checkField(name, v string, max int) error {
	if len(v) > max {
		return newError(http.StatusBadRequest, "bad_request", name+" is longer than "+itoa(int64(max))+" bytes")
	}
	for _, c := range v {
		if unicode.IsControl(c) || c == unicode.ReplacementChar {
			return newError(http.StatusBadRequest, "bad_request", name+" "+quote(v)+" holds a control character or invalid UTF-8")
		}
	}
	return nil
}

func quote(s string) string {
	if len(s) > 80 {
		s = s[:80] + "…"
	}
	b, _ := json.Marshal(s)
	return string(b)
}

func itoa[T ~int | ~int64](n T) string { return strconv.FormatInt(int64(n), 10) }
