"""One-off gRPC calls with grpcurl against the repo's protos: create and rotate keys, make ciphertexts."""

import json
import os
import subprocess

from .. import tools

TOKEN_ENV = "CIPHERD_TOKEN"  # a bearer token for a target with an access policy
PROTOS = ["cipherd/v1/crypto_service.proto", "cipherd/v1/key_admin_service.proto"]


class Caller:
    def __init__(self, grpcurl: str, target: str):
        self.grpcurl, self.target = grpcurl, target

    def call(self, method: str, request: dict) -> dict:
        cmd = [self.grpcurl, "-plaintext", "-max-time", "30", "-import-path", str(tools.REPO / "proto")]
        if os.environ.get(TOKEN_ENV):
            # grpcurl expands the variable itself: the token is in no argument list
            cmd += ["-expand-headers", "-H", "authorization: Bearer ${" + TOKEN_ENV + "}"]
        for p in PROTOS:
            cmd += ["-proto", p]
        cmd += ["-d", "@", self.target, method]
        r = subprocess.run(cmd, input=json.dumps(request), capture_output=True, text=True)
        if r.returncode != 0:
            # grpcurl's error names the status and message, never request data
            raise SystemExit(f"loadtest: {method} failed: {r.stderr.strip()}")
        return json.loads(r.stdout or "{}")

    def create_key(self, spec: dict, reuse: bool = False) -> None:
        """Creates a campaign key; with reuse (a server this runner did not start), one that exists is used."""
        request = {k: v for k, v in spec.items() if k != "rotate_after_fixtures"}
        try:
            self.call("cipherd.v1.KeyAdminService/CreateKey", request)
        except SystemExit as e:
            if not (reuse and "AlreadyExists" in str(e)):
                raise

    def rotate_key(self, spec: dict) -> None:
        request = {k: spec[k] for k in ("key_name", "mode", "allow_unauthenticated") if k in spec}
        self.call("cipherd.v1.KeyAdminService/RotateKey", request)

    def encrypt(self, key_name: str, plaintext_b64: str) -> str:
        return self.call("cipherd.v1.CryptoService/Encrypt", {"key_name": key_name, "plaintext": plaintext_b64})[
            "ciphertext"
        ]
