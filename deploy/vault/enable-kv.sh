#!/usr/bin/env bash
# Makes sure cipherd's KV mount is a KV version 2 engine: enables it if missing, upgrades a KV v1 mount in
# place (`vault kv enable-versioning`), leaves a KV v2 mount alone. Uses the vault CLI with VAULT_ADDR and
# VAULT_TOKEN (an operator token). Usage: enable-kv.sh [MOUNT]   (default: $CIPHERD_VAULT_MOUNT or secret)
set -euo pipefail
mount=${1:-${CIPHERD_VAULT_MOUNT:-secret}}
vault=${VAULT_BIN:-vault}
if ! type=$("$vault" read -field=type "sys/mounts/$mount" 2>/dev/null); then
  "$vault" secrets enable -path="$mount" kv-v2
elif [ "$type" != kv ]; then
  echo "enable-kv: $mount/ is a $type engine, not KV: choose another --vault-mount" >&2
  exit 1
elif [[ "$("$vault" read -field=options "sys/mounts/$mount")" != *"version:2"* ]]; then
  "$vault" kv enable-versioning "$mount"
else
  echo "enable-kv: $mount/ is already KV v2"
fi
