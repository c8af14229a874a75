package businessmanview

import _ "embed"

// openapi is the game's fragment of the JSON API's document: its schemas
// (options, create request, view) and its sentences in the shared
// descriptions.
//
//go:embed openapi.json
var openapi []byte

// OpenAPI is the game's fragment of the JSON API's document.
func (businessGame) OpenAPI() []byte { return openapi }
