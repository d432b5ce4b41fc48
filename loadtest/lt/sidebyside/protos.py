"""The repo's protos as Python modules, for the side-by-side's request bodies and its grpcio checks.

proto/ is compiled to Python with grpcio-tools into ~/.cache/cipherd/pyproto/<hash of the .proto files>,
so a change to the API gives new modules.
"""

import hashlib
import importlib.resources
import sys
from pathlib import Path

from .. import tools, venv

PROTO_DIR = tools.REPO / "proto"
SERVICE = "cipherd.v1.CryptoService"
ADMIN = "cipherd.v1.KeyAdminService"


def compiled_dir() -> Path:
    """Where the compiled modules are, compiling them once per set of .proto files."""
    protos = sorted(PROTO_DIR.glob("cipherd/v1/*.proto"))
    digest = hashlib.sha256(b"".join(p.read_bytes() for p in protos)).hexdigest()[:16]
    out = venv.CACHE / "pyproto" / digest
    if not (out / ".done").exists():
        import grpc_tools
        from grpc_tools import protoc

        out.mkdir(parents=True, exist_ok=True)
        include = str(importlib.resources.files(grpc_tools) / "_proto")
        args = [
            "protoc",
            f"-I{PROTO_DIR}",
            f"-I{include}",
            f"--python_out={out}",
            *[str(p.relative_to(PROTO_DIR)) for p in protos],
        ]
        if protoc.main(args) != 0:
            raise SystemExit(f"loadtest: protoc (grpcio-tools) could not compile {PROTO_DIR}")
        (out / ".done").write_text("ok")
    return out


def pb():
    """The compiled modules: (crypto_service_pb2, key_admin_service_pb2, keys_pb2)."""
    path = str(compiled_dir())
    if path not in sys.path:
        sys.path.insert(0, path)
    from cipherd.v1 import crypto_service_pb2, key_admin_service_pb2, keys_pb2

    return crypto_service_pb2, key_admin_service_pb2, keys_pb2
