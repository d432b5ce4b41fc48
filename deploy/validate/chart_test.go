package validate

// What every rendering of the chart must hold, whatever the values file: labels, template names,
// selectors that match, the pod's security context, ports, probes, the drain and the env the server reads.

import (
	"fmt"
	"path"
	"slices"
	"strings"
	"testing"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"
)

// valuesFiles are the chart's test matrix (helm/cipherd/ci/), each with the objects it must render.
var valuesFiles = map[string][]string{
	"default-values.yaml":          {"ConfigMap/kms-cipherd", "Deployment/kms-cipherd", "HorizontalPodAutoscaler/kms-cipherd", "NetworkPolicy/kms-cipherd", "PodDisruptionBudget/kms-cipherd", "Service/kms-cipherd", "Service/kms-cipherd-metrics", "ServiceAccount/kms-cipherd"},
	"mtls-values.yaml":             {"Job/kms-cipherd-ghz (hook)", "ConfigMap/kms-cipherd", "ConfigMap/kms-cipherd-access-policy", "Deployment/kms-cipherd", "HorizontalPodAutoscaler/kms-cipherd", "NetworkPolicy/kms-cipherd", "PodDisruptionBudget/kms-cipherd", "Service/kms-cipherd", "Service/kms-cipherd-metrics", "ServiceAccount/kms-cipherd", "ServiceMonitor/kms-cipherd"},
	"vault-approle-values.yaml":    {"ConfigMap/kms-cipherd", "Deployment/kms-cipherd", "HorizontalPodAutoscaler/kms-cipherd", "NetworkPolicy/kms-cipherd", "PodDisruptionBudget/kms-cipherd", "Service/kms-cipherd", "Service/kms-cipherd-metrics", "ServiceAccount/kms-cipherd"},
	"vault-kubernetes-values.yaml": {"ConfigMap/kms-cipherd", "Deployment/kms-cipherd", "HorizontalPodAutoscaler/kms-cipherd", "NetworkPolicy/kms-cipherd", "PodDisruptionBudget/kms-cipherd", "Service/kms-cipherd", "Service/kms-cipherd-metrics", "ServiceAccount/cipherd-vault"},
	"arm64-values.yaml":            {"ConfigMap/kms-cipherd", "Deployment/kms-cipherd", "HorizontalPodAutoscaler/kms-cipherd", "NetworkPolicy/kms-cipherd", "PodDisruptionBudget/kms-cipherd", "Service/kms-cipherd", "Service/kms-cipherd-metrics", "ServiceAccount/kms-cipherd"},
	"autoscaling-off-values.yaml":  {"ConfigMap/kms-cipherd", "Deployment/kms-cipherd", "Service/kms-cipherd", "Service/kms-cipherd-metrics", "ServiceAccount/kms-cipherd"},
	"subject-store-values.yaml":    {"ConfigMap/kms-cipherd", "ConfigMap/kms-cipherd-access-policy", "Deployment/kms-cipherd", "HorizontalPodAutoscaler/kms-cipherd", "NetworkPolicy/kms-cipherd", "PodDisruptionBudget/kms-cipherd", "Service/kms-cipherd", "Service/kms-cipherd-metrics", "ServiceAccount/kms-cipherd"},
	"audit-file-values.yaml":       {"ConfigMap/kms-cipherd", "Deployment/kms-cipherd", "HorizontalPodAutoscaler/kms-cipherd", "NetworkPolicy/kms-cipherd", "PodDisruptionBudget/kms-cipherd", "Service/kms-cipherd", "Service/kms-cipherd-metrics", "ServiceAccount/kms-cipherd"},
}

// templateKind is the kind each template file name promises (<component>-<kind>.yaml, as vault-helm names them).
var templateKind = map[string]string{
	"configmap": "ConfigMap", "deployment": "Deployment", "hpa": "HorizontalPodAutoscaler", "pdb": "PodDisruptionBudget",
	"service": "Service", "serviceaccount": "ServiceAccount", "servicemonitor": "ServiceMonitor",
	"networkpolicy": "NetworkPolicy", "job": "Job",
}

func TestEveryValuesFileRendersTheExpectedObjects(t *testing.T) {
	for file, want := range valuesFiles {
		t.Run(file, func(t *testing.T) {
			rel := mustRender(t, file)
			got := kinds(rel)
			slices.Sort(got)
			want = slices.Clone(want)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("rendered objects\n got %v\nwant %v", got, want)
			}
			t.Logf("%s renders %d objects: %s", file, len(got), strings.Join(got, ", "))
		})
	}
}

func TestEveryValuesFileHoldsTheInvariants(t *testing.T) {
	serverEnv := serverEnvNames(t)
	for file := range valuesFiles {
		t.Run(file, func(t *testing.T) {
			rel := mustRender(t, file)
			checkLabelsAndTemplateNames(t, rel)
			dep := only[*appsv1.Deployment](t, rel)
			cm := serverConfig(t, rel)
			checkSelectors(t, rel, dep)
			checkSecurity(t, dep)
			checkPorts(t, rel, dep)
			checkProbes(t, dep, cm.Data["CIPHERD_TLS_CERT"] != "")
			checkDrain(t, dep, cm)
			checkEnv(t, dep, cm, serverEnv)
			checkArchitecture(t, dep)
			checkNotes(t, rel)
		})
	}
}

func checkLabelsAndTemplateNames(t *testing.T, rel *release) {
	for _, o := range rel.Objects {
		meta := o.Obj.(v1.Object)
		if meta.GetNamespace() != namespace {
			t.Errorf("%s %s: namespace %q, want %q", o.Kind, o.Name, meta.GetNamespace(), namespace)
		}
		for k, v := range map[string]string{"app.kubernetes.io/name": "cipherd", "app.kubernetes.io/instance": releaseName,
			"app.kubernetes.io/managed-by": "Helm", "helm.sh/chart": "cipherd-0.1.0"} {
			if got := meta.GetLabels()[k]; got != v {
				t.Errorf("%s %s: label %s=%q, want %q", o.Kind, o.Name, k, got, v)
			}
		}
		base := strings.TrimSuffix(path.Base(o.Source), ".yaml")
		component, kind, ok := strings.Cut(base, "-")
		if !ok || component == "" || templateKind[kind] != o.Kind {
			t.Errorf("%s renders a %s: template files are named <component>-<kind>.yaml", o.Source, o.Kind)
		}
	}
}

func serverConfig(t *testing.T, rel *release) *corev1.ConfigMap {
	t.Helper()
	for _, cm := range all[*corev1.ConfigMap](rel) {
		if cm.Name == "kms-cipherd" {
			return cm
		}
	}
	t.Fatal("no ConfigMap kms-cipherd")
	return nil
}

func container(t *testing.T, dep *appsv1.Deployment) *corev1.Container {
	t.Helper()
	cs := dep.Spec.Template.Spec.Containers
	// The only other container there may be is the audit trail's sidecar (audit.sink=file).
	if len(cs) < 1 || cs[0].Name != "cipherd" || len(cs) > 2 || (len(cs) == 2 && cs[1].Name != "audit-tail") {
		t.Fatalf("want the container cipherd, and audit-tail only, got %d", len(cs))
	}
	return &cs[0]
}

func checkSelectors(t *testing.T, rel *release, dep *appsv1.Deployment) {
	sel := dep.Spec.Selector.MatchLabels
	for k, v := range sel {
		if dep.Spec.Template.Labels[k] != v {
			t.Errorf("pod template lacks selector label %s=%s", k, v)
		}
	}
	for _, svc := range all[*corev1.Service](rel) {
		if !mapsEqual(svc.Spec.Selector, sel) {
			t.Errorf("Service %s selector %v != Deployment selector %v", svc.Name, svc.Spec.Selector, sel)
		}
	}
	for _, pdb := range all[*policyv1.PodDisruptionBudget](rel) {
		if !mapsEqual(pdb.Spec.Selector.MatchLabels, sel) || pdb.Spec.MaxUnavailable == nil {
			t.Errorf("PodDisruptionBudget must select the server pods with maxUnavailable set")
		}
	}
	for _, hpa := range all[*autoscalingv2.HorizontalPodAutoscaler](rel) {
		if hpa.Spec.ScaleTargetRef.Name != dep.Name || hpa.Spec.ScaleTargetRef.Kind != "Deployment" {
			t.Errorf("HPA targets %v, not the Deployment", hpa.Spec.ScaleTargetRef)
		}
		if dep.Spec.Replicas != nil {
			t.Error("with an HPA the Deployment must not set replicas (each upgrade would reset the scale)")
		}
	}
	if len(all[*autoscalingv2.HorizontalPodAutoscaler](rel)) == 0 && dep.Spec.Replicas == nil {
		t.Error("without an HPA the Deployment must set replicas")
	}
	for _, sa := range all[*corev1.ServiceAccount](rel) {
		if dep.Spec.Template.Spec.ServiceAccountName != sa.Name {
			t.Errorf("pods run as %q, not the chart's ServiceAccount %q", dep.Spec.Template.Spec.ServiceAccountName, sa.Name)
		}
	}
}

func checkSecurity(t *testing.T, dep *appsv1.Deployment) {
	pod := dep.Spec.Template.Spec
	psc := pod.SecurityContext
	if psc == nil || psc.RunAsNonRoot == nil || !*psc.RunAsNonRoot || psc.RunAsUser == nil || *psc.RunAsUser == 0 ||
		psc.SeccompProfile == nil || psc.SeccompProfile.Type != corev1.SeccompProfileTypeRuntimeDefault {
		t.Errorf("pod security context must run as a non-root uid with the RuntimeDefault seccomp profile: %+v", psc)
	}
	sc := container(t, dep).SecurityContext
	if sc == nil || sc.ReadOnlyRootFilesystem == nil || !*sc.ReadOnlyRootFilesystem || sc.AllowPrivilegeEscalation == nil ||
		*sc.AllowPrivilegeEscalation || sc.Capabilities == nil || !slices.Equal(sc.Capabilities.Drop, []corev1.Capability{"ALL"}) {
		t.Errorf("container must have a read-only root, no privilege escalation and drop ALL capabilities: %+v", sc)
	}
	if pod.AutomountServiceAccountToken == nil || *pod.AutomountServiceAccountToken {
		t.Error("the Kubernetes API token must not be mounted (Vault gets its own projected token)")
	}
	if mountFor(t, dep, "/tmp") == nil {
		t.Error("/tmp must be a writable emptyDir: the root filesystem is read-only")
	}
}

func checkPorts(t *testing.T, rel *release, dep *appsv1.Deployment) {
	c := container(t, dep)
	named := map[string]int32{}
	for _, p := range c.Ports {
		named[p.Name] = p.ContainerPort
	}
	cm := serverConfig(t, rel)
	if fmt.Sprint(named["grpc"]) != cm.Data["CIPHERD_PORT"] || fmt.Sprint(named["http"]) != cm.Data["CIPHERD_HTTP_PORT"] {
		t.Errorf("container ports %v do not match CIPHERD_PORT=%s CIPHERD_HTTP_PORT=%s", named, cm.Data["CIPHERD_PORT"], cm.Data["CIPHERD_HTTP_PORT"])
	}
	if cm.Data["CIPHERD_HOST"] != "0.0.0.0" {
		t.Errorf("CIPHERD_HOST=%q: the server must listen on the pod address", cm.Data["CIPHERD_HOST"])
	}
	// The client-facing Service has gRPC only; the ops port is on the ClusterIP Service kms-cipherd-metrics.
	for name, want := range map[string]map[string]string{"kms-cipherd": {"grpc": "grpc"}, "kms-cipherd-metrics": {"metrics": "http"}} {
		svc := service(t, rel, name)
		if len(svc.Spec.Ports) != len(want) {
			t.Errorf("Service %s has ports %+v, want only %v", name, svc.Spec.Ports, want)
		}
		for _, p := range svc.Spec.Ports {
			if want[p.Name] == "" || p.TargetPort.StrVal != want[p.Name] || named[p.TargetPort.StrVal] == 0 {
				t.Errorf("Service %s port %s targets %q, which is not its container port", name, p.Name, p.TargetPort.String())
			}
			if p.Name == "grpc" && (p.AppProtocol == nil || *p.AppProtocol != "grpc") {
				t.Error("the gRPC Service port must declare appProtocol: grpc")
			}
		}
	}
	if svc := service(t, rel, "kms-cipherd-metrics"); svc.Spec.Type != corev1.ServiceTypeClusterIP {
		t.Errorf("the metrics Service must stay inside the cluster, got type %s", svc.Spec.Type)
	}
	for _, sm := range all[*monitoringv1.ServiceMonitor](rel) {
		if len(sm.Spec.Endpoints) != 1 || sm.Spec.Endpoints[0].Port != "metrics" || sm.Spec.Endpoints[0].Path != "/metrics" {
			t.Errorf("ServiceMonitor must scrape the metrics Service's port at /metrics: %+v", sm.Spec.Endpoints)
		}
		if !selects(sm.Spec.Selector.MatchLabels, service(t, rel, "kms-cipherd-metrics").Labels) {
			t.Error("ServiceMonitor does not select the metrics Service")
		}
		if selects(sm.Spec.Selector.MatchLabels, service(t, rel, "kms-cipherd").Labels) {
			t.Error("ServiceMonitor selects the client-facing Service too")
		}
	}
	for _, np := range all[*networkingv1.NetworkPolicy](rel) {
		for _, rule := range np.Spec.Ingress {
			for _, p := range rule.Ports {
				if named[p.Port.StrVal] == 0 {
					t.Errorf("NetworkPolicy opens port %q, which is no container port", p.Port.String())
				}
			}
		}
	}
}

func checkArchitecture(t *testing.T, dep *appsv1.Deployment) {
	pod := dep.Spec.Template.Spec
	pinned := pod.NodeSelector["kubernetes.io/arch"]
	terms := pod.Affinity.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms
	if len(terms) != 1 || len(terms[0].MatchExpressions) != 1 || terms[0].MatchExpressions[0].Key != "kubernetes.io/arch" {
		t.Fatalf("pods must require a node architecture the image is built for: %+v", terms)
	}
	allowed := terms[0].MatchExpressions[0].Values
	switch pinned {
	case "":
		if !slices.Equal(allowed, []string{"amd64", "arm64"}) {
			t.Errorf("unpinned pods may run on amd64 and arm64 only, got %v", allowed)
		}
	default:
		if !slices.Equal(allowed, []string{pinned}) {
			t.Errorf("pinned to %s, but node affinity allows %v", pinned, allowed)
		}
	}
}

func checkNotes(t *testing.T, rel *release) {
	for _, want := range []string{"kms-cipherd.crypto.svc:50051", "grpcurl", "cipherd.v1.CryptoService/Encrypt", "port-forward svc/kms-cipherd"} {
		if !strings.Contains(rel.Notes, want) {
			t.Errorf("NOTES.txt does not show %q", want)
		}
	}
}

// service returns the release's Service of that name.
func service(t *testing.T, rel *release, name string) *corev1.Service {
	t.Helper()
	for _, svc := range all[*corev1.Service](rel) {
		if svc.Name == name {
			return svc
		}
	}
	t.Fatalf("no Service %s", name)
	return nil
}

// selects says whether a matchLabels selector matches an object with these labels.
func selects(matchLabels, labels map[string]string) bool {
	for k, v := range matchLabels {
		if labels[k] != v {
			return false
		}
	}
	return true
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

func parseYAML(t *testing.T, s string) map[string]any {
	t.Helper()
	var out map[string]any
	if err := yaml.UnmarshalStrict([]byte(s), &out); err != nil {
		t.Fatalf("not YAML: %v", err)
	}
	return out
}
