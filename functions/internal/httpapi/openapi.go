package httpapi

import (
	_ "embed"
	"net/http"
)

// openapiDoc describes the JSON API; a test checks it against Routes and
// validates real requests and responses against it.
//
//go:embed openapi.json
var openapiDoc []byte

func (a *api) openapi(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "public, max-age=300")
	_, _ = w.Write(openapiDoc)
}
