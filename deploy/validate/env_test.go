package validate

// The env the chart sets must be env the server reads: names from the real jar's --help (and logback.xml
// for CIPHERD_LOG_LEVEL), and every file an env var names must lie in a mounted volume.

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
)

const jarPath = "../../server/target/cipherd.jar"

var envName = regexp.MustCompile(`CIPHERD_[A-Z0-9_]+`)

// serverEnvNames runs `java -jar cipherd.jar --help` and collects every CIPHERD_* name it documents.
func serverEnvNames(t *testing.T) map[string]bool {
	t.Helper()
	out, err := exec.Command(javaBin(t), append(jvmFlags(), "-jar", jar(t), "--help")...).CombinedOutput()
	if err != nil {
		t.Fatalf("cipherd --help: %v\n%s", err, out)
	}
	// picocli wraps long lines; a name is never split, but join anyway so a wrap at "_" cannot hide one.
	help := strings.Join(strings.Fields(string(out)), " ")
	names := map[string]bool{}
	for _, n := range envName.FindAllString(help, -1) {
		names[n] = true
	}
	logback, err := os.ReadFile("../../server/src/main/resources/logback.xml")
	if err != nil {
		t.Fatalf("reading logback.xml: %v", err)
	}
	for _, n := range envName.FindAllString(string(logback), -1) {
		names[n] = true
	}
	if len(names) < 20 {
		t.Fatalf("--help documents only %d CIPHERD_* variables: %v", len(names), names)
	}
	return names
}

func jar(t *testing.T) string {
	t.Helper()
	p, err := filepath.Abs(jarPath)
	if err == nil {
		_, err = os.Stat(p)
	}
	if err != nil {
		t.Fatalf("the server jar is needed (make build): %v", err)
	}
	return p
}

func javaBin(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("../../.ci/jdk-home").Output()
	if err != nil {
		t.Fatalf(".ci/jdk-home: %v", err)
	}
	return filepath.Join(strings.TrimSpace(string(out)), "bin", "java")
}

// jvmFlags: JDK 23+ warns at each start that protobuf and Netty use sun.misc.Unsafe; they still may.
func jvmFlags() []string { return []string{"--sun-misc-unsafe-memory-access=allow"} }

// fileEnv are the variables whose value is a file the server opens.
var fileEnv = regexp.MustCompile(`_FILE$|^CIPHERD_TLS_(CERT|KEY|CLIENT_CA)$|^CIPHERD_ACCESS_POLICY$`)

func checkEnv(t *testing.T, dep *appsv1.Deployment, cm *corev1.ConfigMap, serverEnv map[string]bool) {
	c := container(t, dep)
	if len(c.EnvFrom) != 1 || c.EnvFrom[0].ConfigMapRef == nil || c.EnvFrom[0].ConfigMapRef.Name != cm.Name {
		t.Fatalf("the container must take its settings from ConfigMap %s", cm.Name)
	}
	env := map[string]string{}
	for k, v := range cm.Data {
		env[k] = v
	}
	for _, e := range c.Env {
		env[e.Name] = e.Value
	}
	for name, value := range env {
		if !strings.HasPrefix(name, "CIPHERD_") {
			continue
		}
		if !serverEnv[name] {
			t.Errorf("%s is set, but the server reads no such variable (not in --help or logback.xml)", name)
		}
		if fileEnv.MatchString(name) {
			checkFileIsMounted(t, dep, name, value)
		}
	}
	if env["CIPHERD_KEYSTORE"] != "vault" || env["CIPHERD_VAULT_ADDRESS"] == "" {
		t.Error("the chart runs stateless replicas: the key store must be Vault, with an address")
	}
	tls := env["CIPHERD_TLS_CERT"] != ""
	if tls == (env["CIPHERD_INSECURE"] == "true") {
		t.Errorf("CIPHERD_INSECURE=%q with TLS %v: plaintext must be allowed exactly when TLS is off", env["CIPHERD_INSECURE"], tls)
	}
}

// checkFileIsMounted: the file lies under a mount of a volume that provides that very file name.
func checkFileIsMounted(t *testing.T, dep *appsv1.Deployment, name, file string) {
	m := mountFor(t, dep, file)
	if m == nil {
		t.Errorf("%s=%s is under no volume mount", name, file)
		return
	}
	rel := strings.TrimPrefix(file, strings.TrimSuffix(m.MountPath, "/")+"/")
	for _, v := range dep.Spec.Template.Spec.Volumes {
		if v.Name != m.Name {
			continue
		}
		var provided []string
		switch {
		case v.Secret != nil:
			for _, it := range v.Secret.Items {
				provided = append(provided, it.Path)
			}
		case v.ConfigMap != nil:
			provided = []string{"access-policy.yaml"} // the ConfigMap's key, checked in TestAccessPolicyConfigMap
		case v.Projected != nil:
			for _, s := range v.Projected.Sources {
				if s.ServiceAccountToken != nil {
					provided = append(provided, s.ServiceAccountToken.Path)
				}
			}
		}
		for _, p := range provided {
			if p == rel {
				return
			}
		}
		t.Errorf("%s=%s: volume %s provides %v, not %s", name, file, v.Name, provided, rel)
		return
	}
	t.Errorf("%s=%s: mount %s has no volume", name, file, m.Name)
}

// mountFor returns the container's volume mount that holds path.
func mountFor(t *testing.T, dep *appsv1.Deployment, path string) *corev1.VolumeMount {
	for _, m := range container(t, dep).VolumeMounts {
		if path == m.MountPath || strings.HasPrefix(path, strings.TrimSuffix(m.MountPath, "/")+"/") {
			return &m
		}
	}
	return nil
}
