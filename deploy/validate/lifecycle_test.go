package validate

// A pod's life: the probes that let traffic in and keep it alive, and the drain that lets it leave cleanly.

import (
	"fmt"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
)

func checkProbes(t *testing.T, dep *appsv1.Deployment, tls bool) {
	c := container(t, dep)
	for name, p := range map[string]*corev1.Probe{"startup": c.StartupProbe, "liveness": c.LivenessProbe, "readiness": c.ReadinessProbe} {
		if p == nil {
			t.Errorf("no %s probe", name)
			continue
		}
		switch {
		case tls && (p.HTTPGet == nil || p.HTTPGet.Port.StrVal != "http"):
			t.Errorf("%s probe with TLS must use the HTTP port (kubelet's gRPC probe cannot speak TLS): %+v", name, p.ProbeHandler)
		case !tls && (p.GRPC == nil || fmt.Sprint(p.GRPC.Port) != fmt.Sprint(portNamed(c, "grpc"))):
			t.Errorf("%s probe without TLS must be a gRPC health check on the gRPC port: %+v", name, p.ProbeHandler)
		}
	}
	if r := c.ReadinessProbe; r != nil {
		if tls && r.HTTPGet != nil && r.HTTPGet.Path != "/readyz?exclude=keystore" || tls && c.LivenessProbe.HTTPGet.Path != "/healthz" {
			t.Error("HTTP probes must be /readyz?exclude=keystore (readiness, not asking Vault) and /healthz (liveness)")
		}
		if !tls && r.GRPC != nil && (r.GRPC.Service == nil || *r.GRPC.Service != "") {
			t.Error("gRPC readiness must check the overall service \"\", not cipherd.KeyStore (a Vault outage would empty the Service)")
		}
	}
}

func portNamed(c *corev1.Container, name string) int32 {
	for _, p := range c.Ports {
		if p.Name == name {
			return p.ContainerPort
		}
	}
	return -1
}

// checkDrain: Kubernetes waits preStop + the server's own grace + a margin before SIGKILL.
func checkDrain(t *testing.T, dep *appsv1.Deployment, cm *corev1.ConfigMap) {
	var grace, sleep int64
	if _, err := fmt.Sscanf(cm.Data["CIPHERD_SHUTDOWN_GRACE"], "PT%dS", &grace); err != nil {
		t.Fatalf("CIPHERD_SHUTDOWN_GRACE=%q: %v", cm.Data["CIPHERD_SHUTDOWN_GRACE"], err)
	}
	if l := container(t, dep).Lifecycle; l != nil && l.PreStop != nil {
		if l.PreStop.Sleep == nil {
			t.Fatal("preStop must be a native sleep (the image has no shell)")
		}
		sleep = l.PreStop.Sleep.Seconds
	}
	tgp := dep.Spec.Template.Spec.TerminationGracePeriodSeconds
	if tgp == nil || *tgp != sleep+grace+5 {
		t.Errorf("terminationGracePeriodSeconds=%v, want preStop %d + shutdown grace %d + 5", tgp, sleep, grace)
	}
	if dep.Spec.Template.Annotations["checksum/config"] == "" {
		t.Error("pods must carry a checksum of the config, so a changed setting rolls them")
	}
	if s := dep.Spec.Strategy.RollingUpdate; s == nil || s.MaxUnavailable == nil || s.MaxUnavailable.IntValue() != 0 {
		t.Error("a rollout must not take a replica down before its replacement is ready (maxUnavailable 0)")
	}
}
