package validate

// Renders the chart the way `helm install --dry-run` does (the Helm Go SDK, client-only) and decodes every
// rendered object strictly into its Kubernetes API type: an unknown or misspelt field fails the test.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	"helm.sh/helm/v3/pkg/action"
	"helm.sh/helm/v3/pkg/chart/loader"
	"helm.sh/helm/v3/pkg/chartutil"
	"helm.sh/helm/v3/pkg/releaseutil"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/kubernetes/scheme"
	"sigs.k8s.io/yaml"
)

const (
	chartDir    = "../../helm/cipherd"
	releaseName = "kms"
	namespace   = "crypto"
)

// minKube is the oldest Kubernetes the chart declares (Chart.yaml kubeVersion); rendering for it proves the
// chart's API versions and fields (preStop sleep, matchLabelKeys) are there.
var minKube = &chartutil.KubeVersion{Version: "v1.30.0", Major: "1", Minor: "30"}

// rendered is one object of a release: the template it came from, and the typed, strictly decoded object.
type rendered struct {
	Source string // e.g. "cipherd/templates/server-deployment.yaml"
	Kind   string
	Name   string
	Hook   bool
	Obj    runtime.Object
}

// release is everything one values file renders.
type release struct {
	Objects []rendered
	Notes   string
}

func valuesFile(name string) string { return filepath.Join(chartDir, "ci", name) }

// renderRelease renders the chart with the given values file ("" for the defaults) and extra --set style values.
func renderRelease(t *testing.T, values string, set map[string]any) (*release, error) {
	t.Helper()
	// Without a values file: the defaults plus the two things the chart will not choose (the refusals
	// test takes them out again): the server's certificate, and the access-policy opt-out.
	vals := map[string]any{"accessPolicy": map[string]any{"insecureAllowEveryCallerEveryKey": true},
		"tls": map[string]any{"secretName": "cipherd-tls"}}
	var err error
	if values != "" {
		vals, err = chartutil.ReadValuesFile(valuesFile(values))
		if err != nil {
			t.Fatalf("reading %s: %v", values, err)
		}
	}
	for k, v := range set {
		setPath(vals, strings.Split(k, "."), v)
	}
	return renderValues(t, vals)
}

// renderValues renders the chart with exactly these values over values.yaml (as `helm install -f`).
func renderValues(t *testing.T, vals map[string]any) (*release, error) {
	t.Helper()
	chrt, err := loader.Load(chartDir)
	if err != nil {
		t.Fatalf("loading the chart: %v", err)
	}
	install := action.NewInstall(&action.Configuration{Log: t.Logf})
	install.DryRun, install.ClientOnly, install.Replace = true, true, true
	install.ReleaseName, install.Namespace = releaseName, namespace
	install.KubeVersion = minKube
	rel, err := install.Run(chrt, vals)
	if err != nil {
		return nil, err
	}
	out := &release{Notes: rel.Info.Notes}
	for _, m := range releaseutil.SplitManifests(rel.Manifest) {
		out.Objects = append(out.Objects, decodeStrict(t, m, false))
	}
	for _, h := range rel.Hooks {
		out.Objects = append(out.Objects, decodeStrict(t, "# Source: "+h.Path+"\n"+h.Manifest, true))
	}
	sort.Slice(out.Objects, func(i, j int) bool {
		return out.Objects[i].Source+out.Objects[i].Kind < out.Objects[j].Source+out.Objects[j].Kind
	})
	return out, nil
}

func mustRender(t *testing.T, values string) *release {
	t.Helper()
	rel, err := renderRelease(t, values, nil)
	if err != nil {
		t.Fatalf("rendering with %q: %v", values, err)
	}
	return rel
}

func setPath(m map[string]any, path []string, v any) {
	for _, p := range path[:len(path)-1] {
		next, ok := m[p].(map[string]any)
		if !ok {
			next = map[string]any{}
			m[p] = next
		}
		m = next
	}
	m[path[len(path)-1]] = v
}

var sourceLine = regexp.MustCompile(`(?m)^# Source: (\S+)`)

// decodeStrict turns one rendered manifest into its typed object, refusing duplicate keys and unknown fields.
func decodeStrict(t *testing.T, manifest string, hook bool) rendered {
	t.Helper()
	src := ""
	if m := sourceLine.FindStringSubmatch(manifest); m != nil {
		src = m[1]
	}
	js, err := yaml.YAMLToJSONStrict([]byte(manifest))
	if err != nil {
		t.Fatalf("%s: not strict YAML: %v", src, err)
	}
	var head struct {
		APIVersion string `json:"apiVersion"`
		Kind       string `json:"kind"`
		Metadata   struct {
			Name string `json:"name"`
		} `json:"metadata"`
	}
	if err := json.Unmarshal(js, &head); err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	obj, err := newTyped(schema.FromAPIVersionAndKind(head.APIVersion, head.Kind))
	if err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	dec := json.NewDecoder(bytes.NewReader(js))
	dec.DisallowUnknownFields()
	if err := dec.Decode(obj); err != nil {
		t.Fatalf("%s (%s %s): does not decode strictly into %T: %v", src, head.Kind, head.Metadata.Name, obj, err)
	}
	return rendered{Source: src, Kind: head.Kind, Name: head.Metadata.Name, Hook: hook, Obj: obj}
}

// newTyped returns an empty object of the Go type Kubernetes (or the Prometheus Operator) uses for gvk.
func newTyped(gvk schema.GroupVersionKind) (runtime.Object, error) {
	if gvk.Group == monitoringv1.SchemeGroupVersion.Group {
		if gvk == monitoringv1.SchemeGroupVersion.WithKind("ServiceMonitor") {
			return &monitoringv1.ServiceMonitor{}, nil
		}
		return nil, fmt.Errorf("no type for %s", gvk)
	}
	return scheme.Scheme.New(gvk)
}

// only returns the one object of type T in the release, failing unless there is exactly one.
func only[T runtime.Object](t *testing.T, rel *release) T {
	t.Helper()
	all := all[T](rel)
	if len(all) != 1 {
		var zero T
		t.Fatalf("want exactly one %T, got %d", zero, len(all))
	}
	return all[0]
}

func all[T runtime.Object](rel *release) []T {
	var out []T
	for _, o := range rel.Objects {
		if typed, ok := o.Obj.(T); ok {
			out = append(out, typed)
		}
	}
	return out
}

func kinds(rel *release) []string {
	var out []string
	for _, o := range rel.Objects {
		k := o.Kind + "/" + o.Name
		if o.Hook {
			k += " (hook)"
		}
		out = append(out, k)
	}
	return out
}

func TestMain(m *testing.M) {
	if _, err := os.Stat(filepath.Join(chartDir, "Chart.yaml")); err != nil {
		fmt.Fprintln(os.Stderr, "run from deploy/validate:", err)
		os.Exit(2)
	}
	os.Exit(m.Run())
}
