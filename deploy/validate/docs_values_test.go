package validate

// Values files shown in the docs must be ones the chart accepts: its values.schema.json refuses unknown
// keys, so a README naming values the chart does not have fails here instead of at a reader's install.

import (
	"os"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

// yamlBlockStarting returns the first ```yaml block of a Markdown file whose first line starts with prefix.
func yamlBlockStarting(t *testing.T, path, prefix string) string {
	t.Helper()
	text, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, part := range strings.Split(string(text), "```yaml\n")[1:] {
		block := strings.SplitN(part, "```", 2)[0]
		if strings.HasPrefix(block, prefix) {
			return block
		}
	}
	t.Fatalf("%s has no yaml block starting with %q", path, prefix)
	return ""
}

func TestLoadtestReadmeValuesRender(t *testing.T) {
	block := yamlBlockStarting(t, "../../loadtest/README.md", "# values-arm64.yaml")
	var values map[string]any
	if err := yaml.UnmarshalStrict([]byte(block), &values); err != nil {
		t.Fatalf("loadtest/README.md's values are not YAML: %v", err)
	}
	rel, err := renderRelease(t, "", values)
	if err != nil {
		t.Fatalf("the chart refuses loadtest/README.md's values: %v", err)
	}
	if len(notesCalls(t, rel.Notes)) == 0 || !strings.Contains(rel.Notes, "helm test kms") {
		t.Errorf("with loadtest/README.md's values the notes show no ghz test:\n%s", rel.Notes)
	}
}
