#!/usr/bin/env bash
# Sets up AppRole login for cipherd: enables the approle auth method (if needed), writes role ROLE with the
# cipherd policy, and writes its role_id and a new secret_id into DIR/role-id and DIR/secret-id (0600),
# ready for `kubectl create secret generic cipherd-approle --from-file=DIR/role-id --from-file=DIR/secret-id`
# or for CIPHERD_VAULT_ROLE_ID_FILE / CIPHERD_VAULT_SECRET_ID_FILE.
# Usage: setup-approle.sh DIR [ROLE]   env: CIPHERD_VAULT_AUTH_MOUNT (approle), POLICY (cipherd)
set -euo pipefail
dir=${1:?usage: setup-approle.sh DIR [ROLE]}
role=${2:-cipherd}
mount=${CIPHERD_VAULT_AUTH_MOUNT:-approle}
policy=${POLICY:-cipherd}
vault=${VAULT_BIN:-vault}
"$vault" read "sys/auth/$mount" >/dev/null 2>&1 || "$vault" auth enable -path="$mount" approle
# Short-lived tokens: cipherd renews at two thirds of the TTL and logs in again before the max TTL.
"$vault" write "auth/$mount/role/$role" token_policies="$policy" token_ttl=1h token_max_ttl=24h secret_id_ttl=0
mkdir -p "$dir"
(umask 077
 "$vault" read -field=role_id "auth/$mount/role/$role/role-id" > "$dir/role-id"
 "$vault" write -f -field=secret_id "auth/$mount/role/$role/secret-id" > "$dir/secret-id")
echo "setup-approle: wrote $dir/role-id and $dir/secret-id for role $role on auth/$mount"
