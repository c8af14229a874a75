package businessmanview

import (
	"embed"
	"io/fs"
)

// files are what the game brings to the shared parts besides its code
// (present.Files): its phrases by key, its rules page in each language
// and its part of the JSON API's document.
//
//go:embed texts.json rules.ru.html rules.en.html openapi.json
var files embed.FS

// Files are the game's own files (present.Filer).
func (businessGame) Files() fs.FS { return files }
