"""Request bodies for the side-by-side, from the real protos: cipherd's messages (pre-framed for h2load),
Vault Transit's JSON, and one real gRPC call per body to see its status (h2load cannot).

proto/ is compiled to Python with grpcio-tools into ~/.cache/cipherd/pyproto/<hash of the .proto files>,
so a change to the API gives new modules.
"""
import base64
import hashlib
import importlib.resources
import json
import struct
import sys

from . import tools, venv

PROTO_DIR = tools.REPO / "proto"
SERVICE = "cipherd.v1.CryptoService"
ADMIN = "cipherd.v1.KeyAdminService"


def frame(message: bytes) -> bytes:
    """A gRPC length-prefixed message: 1 byte compressed flag (0), 4-byte big-endian length, the bytes."""
    return b"\x00" + struct.pack(">I", len(message)) + message


def unframe(body: bytes) -> bytes:
    if len(body) < 5 or body[0] != 0 or struct.unpack(">I", body[1:5])[0] != len(body) - 5:
        raise ValueError("not one uncompressed gRPC message")
    return body[5:]


def _compiled_dir():
    protos = sorted(PROTO_DIR.glob("cipherd/v1/*.proto"))
    digest = hashlib.sha256(b"".join(p.read_bytes() for p in protos)).hexdigest()[:16]
    out = venv.CACHE / "pyproto" / digest
    if not (out / ".done").exists():
        from grpc_tools import protoc
        import grpc_tools
        out.mkdir(parents=True, exist_ok=True)
        include = str(importlib.resources.files(grpc_tools) / "_proto")
        args = ["protoc", f"-I{PROTO_DIR}", f"-I{include}", f"--python_out={out}",
                *[str(p.relative_to(PROTO_DIR)) for p in protos]]
        if protoc.main(args) != 0:
            raise SystemExit(f"loadtest: protoc (grpcio-tools) could not compile {PROTO_DIR}")
        (out / ".done").write_text("ok")
    return out


def pb():
    """The compiled modules: (crypto_service_pb2, key_admin_service_pb2, keys_pb2)."""
    path = str(_compiled_dir())
    if path not in sys.path:
        sys.path.insert(0, path)
    from cipherd.v1 import crypto_service_pb2, key_admin_service_pb2, keys_pb2
    return crypto_service_pb2, key_admin_service_pb2, keys_pb2


def encrypt(key_name: str, plaintext: bytes) -> bytes:
    cs = pb()[0]
    return cs.EncryptRequest(key_name=key_name, plaintext=plaintext).SerializeToString()


def encrypt_batch(key_name: str, plaintext: bytes, n: int) -> bytes:
    cs = pb()[0]
    items = [cs.EncryptBatchItem(reference=str(i), plaintext=plaintext) for i in range(n)]
    return cs.EncryptBatchRequest(key_name=key_name, items=items).SerializeToString()


def reencrypt_batch(key_name: str, ciphertext: str, n: int) -> bytes:
    cs = pb()[0]
    items = [cs.ReEncryptBatchItem(reference=str(i), ciphertext=ciphertext) for i in range(n)]
    return cs.ReEncryptBatchRequest(key_name=key_name, items=items).SerializeToString()


def vault_encrypt(plaintext: bytes) -> bytes:
    return json.dumps({"plaintext": base64.b64encode(plaintext).decode()}).encode()


def vault_encrypt_batch(plaintext: bytes, n: int) -> bytes:
    b64 = base64.b64encode(plaintext).decode()
    return json.dumps({"batch_input": [{"plaintext": b64} for _ in range(n)]}).encode()


def vault_rewrap_batch(ciphertext: str, n: int) -> bytes:
    return json.dumps({"batch_input": [{"ciphertext": ciphertext} for _ in range(n)]}).encode()


class Client:
    """Real gRPC calls with grpcio and identity (de)serializers: the exact bytes h2load will send."""

    def __init__(self, target: str):
        import grpc
        self._grpc = grpc
        self.channel = grpc.insecure_channel(target)

    def call(self, method: str, message: bytes, timeout: float = 30.0):
        """(status code name, response bytes or None, details) of one unary call."""
        fn = self.channel.unary_unary(f"/{method}", request_serializer=None, response_deserializer=None)
        try:
            return "OK", fn(message, timeout=timeout), ""
        except self._grpc.RpcError as e:
            return e.code().name, None, e.details()

    def must(self, method: str, message: bytes, response_type):
        code, raw, details = self.call(method, message)
        if code != "OK":
            raise SystemExit(f"loadtest: {method} answered {code}: {details}")
        return response_type.FromString(raw), len(raw)

    def close(self):
        self.channel.close()
