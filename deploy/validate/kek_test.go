package validate

// The key-encryption key (kek): kek.type=pkcs11 passes the token's module, slot, key label and the path of
// its PIN file to the server as CIPHERD_KEK_PKCS11_* settings the server reads; the PIN reaches the pod only
// as a file mounted read-only from the operator's Secret, never as an env value, an argument or anything
// rendered; the module comes from the volume the values give. Missing settings refuse to render, and
// kek.alsoUnwrap (a move between KEKs, `cipherd kek rewrap`) reaches the server.

import (
	"slices"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	"sigs.k8s.io/yaml"
)

const kekPinFile = "/var/run/secrets/cipherd/kek-pkcs11/pin"

func pkcs11Values() map[string]any {
	return map[string]any{
		"kek.type":                    "pkcs11",
		"kek.requireWrapped":          true,
		"kek.alsoUnwrap":              []any{"transit:transit/cipherd-kek"},
		"kek.pkcs11.library":          "/opt/hsm/lib/libsofthsm2.so",
		"kek.pkcs11.slot":             1570938573,
		"kek.pkcs11.keyLabel":         "cipherd-kek-2026",
		"kek.pkcs11.pin.secretName":   "cipherd-hsm-pin",
		"kek.pkcs11.pin.key":          "user-pin",
		"kek.pkcs11.libraryVolume":    map[string]any{"hostPath": map[string]any{"path": "/opt/hsm", "type": "Directory"}},
		"kek.pkcs11.libraryMountPath": "/opt/hsm",
	}
}

func TestKekPkcs11Values(t *testing.T) {
	rel, err := renderRelease(t, "", pkcs11Values())
	if err != nil {
		t.Fatalf("rendering kek.type=pkcs11: %v", err)
	}
	dep, cm := only[*appsv1.Deployment](t, rel), serverConfig(t, rel)
	read := serverEnvNames(t)
	for name, want := range map[string]string{
		"CIPHERD_KEK":                  "pkcs11",
		"CIPHERD_KEK_PKCS11_LIBRARY":   "/opt/hsm/lib/libsofthsm2.so",
		"CIPHERD_KEK_PKCS11_SLOT":      "1570938573",
		"CIPHERD_KEK_PKCS11_KEY_LABEL": "cipherd-kek-2026",
		"CIPHERD_KEK_PKCS11_PIN_FILE":  kekPinFile,
		"CIPHERD_KEK_REQUIRE_WRAPPED":  "true",
		"CIPHERD_KEK_ALSO_UNWRAP":      "transit:transit/cipherd-kek",
	} {
		if cm.Data[name] != want {
			t.Errorf("%s=%q, want %q", name, cm.Data[name], want)
		}
		if !read[name] {
			t.Errorf("the chart sets %s, which the server's --help does not document", name)
		}
	}
	for _, name := range []string{"CIPHERD_KEK_PKCS11_SLOT_INDEX", "CIPHERD_KEK_TRANSIT_KEY", "CIPHERD_KEK_PKCS11_PIN"} {
		if v, ok := cm.Data[name]; ok {
			t.Errorf("%s=%q set with kek.type=pkcs11 and a slot", name, v)
		}
	}
	// The PIN: a file from the Secret's key, on a read-only mount only the pod's group may read.
	v := volume(t, dep, "kek-pkcs11-pin").Secret
	if v == nil || v.SecretName != "cipherd-hsm-pin" || len(v.Items) != 1 || v.Items[0].Key != "user-pin" ||
		v.Items[0].Path != "pin" || v.DefaultMode == nil || *v.DefaultMode&0o007 != 0 {
		t.Errorf("the PIN must be the Secret's user-pin as the file pin, not world-readable: %+v", v)
	}
	if m := mountFor(t, dep, kekPinFile); m == nil || m.Name != "kek-pkcs11-pin" || !m.ReadOnly {
		t.Errorf("%s must lie on the read-only kek-pkcs11-pin mount: %+v", kekPinFile, m)
	}
	// The module: from the volume the values give, read-only, where library points.
	lib := volume(t, dep, "kek-pkcs11-library")
	if lib.HostPath == nil || lib.HostPath.Path != "/opt/hsm" {
		t.Errorf("the module's volume must be the values' hostPath: %+v", lib)
	}
	if m := mountFor(t, dep, "/opt/hsm/lib/libsofthsm2.so"); m == nil || m.Name != "kek-pkcs11-library" || !m.ReadOnly {
		t.Errorf("the module must lie on the read-only kek-pkcs11-library mount: %+v", m)
	}
	// Nothing carries the PIN: no env value from the Secret, no argument, nothing rendered names it.
	for _, c := range dep.Spec.Template.Spec.Containers {
		for _, e := range c.Env {
			if strings.Contains(e.Name, "PIN") {
				t.Errorf("container %s has env %s: the PIN is a file only", c.Name, e.Name)
			}
		}
		if args := strings.Join(append(slices.Clone(c.Command), c.Args...), " "); strings.Contains(args, "kek") {
			t.Errorf("container %s passes KEK settings as arguments: %s", c.Name, args)
		}
	}
	for _, o := range rel.Objects {
		text, err := yaml.Marshal(o.Obj)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(text), "CIPHERD_KEK_PKCS11_PIN:") {
			t.Errorf("%s %s renders the PIN variable", o.Kind, o.Name)
		}
	}
}

func TestKekPkcs11WithoutASlotUsesTheSlotIndex(t *testing.T) {
	set := pkcs11Values()
	delete(set, "kek.pkcs11.slot")
	delete(set, "kek.pkcs11.libraryVolume")
	set["kek.pkcs11.slotIndex"] = 2
	rel, err := renderRelease(t, "", set)
	if err != nil {
		t.Fatalf("rendering kek.type=pkcs11 with a slot index: %v", err)
	}
	cm := serverConfig(t, rel)
	if cm.Data["CIPHERD_KEK_PKCS11_SLOT_INDEX"] != "2" || cm.Data["CIPHERD_KEK_PKCS11_SLOT"] != "" {
		t.Errorf("want the slot index 2 and no slot: %v", cm.Data)
	}
	for _, v := range only[*appsv1.Deployment](t, rel).Spec.Template.Spec.Volumes {
		if v.Name == "kek-pkcs11-library" {
			t.Error("a module volume without kek.pkcs11.libraryVolume")
		}
	}
}

func TestKekPkcs11RefusesMissingSettings(t *testing.T) {
	for _, missing := range []string{"kek.pkcs11.library", "kek.pkcs11.pin.secretName"} {
		set := pkcs11Values()
		set[missing] = ""
		if _, err := renderRelease(t, "", set); err == nil || !strings.Contains(err.Error(), missing) {
			t.Errorf("without %s the chart must refuse to render, naming it: %v", missing, err)
		}
	}
}

func TestKekDefaultsRenderNoPkcs11(t *testing.T) {
	rel := mustRender(t, "default-values.yaml")
	for name := range serverConfig(t, rel).Data {
		if strings.HasPrefix(name, "CIPHERD_KEK_PKCS11_") || name == "CIPHERD_KEK_ALSO_UNWRAP" {
			t.Errorf("%s set by default", name)
		}
	}
	for _, v := range only[*appsv1.Deployment](t, rel).Spec.Template.Spec.Volumes {
		if strings.HasPrefix(v.Name, "kek-") {
			t.Errorf("a %s volume by default", v.Name)
		}
	}
}
