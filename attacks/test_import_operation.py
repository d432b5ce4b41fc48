"""Finding 9: importing key material is its own operation, not part of `admin`.

ImportKey into an existing key makes caller-chosen bytes a version of it: whoever chose them can read
everything encrypted after a rotation to it. An `admin` grant (create, rotate, policy) must not carry
that. Budget: 0 imports by a caller with `admin` only (PERMISSION_DENIED); a caller with `import`
imports (positive control)."""

from __future__ import annotations

import os

import grpc
from answers import unary
from conftest import Callers, fresh
from keyring import create_key
from servers import Target, connect

from cipherd.v1 import key_admin_service_pb2 as admin_pb
from cipherd.v1 import keys_pb2


def _import(key: str) -> admin_pb.ImportKeyRequest:
    return admin_pb.ImportKeyRequest(key_name=key, mode=keys_pb2.MODE_GCM, key_material=os.urandom(32))


def test_admin_alone_cannot_import_into_an_existing_key(policy_server: Target, callers: Callers) -> None:
    key = fresh("import-target")
    with connect(policy_server) as stubs:
        create_key(stubs, callers.admin.metadata, key)
        by_admin = unary(stubs.admin.ImportKey, _import(key), callers.admin_only.metadata)
        by_importer = unary(stubs.admin.ImportKey, _import(key), callers.importer.metadata)
    assert by_admin.code == grpc.StatusCode.PERMISSION_DENIED, f"admin-only caller: {by_admin.brief()}"
    assert by_importer.ok, f"import caller (positive control): {by_importer.brief()}"
