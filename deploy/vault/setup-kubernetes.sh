#!/usr/bin/env bash
# Sets up Kubernetes auth for the Helm chart: enables the kubernetes auth method (if needed), points it at the
# cluster's API server, and writes role ROLE bound to the release's ServiceAccount and namespace, for tokens
# with audience AUDIENCE (the chart projects such a token: vault.kubernetes.audience).
# Run it where Vault can reach KUBERNETES_HOST; with Vault inside the cluster, the defaults work.
# Usage: setup-kubernetes.sh SERVICE_ACCOUNT NAMESPACE [ROLE]
#   env: KUBERNETES_HOST (https://kubernetes.default.svc), KUBERNETES_CA_CERT (file; empty = Vault's pod CA),
#        CIPHERD_VAULT_AUTH_MOUNT (kubernetes), AUDIENCE (vault), POLICY (cipherd)
set -euo pipefail
sa=${1:?usage: setup-kubernetes.sh SERVICE_ACCOUNT NAMESPACE [ROLE]}
ns=${2:?usage: setup-kubernetes.sh SERVICE_ACCOUNT NAMESPACE [ROLE]}
role=${3:-cipherd}
mount=${CIPHERD_VAULT_AUTH_MOUNT:-kubernetes}
vault=${VAULT_BIN:-vault}
"$vault" read "sys/auth/$mount" >/dev/null 2>&1 || "$vault" auth enable -path="$mount" kubernetes
config=(kubernetes_host="${KUBERNETES_HOST:-https://kubernetes.default.svc}")
[ -n "${KUBERNETES_CA_CERT:-}" ] && config+=(kubernetes_ca_cert=@"$KUBERNETES_CA_CERT")
"$vault" write "auth/$mount/config" "${config[@]}"
"$vault" write "auth/$mount/role/$role" \
  bound_service_account_names="$sa" bound_service_account_namespaces="$ns" \
  audience="${AUDIENCE:-vault}" token_policies="${POLICY:-cipherd}" token_ttl=1h token_max_ttl=24h
echo "setup-kubernetes: role $role on auth/$mount accepts service account $ns/$sa"
