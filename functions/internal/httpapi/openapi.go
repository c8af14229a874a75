package httpapi

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"text/template"
	"unicode"
	"unicode/utf8"

	"github.com/pbmgames/pbm/functions/internal/present"
)

//go:generate go run ../catalog/cmd/openapi -o openapi.json

// openapiBase is the document without its games: a template (delimited
// by <% %>) whose functions fill in each registered game's fragment (see
// gameDoc): its kind in the lists of kinds, its schemas, its sentences in
// the shared descriptions.
//
//go:embed openapi.tmpl
var openapiBase string

// openapiCreate is a game's create request, made from its kind, name and
// options' schema (createSchema).
//
//go:embed openapi_create.tmpl
var openapiCreate string

// gameDoc is one game's fragment of the document, its openapi.json
// (present.File).
type gameDoc struct {
	Kind string `json:"-"`
	// The names of its options and its view schema; its create request,
	// Create<name> for options <name>Options, is made (createSchema).
	Options string `json:"options"`
	Create  string `json:"-"`
	View    string `json:"view"`
	// Text is what the game adds to a shared description, by the
	// description's key; a game that adds nothing leaves the key out.
	Text map[string]string `json:"text"`
	// Schemas are its schemas by where the document lists them
	// ("options", "view"; "create" is made), each group in its own order.
	Schemas map[string]orderedSchemas `json:"schemas"`
}

// orderedSchemas are named schemas in the order they are written.
type orderedSchemas []namedSchema

type namedSchema struct {
	Name   string
	Schema json.RawMessage
}

// UnmarshalJSON reads an object, keeping the order of its members.
func (o *orderedSchemas) UnmarshalJSON(b []byte) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return fmt.Errorf("schemas: want an object")
	}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return fmt.Errorf("schemas: %w", err)
		}
		var s namedSchema
		s.Name, _ = t.(string)
		if err := dec.Decode(&s.Schema); err != nil {
			return fmt.Errorf("schemas %s: %w", s.Name, err)
		}
		*o = append(*o, s)
	}
	return nil
}

// OpenAPI is the document describing the JSON API of gs: the base with
// every game's fragment, in the order of gs. The file openapi.json beside
// this one is its copy, for the catalog's games, for readers and tools
// (go generate writes it; a test checks it is the one served).
func OpenAPI(gs *present.Games) ([]byte, error) {
	var docs []gameDoc
	for _, kind := range gs.Kinds() {
		f, ok := present.File(gs.For(kind), "openapi.json")
		if !ok {
			return nil, fmt.Errorf("openapi: game %s has no fragment", kind)
		}
		d := gameDoc{Kind: kind}
		if err := json.Unmarshal(f, &d); err != nil {
			return nil, fmt.Errorf("openapi: fragment of %s: %w", kind, err)
		}
		info, _ := gs.Engines().Lookup(kind)
		if err := d.createSchema(info.RU); err != nil {
			return nil, fmt.Errorf("openapi: create request of %s: %w", kind, err)
		}
		docs = append(docs, d)
	}
	return assembleOpenAPI(docs)
}

// createSchema makes the game's create request from its kind, its
// Russian name and its options' schema: the same for every game but for
// those, it is not in the games' fragments.
func (d *gameDoc) createSchema(ru string) error {
	name, ok := strings.CutSuffix(d.Options, "Options")
	if !ok || name == "" {
		return fmt.Errorf("options schema %q: want <Name>Options", d.Options)
	}
	t, err := template.New("create").Delims("<%", "%>").Funcs(template.FuncMap{"quote": quote}).Parse(openapiCreate)
	if err != nil {
		return err
	}
	var b bytes.Buffer
	if err := t.Execute(&b, map[string]string{"Kind": d.Kind, "RU": escape(ru), "Options": d.Options}); err != nil {
		return err
	}
	if !json.Valid(b.Bytes()) {
		return errors.New("not JSON")
	}
	d.Create = "Create" + name
	if d.Schemas == nil {
		d.Schemas = map[string]orderedSchemas{}
	}
	d.Schemas["create"] = orderedSchemas{{Name: d.Create, Schema: bytes.TrimSpace(b.Bytes())}}
	return nil
}

// assembleOpenAPI fills the base with the games' fragments and indents it.
func assembleOpenAPI(docs []gameDoc) ([]byte, error) {
	join := func(each func(gameDoc) string, sep string) string {
		var out []string
		for _, d := range docs {
			if s := each(d); s != "" {
				out = append(out, s)
			}
		}
		return strings.Join(out, sep)
	}
	name := func(d gameDoc, role string) string {
		return map[string]string{"options": d.Options, "create": d.Create, "view": d.View}[role]
	}
	funcs := template.FuncMap{
		// kinds lists the games' kinds, as JSON strings.
		"kinds": func() string { return join(func(d gameDoc) string { return quote(d.Kind) }, ", ") },
		// schemas writes the members of a group of schemas.
		"schemas": func(group string) string {
			return join(func(d gameDoc) string {
				var ms []string
				for _, s := range d.Schemas[group] {
					ms = append(ms, quote(s.Name)+": "+string(s.Schema))
				}
				return strings.Join(ms, ", ")
			}, ", ")
		},
		// refs lists references to each game's schema of a role.
		"refs": func(role string) string {
			return join(func(d gameDoc) string { return `{"$ref": ` + quote("#/components/schemas/"+name(d, role)) + "}" }, ", ")
		},
		// mapping maps each kind to its schema of a role.
		"mapping": func(role string) string {
			return join(func(d gameDoc) string { return quote(d.Kind) + ": " + quote("#/components/schemas/"+name(d, role)) }, ", ")
		},
		// names are the names of the games' schemas of a role, in words.
		"names": func(role, sep string) string {
			return escape(join(func(d gameDoc) string { return name(d, role) }, sep))
		},
		// text joins what the games add to a description.
		"text": func(key, sep string) string {
			return escape(join(func(d gameDoc) string { return d.Text[key] }, sep))
		},
		// capital starts a sentence.
		"capital": func(s string) string {
			r, n := utf8.DecodeRuneInString(s)
			return string(unicode.ToUpper(r)) + s[n:]
		},
	}
	t, err := template.New("openapi").Delims("<%", "%>").Funcs(funcs).Parse(openapiBase)
	if err != nil {
		return nil, fmt.Errorf("openapi: %w", err)
	}
	var raw bytes.Buffer
	if err := t.Execute(&raw, docs); err != nil {
		return nil, fmt.Errorf("openapi: %w", err)
	}
	var out bytes.Buffer
	if err := json.Indent(&out, bytes.TrimSpace(raw.Bytes()), "", "  "); err != nil {
		return nil, fmt.Errorf("openapi: the assembled document is not JSON: %w", err)
	}
	out.WriteByte('\n')
	return out.Bytes(), nil
}

// quote writes s as a JSON string, as the document writes its text.
func quote(s string) string { return `"` + escape(s) + `"` }

// escape writes s as the inside of a JSON string.
func escape(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	q := strings.TrimSpace(b.String())
	return q[1 : len(q)-1]
}

func (a *api) openapi(w http.ResponseWriter, r *http.Request) {
	doc, err := a.openapiDoc()
	if err != nil {
		a.fail(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "public, max-age=300")
	_, _ = w.Write(doc)
}
