package validate

// The commands NOTES.txt prints must work on the release it describes: a key the chart creates
// (server.demoKey) is never created again, and every call names a key the chart or an earlier command made.

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"
)

// notesCall is one grpcurl command of the notes: its method and the key_name of its request.
type notesCall struct {
	Method string
	Key    string
}

var grpcurlData = regexp.MustCompile(`-d '(\{[^']*\})'\s+\S+\s+(cipherd\.v1\.\S+)`)

func notesCalls(t *testing.T, notes string) []notesCall {
	t.Helper()
	joined := strings.ReplaceAll(notes, "\\\n", " ") // continuation lines
	var calls []notesCall
	for _, line := range strings.Split(joined, "\n") {
		if !strings.HasPrefix(strings.TrimSpace(line), "grpcurl ") {
			continue
		}
		m := grpcurlData.FindStringSubmatch(line)
		if m == nil {
			t.Fatalf("a grpcurl command of NOTES.txt without -d '{...}' ADDRESS METHOD: %s", line)
		}
		var req struct {
			KeyName string `json:"key_name"`
		}
		if err := json.Unmarshal([]byte(m[1]), &req); err != nil {
			t.Fatalf("NOTES.txt sends a request that is not JSON: %s: %v", m[1], err)
		}
		calls = append(calls, notesCall{Method: m[2], Key: req.KeyName})
	}
	return calls
}

func TestNotesCallKeysTheReleaseHas(t *testing.T) {
	cases := []struct {
		values string
		set    map[string]any
	}{
		{"", nil},
		{"", map[string]any{"server.demoKey": "demo"}}, // docs/deploy.md installs this way
		{"", map[string]any{"server.demoKey": "payments"}},
		{"mtls-values.yaml", nil},
		{"mtls-values.yaml", map[string]any{"server.demoKey": "demo"}},
		{"vault-kubernetes-values.yaml", nil}, // sets server.demoKey itself
	}
	for _, c := range cases {
		name := c.values
		if name == "" {
			name = "defaults"
		}
		if k, ok := c.set["server.demoKey"]; ok {
			name += ",server.demoKey=" + k.(string)
		}
		t.Run(name, func(t *testing.T) {
			rel, err := renderRelease(t, c.values, c.set)
			if err != nil {
				t.Fatalf("rendering: %v", err)
			}
			made := map[string]bool{}
			if demo := serverConfig(t, rel).Data["CIPHERD_DEMO_KEY"]; demo != "" {
				made[demo] = true
			}
			calls := notesCalls(t, rel.Notes)
			encrypts := 0
			for _, call := range calls {
				switch call.Method {
				case "cipherd.v1.KeyAdminService/CreateKey":
					if made[call.Key] {
						t.Errorf("NOTES.txt creates %q, which exists already (the chart's server.demoKey or an earlier call): ALREADY_EXISTS", call.Key)
					}
					made[call.Key] = true
				default:
					if !made[call.Key] {
						t.Errorf("NOTES.txt calls %s with %q, which neither the chart nor an earlier command made: NOT_FOUND", call.Method, call.Key)
					}
					encrypts++
				}
			}
			if encrypts == 0 {
				t.Errorf("NOTES.txt shows no call to try: %v", calls)
			}
		})
	}
}
