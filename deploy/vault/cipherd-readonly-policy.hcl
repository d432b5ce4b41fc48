# A read-only variant of cipherd-policy.hcl: enough to encrypt and decrypt with existing keys, not to
# create, rotate, import or change a key's policy (those fail with PERMISSION_DENIED naming the path).
# Useful for replicas that must never change keys; cipherd's tests use it to check the denial path.

path "secret/data/cipherd/keys/*" {
  capabilities = ["read"]
}

path "secret/metadata/cipherd/keys/*" {
  capabilities = ["read", "list"]
}
