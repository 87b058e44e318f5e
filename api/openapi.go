package api

import _ "embed"

// OpenAPI is the service's OpenAPI document, served at /openapi.yaml. The
// tests check every response they receive against it.
//
//go:embed openapi.yaml
var OpenAPI []byte
