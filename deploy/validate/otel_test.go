package validate

// Traces: off by default (no CIPHERD_OTEL_* at all); otel.endpoint turns them on with the sampling ratio,
// service name and trust in the caller's sampling the values say, names the server reads, and, with egress
// restricted, one more egress rule: to the collector's port.

import (
	"testing"

	networkingv1 "k8s.io/api/networking/v1"
)

var otelEnv = []string{"CIPHERD_OTEL_ENDPOINT", "CIPHERD_OTEL_SAMPLING_RATIO", "CIPHERD_OTEL_SERVICE_NAME",
	"CIPHERD_OTEL_TRUST_PARENT_SAMPLING"}

func TestTracingIsOffByDefault(t *testing.T) {
	rel := mustRender(t, "default-values.yaml")
	data := serverConfig(t, rel).Data
	for _, name := range otelEnv {
		if v, ok := data[name]; ok {
			t.Errorf("%s=%q by default; tracing must be opt-in", name, v)
		}
	}
	if n := len(only[*networkingv1.NetworkPolicy](t, rel).Spec.Egress); n != 2 {
		t.Errorf("%d egress rules without tracing, want 2 (DNS, Vault)", n)
	}
}

func TestTracingValuesReachTheServer(t *testing.T) {
	rel, err := renderRelease(t, "", map[string]any{
		"accessPolicy": map[string]any{"insecureAllowEveryCallerEveryKey": true},
		"otel": map[string]any{"endpoint": "http://otel-collector.observability:4317", "samplingRatio": 0.25,
			"serviceName": "cipherd-eu1", "trustParentSampling": false},
		"networkPolicy": map[string]any{"otelEgress": map[string]any{"port": 4318}},
	})
	if err != nil {
		t.Fatal(err)
	}
	data := serverConfig(t, rel).Data
	want := map[string]string{
		"CIPHERD_OTEL_ENDPOINT":              "http://otel-collector.observability:4317",
		"CIPHERD_OTEL_SAMPLING_RATIO":        "0.25",
		"CIPHERD_OTEL_SERVICE_NAME":          "cipherd-eu1",
		"CIPHERD_OTEL_TRUST_PARENT_SAMPLING": "false",
	}
	read := serverEnvNames(t)
	for name, value := range want {
		if data[name] != value {
			t.Errorf("%s=%q, want %q", name, data[name], value)
		}
		if !read[name] {
			t.Errorf("the chart sets %s, which the server's --help does not document", name)
		}
	}
	egress := only[*networkingv1.NetworkPolicy](t, rel).Spec.Egress
	if len(egress) != 3 || len(egress[2].Ports) != 1 || egress[2].Ports[0].Port.IntValue() != 4318 {
		t.Errorf("with tracing on, want a third egress rule to the collector's port 4318: %+v", egress)
	}
}

func TestTracingDefaultsSampleATenthAndTrustTheCaller(t *testing.T) {
	rel, err := renderRelease(t, "", map[string]any{
		"accessPolicy": map[string]any{"insecureAllowEveryCallerEveryKey": true},
		"otel":         map[string]any{"endpoint": "https://collector:4317"},
	})
	if err != nil {
		t.Fatal(err)
	}
	data := serverConfig(t, rel).Data
	if data["CIPHERD_OTEL_SAMPLING_RATIO"] != "0.1" || data["CIPHERD_OTEL_SERVICE_NAME"] != "cipherd" ||
		data["CIPHERD_OTEL_TRUST_PARENT_SAMPLING"] != "true" {
		t.Errorf("tracing defaults: %v", data)
	}
}

func TestTracingValuesOutOfRangeAreRefused(t *testing.T) {
	for name, otel := range map[string]map[string]any{
		"ratio above 1":       {"endpoint": "http://collector:4317", "samplingRatio": 1.5},
		"ratio below 0":       {"endpoint": "http://collector:4317", "samplingRatio": -0.1},
		"endpoint not a URL":  {"endpoint": "collector:4317"},
		"empty service name":  {"endpoint": "http://collector:4317", "serviceName": ""},
		"trust not a boolean": {"endpoint": "http://collector:4317", "trustParentSampling": "no"},
		"unknown key":         {"endpoint": "http://collector:4317", "exporter": "zipkin"},
	} {
		if _, err := renderRelease(t, "", map[string]any{
			"accessPolicy": map[string]any{"insecureAllowEveryCallerEveryKey": true}, "otel": otel,
		}); err == nil {
			t.Errorf("%s: otel=%v rendered", name, otel)
		}
	}
}
