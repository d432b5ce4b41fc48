# The Vault policy cipherd needs for --keystore=vault with the default --vault-mount=secret and
# --vault-prefix=cipherd/keys; change both path prefixes if you change those options.
# Load it with:  vault policy write cipherd deploy/vault/cipherd-policy.hcl
#
# No "delete", "destroy" or "patch": cipherd never removes or rewrites a key version.

# Key versions: one KV v2 secret per key, one KV version per key version. "create" for a new key,
# "update" for each rotation (always a check-and-set write), "read" for key bytes and version fields.
path "secret/data/cipherd/keys/*" {
  capabilities = ["create", "read", "update"]
}

# Per-key metadata: the key's policy (custom_metadata), max_versions and cas_required; "list" for ListKeys.
path "secret/metadata/cipherd/keys/*" {
  capabilities = ["read", "update", "list"]
}
