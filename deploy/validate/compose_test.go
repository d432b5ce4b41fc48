package validate

// The compose demo (no Docker engine here): every bind-mounted file exists, cipherd's env is env the
// server reads, and Prometheus' config with the rules mounted where the container sees them passes
// `promtool check config`.

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

const composeDir = "../compose"

type composeFile struct {
	Services map[string]struct {
		Environment map[string]string `json:"environment"`
		Volumes     []string          `json:"volumes"`
		Ports       []string          `json:"ports"`
	} `json:"services"`
}

func TestComposeDemo(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join(composeDir, "compose.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var c composeFile
	if err := yaml.Unmarshal(raw, &c); err != nil {
		t.Fatalf("compose.yaml: %v", err)
	}
	for _, want := range []string{"vault", "cipherd", "prometheus", "grafana"} {
		if _, ok := c.Services[want]; !ok {
			t.Errorf("compose.yaml has no %s service", want)
		}
	}
	// Bind mounts: the host side (relative to compose.yaml) must exist; remember where each lands.
	inContainer := map[string]string{} // container path -> host path
	for name, s := range c.Services {
		for _, v := range s.Volumes {
			parts := strings.Split(v, ":")
			host := filepath.Join(composeDir, parts[0])
			if _, err := os.Stat(host); err != nil {
				t.Errorf("service %s mounts %s, which does not exist", name, parts[0])
			}
			if name == "prometheus" {
				inContainer[parts[1]] = host
			}
		}
		for _, p := range s.Ports {
			if !strings.HasPrefix(p, "127.0.0.1:") {
				t.Errorf("service %s publishes %s beyond loopback", name, p)
			}
		}
	}
	serverEnv := serverEnvNames(t)
	for k := range c.Services["cipherd"].Environment {
		if strings.HasPrefix(k, "CIPHERD_") && !serverEnv[k] {
			t.Errorf("compose sets %s, which the server does not read", k)
		}
	}
	// Recreate /etc/prometheus as the container sees it, then let promtool check config and rules.
	etc := t.TempDir()
	for cpath, host := range inContainer {
		rel, ok := strings.CutPrefix(cpath, "/etc/prometheus/")
		if !ok {
			t.Fatalf("prometheus mount %s is outside /etc/prometheus", cpath)
		}
		abs, _ := filepath.Abs(host)
		if err := os.Symlink(abs, filepath.Join(etc, rel)); err != nil {
			t.Fatal(err)
		}
	}
	// Every rule of the mounted rule files is found: as many as the files define.
	rules := 0
	for cpath, host := range inContainer {
		if strings.HasPrefix(cpath, "/etc/prometheus/rules") {
			rules += ruleCount(t, host)
		}
	}
	if rules == 0 {
		t.Fatalf("the compose Prometheus mounts no rules under /etc/prometheus/rules/")
	}
	out, err := exec.Command(promtool(t), "check", "config", filepath.Join(etc, "prometheus.yml")).CombinedOutput()
	if err != nil || !strings.Contains(string(out), fmt.Sprintf("SUCCESS: %d rules found", rules)) {
		t.Errorf("promtool check config of the compose Prometheus (%d rules expected): %v\n%s", rules, err, out)
	}
}

// ruleCount is how many alerting and recording rules the rule file (or folder of them) at path
// defines.
func ruleCount(t *testing.T, path string) int {
	t.Helper()
	files := []string{path}
	if info, err := os.Stat(path); err == nil && info.IsDir() {
		files, _ = filepath.Glob(filepath.Join(path, "*.y*ml"))
	}
	count := 0
	for _, f := range files {
		if strings.HasSuffix(f, ".test.yaml") {
			continue // promtool's unit tests of the rules, not rules
		}
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var doc struct {
			Groups []struct {
				Rules []map[string]any `yaml:"rules"`
			} `yaml:"groups"`
		}
		if err := yaml.Unmarshal(raw, &doc); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for _, g := range doc.Groups {
			count += len(g.Rules)
		}
	}
	return count
}
