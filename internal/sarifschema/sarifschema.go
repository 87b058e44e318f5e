// Package sarifschema checks a SARIF log, as written, against the SARIF
// 2.1.0 JSON schema (OASIS, errata 01; the copy go-sarif embeds). Tests of
// report/ and cli/ use it. It validates the bytes themselves: decoding into
// go-sarif's types first would fill in the very defaults ([] and -1) that
// envguard leaves out.
package sarifschema

import (
	"bytes"
	_ "embed"
	"fmt"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

//go:embed sarif-schema-2.1.0.json
var schemaJSON []byte

const schemaURL = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"

var compiled = sync.OnceValues(func() (*jsonschema.Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schemaJSON))
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource(schemaURL, doc); err != nil {
		return nil, err
	}
	return c.Compile(schemaURL)
})

// Validate returns nil when log is a valid SARIF 2.1.0 document.
func Validate(log []byte) error {
	sch, err := compiled()
	if err != nil {
		return fmt.Errorf("compiling the SARIF schema: %w", err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(log))
	if err != nil {
		return fmt.Errorf("SARIF is not JSON: %w", err)
	}
	return sch.Validate(inst)
}
