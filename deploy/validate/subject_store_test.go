package validate

// The subject store (subjectStore): off by default (no CIPHERD_SUBJECT_* at all: the replicas refuse subject
// calls with SUBJECT_STORE_NOT_CONFIGURED); on, its URL and user reach the container only as env from the
// operator's Secret and its password only as a file mounted from it, never in the ConfigMap, the args or
// any rendered value; the cache and creation settings reach the server; with egress restricted, one more
// egress rule: to the database's port and peers.

import (
	"slices"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	networkingv1 "k8s.io/api/networking/v1"
	"sigs.k8s.io/yaml"
)

const subjectStorePasswordFile = "/var/run/secrets/cipherd/subject-store/password"

func TestSubjectStoreIsOffByDefault(t *testing.T) {
	rel := mustRender(t, "default-values.yaml")
	for name, v := range serverConfig(t, rel).Data {
		if strings.HasPrefix(name, "CIPHERD_SUBJECT_") {
			t.Errorf("%s=%q by default; the subject store must be opt-in", name, v)
		}
	}
	dep := only[*appsv1.Deployment](t, rel)
	for _, v := range dep.Spec.Template.Spec.Volumes {
		if v.Name == "subject-store" {
			t.Error("a subject-store volume without subjectStore.enabled")
		}
	}
	if !strings.Contains(rel.Notes, "SUBJECT_STORE_NOT_CONFIGURED") {
		t.Errorf("NOTES must say subject calls are refused without a subject store:\n%s", rel.Notes)
	}
}

func TestSubjectStoreValues(t *testing.T) {
	rel := mustRender(t, "subject-store-values.yaml")
	dep, cm := only[*appsv1.Deployment](t, rel), serverConfig(t, rel)
	read := serverEnvNames(t)
	for name, want := range map[string]string{
		"CIPHERD_SUBJECT_STORE_PASSWORD_FILE":     subjectStorePasswordFile,
		"CIPHERD_SUBJECT_STORE_POOL_SIZE":         "4",
		"CIPHERD_SUBJECT_STORE_STATEMENT_TIMEOUT": "PT3S",
		"CIPHERD_SUBJECT_CACHE_SIZE":              "50000",
		"CIPHERD_SUBJECT_CACHE_TTL":               "PT2S",
		"CIPHERD_SUBJECT_CREATION_RATE":           "200",
	} {
		if cm.Data[name] != want {
			t.Errorf("%s=%q, want %q", name, cm.Data[name], want)
		}
		if !read[name] {
			t.Errorf("the chart sets %s, which the server's --help does not document", name)
		}
	}
	// The URL and the user: env from the Secret's keys, never a value in the ConfigMap or the pod spec.
	c := container(t, dep)
	fromSecret := map[string]string{}
	for _, e := range c.Env {
		if strings.HasPrefix(e.Name, "CIPHERD_SUBJECT_STORE_") {
			if e.Value != "" || e.ValueFrom == nil || e.ValueFrom.SecretKeyRef == nil || e.ValueFrom.SecretKeyRef.Name != "cipherd-subject-store" {
				t.Errorf("%s must come from the Secret cipherd-subject-store: %+v", e.Name, e)
				continue
			}
			fromSecret[e.Name] = e.ValueFrom.SecretKeyRef.Key
		}
	}
	if want := map[string]string{"CIPHERD_SUBJECT_STORE_URL": "jdbc-url", "CIPHERD_SUBJECT_STORE_USER": "user"}; !mapsEqual(fromSecret, want) {
		t.Errorf("env from the Secret: %v, want %v", fromSecret, want)
	}
	for _, name := range []string{"CIPHERD_SUBJECT_STORE_URL", "CIPHERD_SUBJECT_STORE_USER", "CIPHERD_SUBJECT_STORE_PASSWORD"} {
		if v, ok := cm.Data[name]; ok {
			t.Errorf("the ConfigMap sets %s=%q: it belongs in the Secret", name, v)
		}
	}
	// The password: a file from the Secret's key, on a read-only mount only the pod's group may read.
	v := volume(t, dep, "subject-store").Secret
	if v == nil || v.SecretName != "cipherd-subject-store" || len(v.Items) != 1 || v.Items[0].Key != "db-password" ||
		v.Items[0].Path != "password" || v.DefaultMode == nil || *v.DefaultMode&0o007 != 0 {
		t.Errorf("the password must be the Secret's db-password as the file password, not world-readable: %+v", v)
	}
	if m := mountFor(t, dep, subjectStorePasswordFile); m == nil || m.Name != "subject-store" || !m.ReadOnly {
		t.Errorf("%s must lie on the read-only subject-store mount: %+v", subjectStorePasswordFile, m)
	}
	// Nothing rendered carries a password or the URL: not the ConfigMaps, the args, the env, the notes.
	for _, o := range rel.Objects {
		text, err := yaml.Marshal(o.Obj)
		if err != nil {
			t.Fatal(err)
		}
		for _, leak := range []string{"jdbc:", "CIPHERD_SUBJECT_STORE_PASSWORD:", "--subject-store"} {
			if strings.Contains(string(text), leak) {
				t.Errorf("%s %s renders %q: the URL and the password stay in the Secret", o.Kind, o.Name, leak)
			}
		}
	}
	for _, c := range dep.Spec.Template.Spec.Containers {
		if args := strings.Join(append(slices.Clone(c.Command), c.Args...), " "); strings.Contains(args, "subject") {
			t.Errorf("container %s passes subject-store settings as arguments: %s", c.Name, args)
		}
	}
	// Egress: DNS, Vault, and the database's port to the peers the values name.
	egress := only[*networkingv1.NetworkPolicy](t, rel).Spec.Egress
	if len(egress) != 3 || len(egress[2].Ports) != 1 || egress[2].Ports[0].Port.IntValue() != 6432 ||
		len(egress[2].To) != 1 || egress[2].To[0].PodSelector.MatchLabels["app.kubernetes.io/name"] != "postgresql" {
		t.Errorf("want a third egress rule to the database's port 6432 and its pods: %+v", egress)
	}
	for _, want := range []string{"cipherd-subject-store", "(PT2S)", "erase operation", "port 6432"} {
		if !strings.Contains(rel.Notes, want) {
			t.Errorf("NOTES.txt does not say %q:\n%s", want, rel.Notes)
		}
	}
}

// The password reaches the server as a file it can read: the volume is readable by the pod's group
// (fsGroup), which the non-root server runs in.
func TestSubjectStorePasswordIsReadableByTheServer(t *testing.T) {
	dep := only[*appsv1.Deployment](t, mustRender(t, "subject-store-values.yaml"))
	psc := dep.Spec.Template.Spec.SecurityContext
	mode := *volume(t, dep, "subject-store").Secret.DefaultMode
	if psc.FSGroup == nil || psc.RunAsGroup == nil || *psc.FSGroup != *psc.RunAsGroup || mode&0o040 == 0 {
		t.Errorf("mode %o with fsGroup %v and runAsGroup %v: the server could not read its password", mode, psc.FSGroup, psc.RunAsGroup)
	}
}

func TestSubjectStoreEgressIsOpenOnlyWhenAsked(t *testing.T) {
	rel, err := renderRelease(t, "subject-store-values.yaml", map[string]any{"networkPolicy.subjectStoreEgress.to": []any{}})
	if err != nil {
		t.Fatal(err)
	}
	egress := only[*networkingv1.NetworkPolicy](t, rel).Spec.Egress
	if len(egress) != 3 || egress[2].Ports[0].Port.IntValue() != 6432 || len(egress[2].To) != 0 {
		t.Errorf("with no peers named, the database's port to any address: %+v", egress)
	}
	if !strings.Contains(rel.Notes, "narrow it with networkPolicy.subjectStoreEgress.to") {
		t.Errorf("NOTES must say the database's port is open to any address:\n%s", rel.Notes)
	}
}
