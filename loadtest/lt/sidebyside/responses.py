"""Each request body sent once with grpcio to cipherd and to echo: it must answer OK with one result per
item and no item error, and echo's answers must look like cipherd's (sizes, versions, references)."""

from .grpc_client import Client
from .protos import SERVICE, pb
from .shapes import SHAPES, Shape

RESPONSE_TYPES = {
    "Encrypt": "EncryptResponse",
    "EncryptBatch": "EncryptBatchResponse",
    "DecryptBatch": "DecryptBatchResponse",
    "ReEncryptBatch": "ReEncryptBatchResponse",
    "ReEncryptStream": "ReEncryptStreamResponse",
}


def outline(method: str, responses: list) -> dict:
    """What a method's answer looks like, bytes aside: the figures echo must match. `responses` is the one
    response of a unary call, or each message of a stream."""
    if method == "Encrypt":
        (resp,) = responses
        return {"ciphertext_len": len(resp.ciphertext), "key_version": resp.key_version}
    if method == "ReEncryptStream":
        res = [r.result for r in responses]
    else:
        (resp,) = responses
        res = list(resp.results)
    value = "plaintext" if method == "DecryptBatch" else "ciphertext"
    return {
        "results": len(res),
        "references_echoed": [r.reference for r in res] == [str(i) for i in range(len(res))],
        f"{value}_lens": sorted({len(getattr(r, value)) for r in res}),
        "errors": sum(1 for r in res if r.HasField("error")),
        "key_versions": sorted({r.key_version for r in res}),
        "source_versions": sorted({getattr(r, "source_key_version", 0) for r in res}),
    }


def check(client: Client, messages: dict[str, list[bytes]], who: str) -> dict:
    """Sends each shape's exact messages once (the shapes `messages` has); {shape: {"shape": outline,
    "response_bytes": size}}."""
    cs = pb()[0]
    seen = {}
    for shape in SHAPES:
        if shape.name in messages:
            seen[shape.name] = _check_one(client, cs, shape, messages[shape.name], who)
    return seen


def _check_one(client: Client, cs, shape: Shape, messages: list[bytes], who: str) -> dict:
    rtype = getattr(cs, RESPONSE_TYPES[shape.method])
    method = f"{SERVICE}/{shape.method}"
    if shape.streaming:
        responses, size = client.must_stream(method, messages, rtype)
    else:
        (message,) = messages
        resp, size = client.must(method, message, rtype)
        responses = [resp]
    got = outline(shape.method, responses)
    if shape.items > 1 and (got["results"] != shape.items or got["errors"]):
        raise SystemExit(f"loadtest: {who} {shape.method}: {got['results']} results, {got['errors']} item errors")
    return {"shape": got, "response_bytes": size}
