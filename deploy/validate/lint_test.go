package validate

// `helm lint --strict` for every values file (the SDK's own lint action), and a comment on every value.

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"helm.sh/helm/v3/pkg/action"
	"helm.sh/helm/v3/pkg/chartutil"
	"helm.sh/helm/v3/pkg/lint/support"
)

func TestHelmLintStrict(t *testing.T) {
	for file := range valuesFiles {
		t.Run(file, func(t *testing.T) {
			vals, err := chartutil.ReadValuesFile(valuesFile(file))
			if err != nil {
				t.Fatal(err)
			}
			lint := action.NewLint()
			lint.Strict, lint.Namespace, lint.KubeVersion = true, namespace, minKube
			res := lint.Run([]string{chartDir}, vals.AsMap())
			for _, m := range res.Messages {
				if m.Severity > support.InfoSev {
					t.Errorf("lint: %s", m)
				}
			}
			for _, e := range res.Errors {
				t.Errorf("lint error: %v", e)
			}
			if res.TotalChartsLinted != 1 {
				t.Errorf("linted %d charts", res.TotalChartsLinted)
			}
		})
	}
}

var keyLine = regexp.MustCompile(`^(\s*)([A-Za-z][A-Za-z0-9]*):\s*(.*)$`)

// TestEveryValueIsCommented: each key whose value is given on its line (a leaf, [] or {}) has a comment
// line right above it; sections (a key with nothing after the colon) are named by their children.
func TestEveryValueIsCommented(t *testing.T) {
	data, err := os.ReadFile(chartDir + "/values.yaml")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	inBlock := -1 // indentation of a free-form block (accessPolicy.policy, resources...) being skipped
	leaves := 0
	for i, line := range lines {
		m := keyLine.FindStringSubmatch(line)
		if m == nil || strings.HasPrefix(strings.TrimSpace(line), "#") {
			continue
		}
		indent := len(m[1])
		if inBlock >= 0 && indent > inBlock {
			continue // inside an example document the comment above its key describes
		}
		inBlock = -1
		commented := i > 0 && strings.HasPrefix(strings.TrimSpace(lines[i-1]), "#")
		if m[3] == "" {
			if commented { // a commented section is one value (a free-form map): its body is an example
				inBlock = indent
				leaves++
			}
			continue
		}
		leaves++
		if !commented {
			t.Errorf("values.yaml:%d: %q has no comment above it", i+1, strings.TrimSpace(line))
		}
	}
	if leaves < 80 {
		t.Errorf("found only %d values; the check is not reading values.yaml", leaves)
	}
}
