"""The real Vault dev server (from .ci/install-vault) with Transit and one aes256-gcm96 key, on 127.0.0.1.

Started on a free loopback port with a random root token (never stored: -dev-no-store-token), in-memory
storage; every setup call goes through Vault's HTTP API with urllib.
"""

import json
import secrets
import subprocess
import urllib.error
import urllib.request
from pathlib import Path

from .. import tools
from .process import HOST, ManagedProcess, free_port

KEY = "sbs"


def install() -> str:
    r = subprocess.run([str(tools.REPO / ".ci" / "install-vault")], stdout=subprocess.PIPE, text=True)
    if r.returncode != 0 or not r.stdout.strip():
        raise SystemExit("loadtest: could not install Vault (.ci/install-vault); see the message above")
    return r.stdout.strip().splitlines()[-1]


class Vault:
    """A Vault dev server with Transit mounted and the key KEY, set up through its HTTP API."""

    def __init__(self, binary: str, results: Path):
        self.binary, self.results = binary, results
        self.port = free_port()
        self.token = secrets.token_hex(16)
        self.process = ManagedProcess("Vault", results / "vault.log")

    @property
    def base(self) -> str:
        return f"http://{HOST}:{self.port}"

    def start(self, timeout: float = 60.0) -> None:
        self.process.launch(
            [
                self.binary,
                "server",
                "-dev",
                f"-dev-listen-address={HOST}:{self.port}",
                f"-dev-root-token-id={self.token}",
                "-dev-no-store-token",
                "-log-level=warn",
            ]
        )
        self.process.wait_ready(self._healthy, timeout)
        self.api("POST", "/v1/sys/mounts/transit", {"type": "transit"})
        self.api("POST", f"/v1/transit/keys/{KEY}", {"type": "aes256-gcm96"})

    def _healthy(self) -> bool:
        with urllib.request.urlopen(f"{self.base}/v1/sys/health", timeout=2) as r:
            return r.status == 200

    def api(self, method: str, path: str, body=None) -> dict:
        data = None if body is None else (body if isinstance(body, bytes) else json.dumps(body).encode())
        req = urllib.request.Request(
            self.base + path,
            data=data,
            method=method,
            headers={"X-Vault-Token": self.token, "Content-Type": "application/json"},
        )
        try:
            with urllib.request.urlopen(req, timeout=30) as r:
                text = r.read().decode()
        except urllib.error.HTTPError as e:
            raise SystemExit(f"loadtest: Vault {method} {path}: HTTP {e.code} {e.read().decode()[:300]}") from None
        return json.loads(text) if text.strip() else {}

    def headers(self) -> list[str]:
        return [f"X-Vault-Token: {self.token}", "Content-Type: application/json"]

    def url(self, op: str) -> str:
        return f"{self.base}/v1/transit/{op}/{KEY}"

    def rotate(self) -> None:
        self.api("POST", f"/v1/transit/keys/{KEY}/rotate", {})

    def cpu_seconds(self) -> float:
        return self.process.cpu_seconds()

    def stop(self, grace: float = 15.0) -> None:
        self.process.stop(grace)
