{{/* Chart name, overridable. */}}
{{- define "cipherd.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Full name of the release's objects, at most 63 characters (a DNS label). */}}
{{- define "cipherd.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{- define "cipherd.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Labels on every object, without the component. */}}
{{- define "cipherd.commonLabels" -}}
helm.sh/chart: {{ include "cipherd.chart" . }}
app.kubernetes.io/name: {{ include "cipherd.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: cipherd
{{- end }}

{{/* Labels on the server's objects. */}}
{{- define "cipherd.labels" -}}
{{ include "cipherd.commonLabels" . }}
app.kubernetes.io/component: server
{{- end }}

{{/* Labels that select the server pods; never change them on upgrade (Deployment selectors are immutable). */}}
{{- define "cipherd.selectorLabels" -}}
app.kubernetes.io/name: {{ include "cipherd.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/component: server
{{- end }}

{{/* Labels of the metrics Service (metrics-service.yaml), which the ServiceMonitor selects: not the
client-facing Service's, whose component is server. */}}
{{- define "cipherd.metricsSelectorLabels" -}}
app.kubernetes.io/name: {{ include "cipherd.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/component: metrics
{{- end }}

{{- define "cipherd.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "cipherd.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{- define "cipherd.image" -}}
{{- $tag := default .Chart.AppVersion .Values.image.tag }}
{{- if .Values.image.digest }}
{{- printf "%s:%s@%s" .Values.image.repository $tag .Values.image.digest }}
{{- else }}
{{- printf "%s:%s" .Values.image.repository $tag }}
{{- end }}
{{- end }}

{{/* "grpc" or "http": kubelet's gRPC probes speak plaintext only, so TLS needs the HTTP endpoints. */}}
{{- define "cipherd.probeType" -}}
{{- if eq .Values.probes.type "auto" }}
{{- ternary "http" "grpc" .Values.tls.enabled }}
{{- else }}
{{- .Values.probes.type }}
{{- end }}
{{- end }}

{{/* Pod grace: the preStop sleep, then the server's own drain, then 5 s for the JVM to exit. */}}
{{- define "cipherd.terminationGracePeriodSeconds" -}}
{{- add .Values.server.preStopSleepSeconds .Values.server.shutdownGraceSeconds 5 }}
{{- end }}

{{- define "cipherd.accessPolicyConfigMap" -}}
{{- default (printf "%s-access-policy" (include "cipherd.fullname" .)) .Values.accessPolicy.existingConfigMap }}
{{- end }}

{{/* Refuses value combinations that would render a pod that cannot start. */}}
{{- define "cipherd.validate" -}}
{{- if and (not .Values.accessPolicy.enabled) (not .Values.accessPolicy.insecureAllowEveryCallerEveryKey) }}
{{- fail "accessPolicy is off: every caller could encrypt and decrypt with every key. Set accessPolicy.enabled=true with accessPolicy.policy (or existingConfigMap), or accessPolicy.insecureAllowEveryCallerEveryKey=true to accept that deliberately" }}
{{- end }}
{{- if gt (add .Values.server.heapPercent .Values.server.directMemoryPercent) 85 }}
{{- fail "server.heapPercent + server.directMemoryPercent is over 85: the JVM needs the rest of the memory limit for metaspace, code, threads and GC" }}
{{- end }}
{{- $_ := include "cipherd.memoryLimitBytes" . }}
{{- if and .Values.tls.enabled (not .Values.tls.secretName) }}
{{- fail (printf "TLS is on by default and needs the server's certificate: set tls.secretName to a kubernetes.io/tls Secret (tls.crt, tls.key, ca.crt), e.g. the one a cert-manager Certificate for %s.%s.svc writes, or one made with kubectl create secret tls (docs/deploy.md). Plaintext gRPC shows bearer tokens and data to anyone on the pod network; to accept that deliberately set tls.enabled=false and tls.insecurePlaintextTokensAndDataInTheClear=true" (include "cipherd.fullname" .) .Release.Namespace) }}
{{- end }}
{{- if and (not .Values.tls.enabled) (not .Values.tls.insecurePlaintextTokensAndDataInTheClear) }}
{{- fail "tls.enabled is false: plaintext gRPC shows bearer tokens and data to anyone on the pod network. Set tls.enabled=true with tls.secretName, or tls.insecurePlaintextTokensAndDataInTheClear=true to accept that deliberately" }}
{{- end }}
{{- if and .Values.tls.enabled .Values.tls.insecurePlaintextTokensAndDataInTheClear }}
{{- fail "tls.insecurePlaintextTokensAndDataInTheClear=true needs tls.enabled=false: the chart serves either TLS or, deliberately, plaintext" }}
{{- end }}
{{- if and .Values.tls.mutual (not .Values.tls.enabled) }}
{{- fail "tls.mutual needs tls.enabled" }}
{{- end }}
{{- if and (eq .Values.vault.auth "approle") (not .Values.vault.approle.secretName) }}
{{- fail "vault.auth=approle needs vault.approle.secretName" }}
{{- end }}
{{- if and (eq .Values.vault.auth "token") (not .Values.vault.token.secretName) }}
{{- fail "vault.auth=token needs vault.token.secretName" }}
{{- end }}
{{- if and .Values.subjectStore.enabled (not .Values.subjectStore.secretName) }}
{{- fail "subjectStore.enabled needs subjectStore.secretName: an existing Secret with the JDBC URL, user and password (keys subjectStore.urlKey, userKey, passwordKey), e.g. kubectl create secret generic cipherd-subject-store --from-literal=url=jdbc:postgresql://HOST:5432/DB --from-literal=username=USER --from-file=password=FILE" }}
{{- end }}
{{- if and .Values.audit.required (not .Values.audit.enabled) }}
{{- fail "audit.required needs audit.enabled" }}
{{- end }}
{{- if and (eq .Values.probes.type "grpc") .Values.tls.enabled }}
{{- fail "probes.type=grpc cannot probe a TLS port (kubelet's gRPC probe is plaintext): use auto or http" }}
{{- end }}
{{- end }}

{{/* Timing fields of a probe, from one of .Values.probes.liveness/readiness. */}}
{{- define "cipherd.probeTimings" -}}
initialDelaySeconds: {{ .initialDelaySeconds }}
periodSeconds: {{ .periodSeconds }}
timeoutSeconds: {{ .timeoutSeconds }}
failureThreshold: {{ .failureThreshold }}
{{- end }}

{{/* The container's memory limit in bytes (resources.limits.memory: 1Gi, 512Mi, 2G, or a plain number); the
JVM's heap and direct memory are sized from it, so there must be one. */}}
{{- define "cipherd.memoryLimitBytes" -}}
{{- $m := toString (dig "limits" "memory" "" .Values.resources) -}}
{{- if not $m }}
{{- fail "resources.limits.memory is required: the JVM's heap (server.heapPercent) and direct memory (server.directMemoryPercent) are sized from it" }}
{{- end }}
{{- $units := dict "" 1 "k" 1000 "K" 1000 "M" 1000000 "G" 1000000000 "T" 1000000000000 "Ki" 1024 "Mi" 1048576 "Gi" 1073741824 "Ti" 1099511627776 -}}
{{- $n := regexFind "^[0-9]+" $m -}}
{{- $u := trimPrefix $n $m -}}
{{- if or (not $n) (not (hasKey $units $u)) }}
{{- fail (printf "resources.limits.memory %q: use a whole number with an optional unit (Ki, Mi, Gi, Ti, k, M, G, T)" $m) }}
{{- end }}
{{- mul (int64 $n) (get $units $u) -}}
{{- end }}

{{/* JDK_JAVA_OPTIONS: heap and direct memory sized from the memory limit, then server.jvmOptions. */}}
{{- define "cipherd.jvmOptions" -}}
{{- $limit := include "cipherd.memoryLimitBytes" . | int64 -}}
{{- $direct := div (mul $limit .Values.server.directMemoryPercent) 100 -}}
{{- printf "-XX:MaxRAMPercentage=%d -XX:MaxDirectMemorySize=%d %s" (int .Values.server.heapPercent) $direct .Values.server.jvmOptions | trim -}}
{{- end }}
