package validate

// What each values file of the matrix is for: the settings it turns on must reach the rendered objects.

import (
	"slices"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
)

func volume(t *testing.T, dep *appsv1.Deployment, name string) *corev1.Volume {
	t.Helper()
	for _, v := range dep.Spec.Template.Spec.Volumes {
		if v.Name == name {
			return &v
		}
	}
	t.Fatalf("no volume %s", name)
	return nil
}

func TestDefaultsUseVaultKubernetesAuthWithAProjectedToken(t *testing.T) {
	rel := mustRender(t, "default-values.yaml")
	dep, cm := only[*appsv1.Deployment](t, rel), serverConfig(t, rel)
	if cm.Data["CIPHERD_VAULT_AUTH"] != "kubernetes" || cm.Data["CIPHERD_VAULT_KUBERNETES_ROLE"] != "cipherd" {
		t.Errorf("defaults: kubernetes auth as role cipherd, got %q/%q", cm.Data["CIPHERD_VAULT_AUTH"], cm.Data["CIPHERD_VAULT_KUBERNETES_ROLE"])
	}
	tok := volume(t, dep, "vault-token").Projected.Sources[0].ServiceAccountToken
	if tok.Audience != "vault" || tok.ExpirationSeconds == nil || *tok.ExpirationSeconds != 3600 {
		t.Errorf("Vault's token must be audience-bound and short-lived: %+v", tok)
	}
	hpa := only[*autoscalingv2.HorizontalPodAutoscaler](t, rel)
	if *hpa.Spec.MinReplicas != 3 || hpa.Spec.MaxReplicas != 12 || *hpa.Spec.Metrics[0].Resource.Target.AverageUtilization != 70 {
		t.Errorf("HPA 3-12 on 70%% CPU, got %+v", hpa.Spec)
	}
	pod := dep.Spec.Template.Spec
	if len(pod.TopologySpreadConstraints) != 1 || pod.TopologySpreadConstraints[0].TopologyKey != "topology.kubernetes.io/zone" {
		t.Errorf("replicas must spread over zones: %+v", pod.TopologySpreadConstraints)
	}
	anti := pod.Affinity.PodAntiAffinity
	if anti == nil || len(anti.PreferredDuringSchedulingIgnoredDuringExecution) != 1 ||
		anti.PreferredDuringSchedulingIgnoredDuringExecution[0].PodAffinityTerm.TopologyKey != "kubernetes.io/hostname" {
		t.Errorf("replicas should prefer distinct nodes: %+v", anti)
	}
	if _, pinned := pod.NodeSelector["kubernetes.io/arch"]; pinned {
		t.Error("defaults must not pin an architecture")
	}
	if c := container(t, dep); c.Resources.Requests.Cpu().IsZero() || c.Resources.Limits.Memory().IsZero() {
		t.Error("the HPA needs CPU requests, and memory needs a limit")
	}
}

func TestMutualTLSValues(t *testing.T) {
	rel := mustRender(t, "mtls-values.yaml")
	dep, cm := only[*appsv1.Deployment](t, rel), serverConfig(t, rel)
	for k, v := range map[string]string{"CIPHERD_TLS_CERT": "/etc/cipherd/tls/tls.crt", "CIPHERD_TLS_KEY": "/etc/cipherd/tls/tls.key",
		"CIPHERD_TLS_CLIENT_CA": "/etc/cipherd/client-ca/ca.crt", "CIPHERD_INSECURE": "false",
		"CIPHERD_ACCESS_POLICY": "/etc/cipherd/policy/access-policy.yaml"} {
		if cm.Data[k] != v {
			t.Errorf("%s=%q, want %q", k, cm.Data[k], v)
		}
	}
	if s := volume(t, dep, "tls").Secret; s.SecretName != "cipherd-tls" {
		t.Errorf("server certificate from %q", s.SecretName)
	}
	if s := volume(t, dep, "client-ca").Secret; s.SecretName != "cipherd-client-ca" {
		t.Errorf("client CA from %q", s.SecretName)
	}
	job := only[*batchv1.Job](t, rel)
	args := strings.Join(job.Spec.Template.Spec.Containers[0].Args, " ")
	for _, want := range []string{"--cacert=", "--cert=", "--key=", "kms-cipherd.crypto.svc:50051", "--call=cipherd.v1.CryptoService/Encrypt"} {
		if !strings.Contains(args, want) {
			t.Errorf("ghz args %q lack %q", args, want)
		}
	}
	if strings.Contains(args, "--insecure") {
		t.Error("ghz must not use plaintext against a TLS release")
	}
	if job.Annotations["helm.sh/hook"] != "test" || job.Spec.ActiveDeadlineSeconds == nil || *job.Spec.BackoffLimit != 0 {
		t.Error("the ghz Job is a bounded helm test hook that does not retry")
	}
	np := only[*networkingv1.NetworkPolicy](t, rel)
	if !slices.Contains(np.Spec.PolicyTypes, networkingv1.PolicyTypeEgress) || len(np.Spec.Egress) != 2 {
		t.Errorf("egress limited to DNS and Vault: %+v", np.Spec.Egress)
	}
	if np.Spec.Ingress[0].From[0].NamespaceSelector.MatchLabels["kubernetes.io/metadata.name"] != "billing" {
		t.Error("gRPC ingress must come from networkPolicy.grpcFrom")
	}
}

func TestAccessPolicyConfigMap(t *testing.T) {
	rel := mustRender(t, "mtls-values.yaml")
	for _, cm := range all[*corev1.ConfigMap](rel) {
		if cm.Name != "kms-cipherd-access-policy" {
			continue
		}
		policy := parseYAML(t, cm.Data["access-policy.yaml"])
		callers, _ := policy["callers"].(map[string]any)
		if len(policy) != 1 || len(callers) != 2 || callers["billing.prod.svc"] == nil {
			t.Errorf("the policy file must be the values' policy: %v", policy)
		}
		dep := only[*appsv1.Deployment](t, rel)
		if v := volume(t, dep, "access-policy"); v.ConfigMap == nil || v.ConfigMap.Name != cm.Name {
			t.Error("the policy ConfigMap must be mounted as a directory, so edits reach the pod")
		}
		for _, m := range container(t, dep).VolumeMounts {
			if m.Name == "access-policy" && m.SubPath != "" {
				t.Error("a subPath mount never sees ConfigMap updates")
			}
		}
		return
	}
	t.Fatal("no access policy ConfigMap")
}

func TestVaultAppRoleValues(t *testing.T) {
	rel := mustRender(t, "vault-approle-values.yaml")
	dep, cm := only[*appsv1.Deployment](t, rel), serverConfig(t, rel)
	if cm.Data["CIPHERD_VAULT_AUTH"] != "approle" || cm.Data["CIPHERD_VAULT_AUTH_MOUNT"] != "approle-cipherd" ||
		cm.Data["CIPHERD_VAULT_ADDRESS"] != "https://vault.example.internal:8200" {
		t.Errorf("approle settings not passed: %v", cm.Data)
	}
	if cm.Data["CIPHERD_KEK"] != "transit" || cm.Data["CIPHERD_KEK_TRANSIT_MOUNT"] != "transit" ||
		cm.Data["CIPHERD_KEK_TRANSIT_KEY"] != "cipherd-kek" || cm.Data["CIPHERD_KEK_REQUIRE_WRAPPED"] != "true" {
		t.Errorf("the Transit KEK settings not passed: %v", cm.Data)
	}
	if def := serverConfig(t, mustRender(t, "default-values.yaml")); def.Data["CIPHERD_KEK"] != "none" || def.Data["CIPHERD_KEK_TRANSIT_KEY"] != "" {
		t.Errorf("no KEK by default (the server warns): %v", def.Data)
	}
	s := volume(t, dep, "vault-approle").Secret
	if s.SecretName != "cipherd-approle" || len(s.Items) != 2 || s.Items[0].Key != "role-id" || s.Items[1].Key != "secret-id" {
		t.Errorf("AppRole credentials from the Secret's role-id and secret-id: %+v", s)
	}
	for _, v := range dep.Spec.Template.Spec.Volumes {
		if v.Projected != nil {
			t.Error("AppRole needs no service-account token")
		}
	}
}

func TestVaultKubernetesValues(t *testing.T) {
	rel := mustRender(t, "vault-kubernetes-values.yaml")
	dep, cm := only[*appsv1.Deployment](t, rel), serverConfig(t, rel)
	if cm.Data["CIPHERD_VAULT_KUBERNETES_ROLE"] != "cipherd-prod" || cm.Data["CIPHERD_VAULT_AUTH_MOUNT"] != "k8s-prod" || cm.Data["CIPHERD_DEMO_KEY"] != "demo" {
		t.Errorf("kubernetes auth settings not passed: %v", cm.Data)
	}
	tok := volume(t, dep, "vault-token").Projected.Sources[0].ServiceAccountToken
	if tok.Audience != "vault-prod" || *tok.ExpirationSeconds != 900 {
		t.Errorf("token audience and lifetime from values: %+v", tok)
	}
	sa := only[*corev1.ServiceAccount](t, rel)
	if sa.Name != "cipherd-vault" || sa.Annotations["example.com/owner"] != "security" || dep.Spec.Template.Spec.ServiceAccountName != "cipherd-vault" {
		t.Errorf("the named ServiceAccount, annotated, runs the pods: %+v", sa.ObjectMeta)
	}
}

func TestArm64PinnedValues(t *testing.T) {
	rel := mustRender(t, "arm64-values.yaml")
	pod := only[*appsv1.Deployment](t, rel).Spec.Template.Spec
	if pod.NodeSelector["kubernetes.io/arch"] != "arm64" || pod.NodeSelector["node.example.com/pool"] != "crypto" {
		t.Errorf("nodeSelector must pin arm64 and keep the extra selector: %v", pod.NodeSelector)
	}
	if len(pod.Tolerations) != 1 || pod.Tolerations[0].Value != "arm64" {
		t.Errorf("tolerations: %+v", pod.Tolerations)
	}
	anti := pod.Affinity.PodAntiAffinity
	if anti == nil || len(anti.RequiredDuringSchedulingIgnoredDuringExecution) != 1 || len(anti.PreferredDuringSchedulingIgnoredDuringExecution) != 0 {
		t.Errorf("podAntiAffinity=hard must require distinct nodes: %+v", anti)
	}
}

func TestAutoscalingOffValues(t *testing.T) {
	rel := mustRender(t, "autoscaling-off-values.yaml")
	dep, cm := only[*appsv1.Deployment](t, rel), serverConfig(t, rel)
	if dep.Spec.Replicas == nil || *dep.Spec.Replicas != 2 {
		t.Errorf("replicas=%v, want 2", dep.Spec.Replicas)
	}
	if *dep.Spec.Template.Spec.TerminationGracePeriodSeconds != 50 || cm.Data["CIPHERD_SHUTDOWN_GRACE"] != "PT45S" {
		t.Errorf("45 s drain, no preStop sleep: grace %d, %s", *dep.Spec.Template.Spec.TerminationGracePeriodSeconds, cm.Data["CIPHERD_SHUTDOWN_GRACE"])
	}
	if container(t, dep).Lifecycle != nil {
		t.Error("preStopSleepSeconds=0 must render no preStop hook")
	}
	if cm.Data["CIPHERD_VAULT_AUTH"] != "token" || volume(t, dep, "vault-token").Secret.SecretName != "cipherd-vault-token" {
		t.Error("token auth reads the token file from the Secret")
	}
}
