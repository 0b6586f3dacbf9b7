// chart-render: renders a Helm chart's templates offline, for tests, with Go's text/template and
// the sprig function library (the engine Helm itself uses). It implements the part of Helm the
// kvstore charts use:
//   - values: values.yaml, then each -f file coalesced over it (maps merge, null deletes a key),
//     all numbers as float64 (Helm reads values through JSON, so 50000000 prints as 5e+07);
//   - the objects .Values, .Release (Name, Namespace, Service, IsInstall, IsUpgrade, Revision),
//     .Chart (from Chart.yaml), .Capabilities (KubeVersion, APIVersions.Has), .Template;
//   - Helm's own functions: include, tpl, required, toYaml, fromYaml, fromYamlArray, toJson,
//     fromJson, fromJsonArray, lookup (always empty, as in `helm template`); sprig minus env/expandenv;
//   - missing keys render empty; templates whose names start with `_` are only definitions;
//     NOTES.txt is rendered separately; files rendering to blank are dropped.
//
// Usage: chart-render --chart DIR [--name R] [--namespace NS] [--api-versions g/v,...] [-f FILE]...
// Output (stdout, JSON): {"manifests": {"<chart>/templates/x.yaml": "..."}, "notes": "...", "values": {...}}.
// Any template error: message on stderr, exit status 1.
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"text/template"

	"github.com/Masterminds/sprig/v3"
	yaml "gopkg.in/yaml.v2"
)

type chartMeta struct {
	APIVersion  string `json:"apiVersion"`
	Name        string `json:"name"`
	Version     string `json:"version"`
	AppVersion  string `json:"appVersion"`
	Description string `json:"description"`
	Type        string `json:"type"`
	KubeVersion string `json:"kubeVersion"`
}

// apiVersions mirrors Helm's chartutil.VersionSet.
type apiVersions []string

// Has reports whether a group/version (or group/version/Kind) is served.
func (v apiVersions) Has(want string) bool {
	for _, x := range v {
		if x == want {
			return true
		}
	}
	return false
}

type kubeVersion struct {
	Version, Major, Minor, GitVersion string
}

func (k kubeVersion) String() string { return k.Version }

type capabilities struct {
	KubeVersion kubeVersion
	APIVersions apiVersions
}

type stringList []string

func (s *stringList) String() string     { return strings.Join(*s, ",") }
func (s *stringList) Set(v string) error { *s = append(*s, v); return nil }

// defaultAPIVersions: the built-in groups of a current Kubernetes (what `helm template` assumes).
var defaultAPIVersions = []string{
	"v1", "apps/v1", "batch/v1", "policy/v1", "autoscaling/v2", "networking.k8s.io/v1",
	"rbac.authorization.k8s.io/v1", "coordination.k8s.io/v1", "apiextensions.k8s.io/v1",
	"storage.k8s.io/v1", "scheduling.k8s.io/v1", "events.k8s.io/v1", "discovery.k8s.io/v1",
	"admissionregistration.k8s.io/v1", "certificates.k8s.io/v1",
}

func main() {
	chartDir := flag.String("chart", "", "chart directory")
	name := flag.String("name", "release-name", "release name")
	namespace := flag.String("namespace", "default", "release namespace")
	extraAPIs := flag.String("api-versions", "", "extra API versions, comma separated")
	var files stringList
	flag.Var(&files, "f", "values file (repeatable; later files win)")
	flag.Parse()
	if *chartDir == "" {
		fail(errors.New("--chart is required"))
	}
	out, err := render(*chartDir, *name, *namespace, *extraAPIs, files)
	if err != nil {
		fail(err)
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(out); err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "chart-render:", err)
	os.Exit(1)
}

type result struct {
	Manifests map[string]string      `json:"manifests"`
	Notes     string                 `json:"notes"`
	Values    map[string]interface{} `json:"values"`
}

func render(chartDir, release, namespace, extraAPIs string, valueFiles []string) (*result, error) {
	var meta chartMeta
	if err := readYAMLInto(filepath.Join(chartDir, "Chart.yaml"), &meta); err != nil {
		return nil, fmt.Errorf("Chart.yaml: %w", err)
	}
	values, err := readValues(filepath.Join(chartDir, "values.yaml"))
	if err != nil {
		return nil, fmt.Errorf("values.yaml: %w", err)
	}
	for _, f := range valueFiles {
		over, err := readValues(f)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		values = coalesce(over, values)
	}

	apis := apiVersions(append([]string{}, defaultAPIVersions...))
	if extraAPIs != "" {
		apis = append(apis, strings.Split(extraAPIs, ",")...)
	}
	top := map[string]interface{}{
		"Values": values,
		"Release": map[string]interface{}{
			"Name": release, "Namespace": namespace, "Service": "Helm",
			"IsInstall": true, "IsUpgrade": false, "Revision": 1,
		},
		"Chart": meta,
		"Capabilities": capabilities{
			KubeVersion: kubeVersion{Version: "v1.31.0", Major: "1", Minor: "31", GitVersion: "v1.31.0"},
			APIVersions: apis,
		},
		"Files": map[string]interface{}{},
	}

	root := template.New("chart")
	root.Option("missingkey=zero")
	root.Funcs(funcMap(root))
	names, err := parseTemplates(root, chartDir, meta.Name)
	if err != nil {
		return nil, err
	}
	out := &result{Manifests: map[string]string{}, Values: values}
	for _, n := range names {
		base := path.Base(n)
		if strings.HasPrefix(base, "_") {
			continue
		}
		scope := copyMap(top)
		scope["Template"] = map[string]interface{}{"Name": n, "BasePath": meta.Name + "/templates"}
		var buf bytes.Buffer
		if err := root.ExecuteTemplate(&buf, n, scope); err != nil {
			return nil, err
		}
		text := strings.ReplaceAll(buf.String(), "<no value>", "")
		if base == "NOTES.txt" {
			out.Notes = text
			continue
		}
		if strings.TrimSpace(text) == "" {
			continue
		}
		out.Manifests[n] = text
	}
	return out, nil
}

// parseTemplates adds every file under templates/ to root, named `<chart>/templates/<path>`.
func parseTemplates(root *template.Template, chartDir, chartName string) ([]string, error) {
	var names []string
	dir := filepath.Join(chartDir, "templates")
	err := filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		n := chartName + "/templates/" + filepath.ToSlash(rel)
		text, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if _, err := root.New(n).Parse(string(text)); err != nil {
			return err
		}
		names = append(names, n)
		return nil
	})
	sort.Strings(names)
	return names, err
}

func funcMap(root *template.Template) template.FuncMap {
	f := sprig.TxtFuncMap()
	delete(f, "env")
	delete(f, "expandenv")
	includeDepth := map[string]int{}
	f["include"] = func(name string, data interface{}) (string, error) {
		includeDepth[name]++
		defer func() { includeDepth[name]-- }()
		if includeDepth[name] > 1000 {
			return "", fmt.Errorf("rendering template has a nested reference name: %s", name)
		}
		var buf bytes.Buffer
		if err := root.ExecuteTemplate(&buf, name, data); err != nil {
			return "", err
		}
		return buf.String(), nil
	}
	f["tpl"] = func(text string, data interface{}) (string, error) {
		t, err := root.Clone()
		if err != nil {
			return "", err
		}
		t.Option("missingkey=zero")
		if _, err := t.New("tpl").Parse(text); err != nil {
			return "", fmt.Errorf("cannot parse template %q: %w", text, err)
		}
		var buf bytes.Buffer
		if err := t.ExecuteTemplate(&buf, "tpl", data); err != nil {
			return "", err
		}
		return strings.ReplaceAll(buf.String(), "<no value>", ""), nil
	}
	f["required"] = func(warn string, val interface{}) (interface{}, error) {
		if val == nil {
			return val, errors.New(warn)
		}
		if s, ok := val.(string); ok && s == "" {
			return val, errors.New(warn)
		}
		return val, nil
	}
	f["toYaml"] = func(v interface{}) string {
		s, err := toYAML(v)
		if err != nil {
			return ""
		}
		return strings.TrimSuffix(s, "\n")
	}
	f["fromYaml"] = func(s string) map[string]interface{} {
		var m map[string]interface{}
		if err := yamlToJSONValue([]byte(s), &m); err != nil {
			return map[string]interface{}{"Error": err.Error()}
		}
		return m
	}
	f["fromYamlArray"] = func(s string) []interface{} {
		var a []interface{}
		if err := yamlToJSONValue([]byte(s), &a); err != nil {
			return []interface{}{err.Error()}
		}
		return a
	}
	f["toJson"] = func(v interface{}) string {
		b, err := json.Marshal(v)
		if err != nil {
			return ""
		}
		return string(b)
	}
	f["fromJson"] = func(s string) map[string]interface{} {
		m := map[string]interface{}{}
		if err := json.Unmarshal([]byte(s), &m); err != nil {
			m["Error"] = err.Error()
		}
		return m
	}
	f["fromJsonArray"] = func(s string) []interface{} {
		var a []interface{}
		if err := json.Unmarshal([]byte(s), &a); err != nil {
			return []interface{}{err.Error()}
		}
		return a
	}
	f["lookup"] = func(apiVersion, kind, namespace, name string) (map[string]interface{}, error) {
		return map[string]interface{}{}, nil
	}
	return f
}

// toYAML is Helm's toYaml: through JSON (so keys are sorted and struct tags apply), then YAML.
func toYAML(v interface{}) (string, error) {
	j, err := json.Marshal(v)
	if err != nil {
		return "", err
	}
	var obj interface{}
	if err := yaml.Unmarshal(j, &obj); err != nil {
		return "", err
	}
	b, err := yaml.Marshal(obj)
	return string(b), err
}

func readYAMLInto(file string, into interface{}) error {
	b, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	return yamlToJSONValue(b, into)
}

// readValues reads a values file the way Helm does: YAML converted through JSON.
func readValues(file string) (map[string]interface{}, error) {
	m := map[string]interface{}{}
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	if len(bytes.TrimSpace(b)) == 0 {
		return m, nil
	}
	if err := yamlToJSONValue(b, &m); err != nil {
		return nil, err
	}
	if m == nil {
		m = map[string]interface{}{}
	}
	return m, nil
}

// yamlToJSONValue decodes YAML into `into` through JSON (numbers become float64, keys strings).
func yamlToJSONValue(b []byte, into interface{}) error {
	var raw interface{}
	if err := yaml.Unmarshal(b, &raw); err != nil {
		return err
	}
	clean, err := stringKeys(raw)
	if err != nil {
		return err
	}
	j, err := json.Marshal(clean)
	if err != nil {
		return err
	}
	return json.Unmarshal(j, into)
}

func stringKeys(v interface{}) (interface{}, error) {
	switch t := v.(type) {
	case map[interface{}]interface{}:
		m := make(map[string]interface{}, len(t))
		for k, x := range t {
			c, err := stringKeys(x)
			if err != nil {
				return nil, err
			}
			m[fmt.Sprint(k)] = c
		}
		return m, nil
	case []interface{}:
		a := make([]interface{}, len(t))
		for i, x := range t {
			c, err := stringKeys(x)
			if err != nil {
				return nil, err
			}
			a[i] = c
		}
		return a, nil
	default:
		return v, nil
	}
}

// coalesce merges `over` onto `base` like Helm: nested maps merge, other values replace,
// a null in `over` removes the key.
func coalesce(over, base map[string]interface{}) map[string]interface{} {
	out := copyMap(base)
	for k, v := range over {
		if v == nil {
			delete(out, k)
			continue
		}
		om, oIsMap := v.(map[string]interface{})
		bm, bIsMap := out[k].(map[string]interface{})
		if oIsMap && bIsMap {
			out[k] = coalesce(om, bm)
		} else {
			out[k] = v
		}
	}
	return out
}

func copyMap(m map[string]interface{}) map[string]interface{} {
	out := make(map[string]interface{}, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}
