package validate

// The chart's defaults keep its own guards (issue 29, "chart defaults that undo the chart's own guard"): the
// attack is the default render itself. Before the fix, the defaults served plaintext gRPC (bearer tokens in the
// clear on the pod network), rendered no NetworkPolicy (and an enabled one with no peers named admitted every
// pod of the namespace), and put the unauthenticated /metrics port in the client-facing Service. Each test
// below fails on that chart.

import (
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// renderDefaults renders values.yaml with only the access-policy opt-out (the refusals test covers that
// one) and the given overrides, exactly as `helm install --set ...` would.
func renderDefaults(t *testing.T, set map[string]any) (*release, error) {
	t.Helper()
	vals := map[string]any{"accessPolicy": map[string]any{"insecureAllowEveryCallerEveryKey": true}}
	for k, v := range set {
		setPath(vals, strings.Split(k, "."), v)
	}
	return renderValues(t, vals)
}

func TestSecureDefaults_plaintextIsNeverTheDefault(t *testing.T) {
	_, err := renderDefaults(t, nil)
	if err == nil {
		t.Fatal("the defaults rendered without a server certificate: gRPC would be plaintext on the pod network")
	}
	for _, want := range []string{"set tls.secretName", "cert-manager", "kms-cipherd.crypto.svc", "tls.enabled=false",
		"tls.insecurePlaintextTokensAndDataInTheClear=true"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the refusal does not say how to fix it (%q): %v", want, err)
		}
	}
}

func TestSecureDefaults_aCertificateIsAllItTakesToServeTLSOnly(t *testing.T) {
	rel, err := renderDefaults(t, map[string]any{"tls.secretName": "cipherd-tls"})
	if err != nil {
		t.Fatal(err)
	}
	cm := serverConfig(t, rel)
	if cm.Data["CIPHERD_INSECURE"] != "false" || cm.Data["CIPHERD_TLS_CERT"] == "" || cm.Data["CIPHERD_TLS_KEY"] == "" {
		t.Errorf("defaults with a certificate must require TLS: CIPHERD_INSECURE=%q CIPHERD_TLS_CERT=%q",
			cm.Data["CIPHERD_INSECURE"], cm.Data["CIPHERD_TLS_CERT"])
	}
	c := container(t, only[*appsv1.Deployment](t, rel))
	for name, p := range map[string]*corev1.Probe{"liveness": c.LivenessProbe, "readiness": c.ReadinessProbe, "startup": c.StartupProbe} {
		if p == nil || p.HTTPGet == nil || p.HTTPGet.Port.StrVal != "http" {
			t.Errorf("the %s probe must use the ops HTTP port: %+v", name, p)
		}
	}
	if strings.Contains(rel.Notes, "PLAINTEXT") {
		t.Error("NOTES warn about plaintext on a TLS release")
	}
}

func TestSecureDefaults_plaintextOnlyWithTheLoudOptOut(t *testing.T) {
	rel, err := renderDefaults(t, map[string]any{"tls.enabled": false, "tls.insecurePlaintextTokensAndDataInTheClear": true})
	if err != nil {
		t.Fatal(err)
	}
	if serverConfig(t, rel).Data["CIPHERD_INSECURE"] != "true" {
		t.Error("the opt-out must serve plaintext")
	}
	if !strings.Contains(rel.Notes, "WARNING: PLAINTEXT gRPC") {
		t.Errorf("NOTES must warn on every plaintext install:\n%s", rel.Notes)
	}
}

// peerAdmitsEveryone says whether a NetworkPolicyPeer selects every pod of the namespace or of the cluster.
func peerAdmitsEveryone(p networkingv1.NetworkPolicyPeer) bool {
	empty := func(s *metav1.LabelSelector) bool { return len(s.MatchLabels) == 0 && len(s.MatchExpressions) == 0 }
	switch {
	case p.IPBlock != nil:
		return p.IPBlock.CIDR == "0.0.0.0/0" || p.IPBlock.CIDR == "::/0"
	case p.NamespaceSelector != nil && empty(p.NamespaceSelector):
		return p.PodSelector == nil || empty(p.PodSelector)
	case p.NamespaceSelector == nil && p.PodSelector != nil:
		return empty(p.PodSelector)
	}
	return false
}

// ingressFrom returns the peers the policy admits to a named container port, and whether any rule opens it.
func ingressFrom(np *networkingv1.NetworkPolicy, port string) ([]networkingv1.NetworkPolicyPeer, bool) {
	var peers []networkingv1.NetworkPolicyPeer
	open := false
	for _, rule := range np.Spec.Ingress {
		for _, p := range rule.Ports {
			if p.Port != nil && p.Port.StrVal == port {
				open = true
				peers = append(peers, rule.From...)
			}
		}
	}
	return peers, open
}

func checkNoRuleAdmitsEveryone(t *testing.T, np *networkingv1.NetworkPolicy) {
	t.Helper()
	for _, rule := range np.Spec.Ingress {
		if len(rule.From) == 0 {
			t.Errorf("an ingress rule without peers admits every source: %+v", rule)
		}
		if len(rule.Ports) == 0 {
			t.Errorf("an ingress rule without ports opens every port: %+v", rule)
		}
		for _, p := range rule.From {
			if peerAdmitsEveryone(p) {
				t.Errorf("peer %+v admits every pod", p)
			}
		}
	}
}

func TestSecureDefaults_theNetworkPolicyNamesWhoMayConnect(t *testing.T) {
	rel, err := renderDefaults(t, map[string]any{"tls.secretName": "cipherd-tls"})
	if err != nil {
		t.Fatal(err)
	}
	nps := all[*networkingv1.NetworkPolicy](rel)
	if len(nps) != 1 {
		t.Fatalf("the defaults must render a NetworkPolicy, got %d", len(nps))
	}
	np := nps[0]
	checkNoRuleAdmitsEveryone(t, np)
	grpc, _ := ingressFrom(np, "grpc")
	if len(grpc) != 1 || grpc[0].NamespaceSelector != nil || grpc[0].PodSelector == nil ||
		!mapsEqual(grpc[0].PodSelector.MatchLabels, map[string]string{"cipherd-client": "true"}) {
		t.Errorf("gRPC must be admitted from pods labelled cipherd-client=true only: %+v", grpc)
	}
	ops, _ := ingressFrom(np, "http")
	if len(ops) != 1 || ops[0].NamespaceSelector == nil || ops[0].NamespaceSelector.MatchLabels["kubernetes.io/metadata.name"] != "monitoring" {
		t.Errorf("the ops port must be admitted from the monitoring namespace only: %+v", ops)
	}
	if !strings.Contains(rel.Notes, "cipherd-client=true") {
		t.Errorf("NOTES must name the label clients need:\n%s", rel.Notes)
	}
}

func TestSecureDefaults_noPeersNamedMeansNoOneRatherThanEveryone(t *testing.T) {
	for _, ghz := range []bool{false, true} {
		rel, err := renderDefaults(t, map[string]any{"tls.secretName": "cipherd-tls", "networkPolicy.enabled": true,
			"networkPolicy.grpcFrom": []any{}, "networkPolicy.metricsFrom": []any{}, "ghz.enabled": ghz})
		if err != nil {
			t.Fatal(err)
		}
		np := only[*networkingv1.NetworkPolicy](t, rel)
		checkNoRuleAdmitsEveryone(t, np)
		if len(np.Spec.PolicyTypes) == 0 || np.Spec.PolicyTypes[0] != networkingv1.PolicyTypeIngress {
			t.Errorf("the policy must govern ingress: %v", np.Spec.PolicyTypes)
		}
		if _, open := ingressFrom(np, "http"); open {
			t.Errorf("ghz=%v: with no metricsFrom the ops port must be closed: %+v", ghz, np.Spec.Ingress)
		}
		grpc, open := ingressFrom(np, "grpc")
		switch {
		case !ghz && open:
			t.Errorf("with no grpcFrom, gRPC must be closed: %+v", np.Spec.Ingress)
		case ghz && (len(grpc) != 1 || grpc[0].PodSelector.MatchLabels["app.kubernetes.io/name"] != "cipherd-ghz"):
			t.Errorf("with no grpcFrom, gRPC must admit only the chart's ghz Job: %+v", grpc)
		}
	}
}

func TestSecureDefaults_metricsAreNotInTheClientFacingService(t *testing.T) {
	rel, err := renderDefaults(t, map[string]any{"tls.secretName": "cipherd-tls", "service.type": "LoadBalancer"})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range service(t, rel, "kms-cipherd").Spec.Ports {
		if p.Name != "grpc" {
			t.Errorf("the client-facing Service exposes %s (port %d): only gRPC belongs there", p.Name, p.Port)
		}
	}
	if svc := service(t, rel, "kms-cipherd-metrics"); svc.Spec.Type != corev1.ServiceTypeClusterIP {
		t.Errorf("exposing gRPC (service.type=LoadBalancer) exposed the metrics Service too: %s", svc.Spec.Type)
	}
}
