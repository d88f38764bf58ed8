// Package api holds Stockroom's OpenAPI 3.1 description, the contract that
// the server, its tests and the client SDK are held to. It is written as
// YAML (openapi.yaml, beside this file) and served as JSON.
package api

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"sync"

	"go.yaml.in/yaml/v4"
)

// YAML is the document as written.
//
//go:embed openapi.yaml
var YAML []byte

var (
	jsonOnce sync.Once
	jsonDoc  []byte
	jsonErr  error
)

// JSON returns the document as JSON, converted once.
func JSON() ([]byte, error) {
	jsonOnce.Do(func() {
		var v any
		if err := yaml.Unmarshal(YAML, &v); err != nil {
			jsonErr = fmt.Errorf("openapi.yaml: %w", err)
			return
		}
		jsonDoc, jsonErr = json.Marshal(v)
	})
	return jsonDoc, jsonErr
}
