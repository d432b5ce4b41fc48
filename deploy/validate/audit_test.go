package validate

// The audit trail's values: off by default; on, the server is told where to write; with sink=file the
// audit-tail sidecar reads the same emptyDir the server writes, under the same locked-down security context.

import (
	"testing"

	appsv1 "k8s.io/api/apps/v1"
)

func TestAuditIsOffByDefault(t *testing.T) {
	rel := mustRender(t, "default-values.yaml")
	cm := serverConfig(t, rel)
	if v, ok := cm.Data["CIPHERD_AUDIT_LOG"]; ok {
		t.Errorf("CIPHERD_AUDIT_LOG=%q by default; the audit trail must be opt-in", v)
	}
	if n := len(only[*appsv1.Deployment](t, rel).Spec.Template.Spec.Containers); n != 1 {
		t.Errorf("%d containers by default, want 1", n)
	}
}

func TestAuditFileSinkHasASidecarOnTheSameVolume(t *testing.T) {
	rel := mustRender(t, "audit-file-values.yaml")
	cm := serverConfig(t, rel)
	if cm.Data["CIPHERD_AUDIT_LOG"] != "/var/log/cipherd-audit/audit.log" || cm.Data["CIPHERD_AUDIT_REQUIRED"] != "true" {
		t.Fatalf("audit env: %v", cm.Data)
	}
	// The server deletes old rotated files itself, so its anchor lists what is kept (issue 28).
	if cm.Data["CIPHERD_AUDIT_RETAIN_FILES"] != "2" {
		t.Errorf("CIPHERD_AUDIT_RETAIN_FILES=%q, want 2 with the file sink", cm.Data["CIPHERD_AUDIT_RETAIN_FILES"])
	}
	dep := only[*appsv1.Deployment](t, rel)
	cs := dep.Spec.Template.Spec.Containers
	if len(cs) != 2 || cs[1].Name != "audit-tail" {
		t.Fatalf("want cipherd and audit-tail, got %d containers", len(cs))
	}
	for _, c := range cs {
		found := false
		for _, m := range c.VolumeMounts {
			if m.Name == "audit" && m.MountPath == "/var/log/cipherd-audit" {
				found = true
			}
		}
		if !found {
			t.Errorf("container %s does not mount the audit volume at /var/log/cipherd-audit", c.Name)
		}
		sc := c.SecurityContext
		if sc == nil || sc.ReadOnlyRootFilesystem == nil || !*sc.ReadOnlyRootFilesystem {
			t.Errorf("container %s must have a read-only root", c.Name)
		}
	}
	for _, v := range dep.Spec.Template.Spec.Volumes {
		if v.Name == "audit" && (v.EmptyDir == nil || v.EmptyDir.SizeLimit == nil) {
			t.Error("the audit volume must be an emptyDir with a size limit")
		}
	}
}

func TestAuditStdoutSinkHasNoSidecar(t *testing.T) {
	rel, err := renderRelease(t, "", map[string]any{
		"accessPolicy": map[string]any{"insecureAllowEveryCallerEveryKey": true},
		"audit":        map[string]any{"enabled": true},
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := serverConfig(t, rel).Data["CIPHERD_AUDIT_LOG"]; got != "-" {
		t.Errorf("CIPHERD_AUDIT_LOG=%q, want - (stdout)", got)
	}
	if n := len(only[*appsv1.Deployment](t, rel).Spec.Template.Spec.Containers); n != 1 {
		t.Errorf("%d containers with sink=stdout, want 1", n)
	}
}

func TestAuditRequiredWithoutAuditIsRefused(t *testing.T) {
	_, err := renderRelease(t, "", map[string]any{
		"accessPolicy": map[string]any{"insecureAllowEveryCallerEveryKey": true},
		"audit":        map[string]any{"required": true},
	})
	if err == nil {
		t.Fatal("audit.required without audit.enabled rendered")
	}
}

func TestAuditOffHostCopyIsOptInAndReachesTheServer(t *testing.T) {
	base := map[string]any{"accessPolicy": map[string]any{"insecureAllowEveryCallerEveryKey": true}}
	rel, err := renderRelease(t, "", map[string]any{
		"accessPolicy": base["accessPolicy"],
		"audit":        map[string]any{"enabled": true},
	})
	if err != nil {
		t.Fatal(err)
	}
	if v, ok := serverConfig(t, rel).Data["CIPHERD_AUDIT_SINK"]; ok {
		t.Errorf("CIPHERD_AUDIT_SINK=%q by default; the off-host copy must be opt-in", v)
	}
	rel, err = renderRelease(t, "", map[string]any{
		"accessPolicy": base["accessPolicy"],
		"audit": map[string]any{"enabled": true, "required": true,
			"offHost": map[string]any{"address": "tcp://audit-receiver.logging:5140", "timeout": "PT1S"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	data := serverConfig(t, rel).Data
	if data["CIPHERD_AUDIT_SINK"] != "tcp://audit-receiver.logging:5140" || data["CIPHERD_AUDIT_SINK_TIMEOUT"] != "PT1S" ||
		data["CIPHERD_AUDIT_SINK_BUFFER"] != "67108864" {
		t.Errorf("off-host copy env: %v", data)
	}
	if _, err := renderRelease(t, "", map[string]any{
		"accessPolicy": base["accessPolicy"],
		"audit":        map[string]any{"enabled": true, "offHost": map[string]any{"address": "http://x"}},
	}); err == nil {
		t.Error("audit.offHost.address http://x rendered; the schema takes tcp://host:port or unix:/path")
	}
}
