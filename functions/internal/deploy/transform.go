package deploy

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"sync"

	"github.com/awslabs/goformation/v7/intrinsics"
)

// samTransformScript runs samtranslator on a template (see its comments).
//
//go:embed samtransform.py
var samTransformScript string

// Region is the region the transform translates for: samconfig.toml's.
const Region = "eu-central-1"

// Template is a CloudFormation template as JSON: the SAM template as
// written (Source), or the transform's output. Intrinsic functions are
// kept as written ({"Ref": "Table"}); Stack.Resolve resolves them.
type Template struct {
	AWSTemplateFormatVersion string
	Description              string
	Parameters               map[string]Parameter
	Conditions               map[string]any
	Resources                map[string]Resource
	Outputs                  map[string]any
	Mappings                 map[string]any
}

// Parameter is a template parameter; only its default matters here.
type Parameter struct {
	Type    string
	Default any
}

// Resource is a template resource, its properties left as JSON.
type Resource struct {
	Type                string
	Condition           string
	DependsOn           any
	Metadata            map[string]any
	Properties          json.RawMessage
	DeletionPolicy      string
	UpdateReplacePolicy string
}

// Props decodes a resource's properties into T.
func Props[T any](r Resource) (T, error) {
	var out T
	if len(r.Properties) == 0 {
		return out, nil
	}
	err := json.Unmarshal(r.Properties, &out)
	return out, err
}

// OfType lists the logical ids of the resources of type typ, sorted.
func (t *Template) OfType(typ string) []string {
	var out []string
	for id, r := range t.Resources {
		if r.Type == typ {
			out = append(out, id)
		}
	}
	sort.Strings(out)
	return out
}

// Transformed is the SAM template and what the transform made of it.
type Transformed struct {
	SourceYAML []byte   // template.yaml as written
	Source     Template // the same, as JSON
	Template            // the transform's output
	JSON       []byte   // the transform's output as the translator wrote it
}

var (
	transformOnce sync.Once
	transformed   *Transformed
	transformErr  error
)

// Transform runs the SAM transform on root/template.yaml with the local
// samtranslator (python3, or $PYTHON), once per process.
func Transform(root string) (*Transformed, error) {
	transformOnce.Do(func() { transformed, transformErr = transform(root) })
	return transformed, transformErr
}

func transform(root string) (*Transformed, error) {
	src, err := os.ReadFile(filepath.Join(root, "template.yaml"))
	if err != nil {
		return nil, err
	}
	// YAML with CloudFormation's short forms (!Ref, !Sub...) into JSON,
	// the intrinsic functions kept as written.
	js, err := intrinsics.ProcessYAML(src, &intrinsics.ProcessorOptions{NoProcess: true})
	if err != nil {
		return nil, fmt.Errorf("template.yaml: %w", err)
	}
	out := &Transformed{SourceYAML: src}
	if err := json.Unmarshal(js, &out.Source); err != nil {
		return nil, fmt.Errorf("template.yaml: %w", err)
	}
	python := os.Getenv("PYTHON")
	if python == "" {
		python = "python3"
	}
	cmd := exec.Command(python, "-c", samTransformScript, Region)
	cmd.Stdin = bytes.NewReader(js)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		var exit *exec.ExitError
		if errors.As(err, &exit) && bytes.Contains(stderr.Bytes(), []byte("No module named 'samtranslator'")) {
			return nil, fmt.Errorf("the SAM transform needs samtranslator in %s (cfn-lint brings it; .ci/run installs it): %w", python, err)
		}
		return nil, fmt.Errorf("the SAM transform (%s, samtranslator): %w\n%s", python, err, stderr.Bytes())
	}
	out.JSON = stdout.Bytes()
	if err := json.Unmarshal(out.JSON, &out.Template); err != nil {
		return nil, fmt.Errorf("the SAM transform's output: %w", err)
	}
	return out, nil
}
