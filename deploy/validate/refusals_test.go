package validate

// Values the chart must refuse: by values.schema.json (types, enums, unknown keys) or by its own checks.

import (
	"strings"
	"testing"
)

func TestChartRefusesBadValues(t *testing.T) {
	cases := []struct {
		name string
		set  map[string]any
		want string
	}{
		{"plaintext not chosen", map[string]any{"tls.enabled": false}, "tls.insecurePlaintextTokensAndDataInTheClear=true"},
		{"tls without secret", map[string]any{"tls.secretName": ""}, "set tls.secretName"},
		{"plaintext opt-out with tls on", map[string]any{"tls.insecurePlaintextTokensAndDataInTheClear": true}, "needs tls.enabled=false"},
		{"the old plaintext value", map[string]any{"insecurePlaintext": true}, "insecurePlaintext"},
		{"mutual without tls", map[string]any{"tls.mutual": true, "tls.enabled": false, "tls.insecurePlaintextTokensAndDataInTheClear": true}, "tls.mutual needs tls.enabled"},
		{"approle without secret", map[string]any{"vault.auth": "approle"}, "vault.approle.secretName"},
		{"token without secret", map[string]any{"vault.auth": "token"}, "vault.token.secretName"},
		{"grpc probes on tls", map[string]any{"probes.type": "grpc"}, "cannot probe a TLS port"},
		{"unknown architecture", map[string]any{"architecture": "s390x"}, "/architecture"},
		{"unknown auth", map[string]any{"vault.auth": "ldap"}, "/vault/auth"},
		{"misspelt key", map[string]any{"replicas": 3}, "replicas"},
		{"port as string", map[string]any{"server.grpcPort": "50051"}, "grpcPort"},
		{"port out of range", map[string]any{"service.grpcPort": 70000}, "grpcPort"},
		{"duration not ISO-8601", map[string]any{"vault.timeout": "5s"}, "timeout"},
		{"vault without scheme", map[string]any{"vault.address": "vault:8200"}, "address"},
		{"no access policy", map[string]any{"accessPolicy.insecureAllowEveryCallerEveryKey": false}, "accessPolicy.insecureAllowEveryCallerEveryKey=true"},
		{"no memory limit", map[string]any{"resources.limits.memory": nil}, "resources.limits.memory is required"},
		{"memory limit unparseable", map[string]any{"resources.limits.memory": "1.5Gi"}, "whole number"},
		{"subject store without its Secret", map[string]any{"subjectStore.enabled": true}, "subjectStore.enabled needs subjectStore.secretName"},
		{"a database password in values", map[string]any{"subjectStore.password": "hunter2"}, "password"},
		{"subject cache TTL not ISO-8601", map[string]any{"subjectStore.cacheTtl": "5s"}, "cacheTtl"},
		{"subject store pool of 0", map[string]any{"subjectStore.poolSize": 0}, "poolSize"},
		{"heap and direct too large", map[string]any{"server.heapPercent": 70, "server.directMemoryPercent": 20}, "over 85"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := renderRelease(t, "", c.set)
			if err == nil {
				t.Fatalf("values %v rendered; the chart must refuse them", c.set)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("refusal %q does not name %q", err, c.want)
			}
		})
	}
}
