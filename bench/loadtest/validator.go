package main

import (
	"github.com/envguard/envguard/api"
	"github.com/envguard/envguard/service"
)

// newValidator is the real pipeline, as `envguard serve` wires it:
// go run ./bench/loadtest
func newValidator() api.Validator { return service.Deps(service.Options{}).Validator }

const validatorKind = "pipeline (package service)"
