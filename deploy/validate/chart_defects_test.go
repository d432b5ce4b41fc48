package validate

// Defects found by installing the chart on a real cluster (issue 20), each pinned by a rendering test;
// deploy/k8s/test-k8s shows the same on the running cluster.

import (
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	networkingv1 "k8s.io/api/networking/v1"
)

func TestJvmMemory_heapAndDirectMemoryAreSizedFromTheLimit(t *testing.T) {
	cases := []struct {
		limit any
		want  string
	}{
		{"1Gi", "-XX:MaxRAMPercentage=50 -XX:MaxDirectMemorySize=214748364 -XX:+ExitOnOutOfMemoryError"},
		{"768Mi", "-XX:MaxRAMPercentage=50 -XX:MaxDirectMemorySize=161061273 -XX:+ExitOnOutOfMemoryError"},
		{"2G", "-XX:MaxRAMPercentage=50 -XX:MaxDirectMemorySize=400000000 -XX:+ExitOnOutOfMemoryError"},
	}
	for _, c := range cases {
		rel, err := renderRelease(t, "", map[string]any{"resources.limits.memory": c.limit})
		if err != nil {
			t.Fatalf("limit %v: %v", c.limit, err)
		}
		if got := serverConfig(t, rel).Data["JDK_JAVA_OPTIONS"]; got != c.want {
			t.Errorf("limit %v: JDK_JAVA_OPTIONS %q, want %q", c.limit, got, c.want)
		}
	}
}

func TestTlsReadiness_doesNotAskTheKeyStore(t *testing.T) {
	dep := only[*appsv1.Deployment](t, mustRender(t, "mtls-values.yaml"))
	probe := container(t, dep).ReadinessProbe
	if probe == nil || probe.HTTPGet == nil || probe.HTTPGet.Path != "/readyz?exclude=keystore" {
		t.Fatalf("with TLS, readiness must be /readyz?exclude=keystore (Vault down must not empty the Service): %+v", probe)
	}
}

func TestNoAccessPolicy_isAnExplicitLoudOptOut(t *testing.T) {
	rel := mustRender(t, "default-values.yaml")
	if !strings.Contains(rel.Notes, "WARNING: NO ACCESS POLICY") {
		t.Errorf("NOTES must warn about the opt-out:\n%s", rel.Notes)
	}
	if strings.Contains(mustRender(t, "mtls-values.yaml").Notes, "NO ACCESS POLICY") {
		t.Error("with a policy, NOTES must not warn")
	}
}

func TestNetworkPolicy_admitsTheChartsOwnHelmTestJob(t *testing.T) {
	rel := mustRender(t, "mtls-values.yaml")
	np := only[*networkingv1.NetworkPolicy](t, rel)
	var job *batchv1.Job
	for _, j := range all[*batchv1.Job](rel) {
		job = j
	}
	if job == nil {
		t.Fatal("mtls-values.yaml renders no ghz Job")
	}
	podLabels := job.Spec.Template.Labels
	grpc := np.Spec.Ingress[0]
	for _, peer := range grpc.From {
		if peer.PodSelector == nil || peer.NamespaceSelector != nil || peer.IPBlock != nil {
			continue
		}
		matches := len(peer.PodSelector.MatchLabels) > 0
		for k, v := range peer.PodSelector.MatchLabels {
			if podLabels[k] != v {
				matches = false
			}
		}
		if matches {
			return
		}
	}
	t.Errorf("the gRPC ingress rule %+v admits no pod labelled like the ghz Job's (%v): helm test would be blocked", grpc.From, podLabels)
}

func TestGhzTokenSecret_sendsTheBearerTokenWithoutPuttingItInTheSpec(t *testing.T) {
	rel, err := renderRelease(t, "", map[string]any{"ghz.enabled": true, "ghz.tokenSecret": "ghz-token"})
	if err != nil {
		t.Fatal(err)
	}
	job := only[*batchv1.Job](t, rel)
	c := job.Spec.Template.Spec.Containers[0]
	if !strings.Contains(strings.Join(c.Args, " "), `--metadata={"authorization":"Bearer $(GHZ_TOKEN)"}`) {
		t.Errorf("ghz args do not send the token: %v", c.Args)
	}
	if len(c.Env) != 1 || c.Env[0].ValueFrom == nil || c.Env[0].ValueFrom.SecretKeyRef.Name != "ghz-token" {
		t.Errorf("GHZ_TOKEN must come from the Secret: %+v", c.Env)
	}
}

// Helm reads values as float64: `quote` of 4194304 renders "4.194304e+06", which the server refuses
// (found when the chart first ran on a cluster: every pod crash-looped).
func TestServerConfig_largeIntegersRenderAsIntegers(t *testing.T) {
	for _, set := range []map[string]any{nil, {"server.maxMessageBytes": float64(16777216)}} {
		rel, err := renderRelease(t, "", set)
		if err != nil {
			t.Fatal(err)
		}
		for k, v := range serverConfig(t, rel).Data {
			if strings.Contains(v, "e+") {
				t.Errorf("%s=%q is not an integer the server can parse", k, v)
			}
		}
	}
}
