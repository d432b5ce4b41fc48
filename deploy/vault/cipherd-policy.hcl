# The Vault policy cipherd needs for --keystore=vault with the default --vault-mount=secret and
# --vault-prefix=cipherd/keys; change both path prefixes if you change those options.
# Load it with:  vault policy write cipherd deploy/vault/cipherd-policy.hcl
#
# No "delete" or "patch": cipherd never removes or rewrites a key version. The one way a version's
# bytes go is a destruction an operator scheduled (after its pending window), through "destroy" below.

# Key versions: one KV v2 secret per key, one KV version per key version. "create" for a new key,
# "update" for each rotation (always a check-and-set write), "read" for key bytes and version fields.
# The same wildcard covers cipherd's own secrets beside the keys: _usage/<name> (usage counts) and
# _lifecycle/<name> (key and version states, written with check-and-set).
path "secret/data/cipherd/keys/*" {
  capabilities = ["create", "read", "update"]
}

# Per-key metadata: the key's policy (custom_metadata), max_versions and cas_required; "list" for ListKeys.
path "secret/metadata/cipherd/keys/*" {
  capabilities = ["read", "update", "list"]
}

# Destroying a version's bytes once its scheduled destruction (or its key's deletion) is due: KV v2
# destroy erases the data of the KV versions named, keeping their metadata. "update" is all it takes.
path "secret/destroy/cipherd/keys/*" {
  capabilities = ["update"]
}

# Only with --kek=transit (docs/security.md): wrapping and unwrapping key material with the Transit
# key cipherd-kek. "update" alone, so Transit's encrypt never creates a missing key. Not "read" on
# transit/keys/*: cipherd needs nothing about the key but that it encrypts and decrypts.
path "transit/encrypt/cipherd-kek" {
  capabilities = ["update"]
}

path "transit/decrypt/cipherd-kek" {
  capabilities = ["update"]
}
