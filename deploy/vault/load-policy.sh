#!/usr/bin/env bash
# Loads cipherd's Vault policy (cipherd-policy.hcl, or the read-only variant) for a given KV mount and key
# prefix: the .hcl files are written for the defaults secret/ and cipherd/keys, and this rewrites their paths.
# Usage: load-policy.sh [NAME] [FILE]   (defaults: cipherd, cipherd-policy.hcl beside this script)
#   env CIPHERD_VAULT_MOUNT (secret), CIPHERD_VAULT_PREFIX (cipherd/keys), VAULT_ADDR, VAULT_TOKEN
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
name=${1:-cipherd}
file=${2:-$here/cipherd-policy.hcl}
mount=${CIPHERD_VAULT_MOUNT:-secret}
prefix=${CIPHERD_VAULT_PREFIX:-cipherd/keys}
vault=${VAULT_BIN:-vault}
sed -e "s#\"secret/data/cipherd/keys/#\"$mount/data/$prefix/#" \
    -e "s#\"secret/metadata/cipherd/keys/#\"$mount/metadata/$prefix/#" \
    -e "s#\"secret/destroy/cipherd/keys/#\"$mount/destroy/$prefix/#" "$file" \
  | "$vault" policy write "$name" -
