// Command openapi writes the JSON API's document as the service serves
// it, assembled from the base and every registered game's fragment:
//
//	go generate ./functions/internal/httpapi   # rewrites functions/internal/httpapi/openapi.json
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/pbmgames/pbm/functions/internal/catalog"
	"github.com/pbmgames/pbm/functions/internal/httpapi"
)

func main() {
	out := flag.String("o", "", "the file to write (empty: standard output)")
	flag.Parse()
	doc, err := httpapi.OpenAPI(catalog.Games())
	if err == nil {
		if *out == "" {
			_, err = os.Stdout.Write(doc)
		} else {
			err = os.WriteFile(*out, doc, 0o644)
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "openapi:", err)
		os.Exit(1)
	}
}
