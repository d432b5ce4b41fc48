"""The side-by-side's shapes, DecryptBatch-256 and ReEncryptStream-256 included: their request bodies for
cipherd and echo, Vault's counterparts (none for the stream) and the checks of the answers.

Tests that need the compiled protos run where grpcio-tools is installed (the runner's venv:
`~/.cache/cipherd/venv-loadtest-*/bin/python -m unittest discover -s loadtest/tests`)."""

import base64
import importlib.util
import json
import sys
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from lt import options  # noqa: E402
from lt.sidebyside import bodies, shapes, vault_target  # noqa: E402

HAVE_PROTOC = importlib.util.find_spec("grpc_tools") is not None
BY_NAME = {s.name: s for s in shapes.SHAPES}
CT = "<sbs-rewrap/v1:gcm>" + "A" * 172


class ShapesTest(unittest.TestCase):
    def test_the_shapes_each_subject_bound_one_after_its_plain_counterpart(self):
        self.assertEqual(
            shapes.NAMES,
            (
                "encrypt",
                "encrypt-subjects",
                "encrypt-batch-256",
                "encrypt-batch-256-subjects",
                "decrypt-batch-256",
                "decrypt-batch-256-subjects",
                "reencrypt-batch-256",
                "reencrypt-stream-256",
            ),
        )
        for name, items in (
            ("encrypt-subjects", 1),
            ("encrypt-batch-256-subjects", 256),
            ("decrypt-batch-256-subjects", 256),
        ):
            s = BY_NAME[name]
            self.assertEqual((s.subjects, s.has_vault, s.items), (True, False, items), name)
            self.assertEqual(s.method, BY_NAME[s.plain].method)
            self.assertEqual(shapes.NAMES.index(s.plain) + 1, shapes.NAMES.index(name))
        self.assertEqual(len(set(shapes.subject_ids())), shapes.SUBJECTS_PER_BATCH)
        self.assertEqual(BY_NAME["decrypt-batch-256"].method, "DecryptBatch")
        self.assertEqual(BY_NAME["decrypt-batch-256"].vault_op, "decrypt")
        stream = BY_NAME["reencrypt-stream-256"]
        self.assertEqual(
            (stream.method, stream.items, stream.streaming, stream.has_vault), ("ReEncryptStream", 256, True, False)
        )
        self.assertAlmostEqual(sum(s.warmup_share for s in shapes.SHAPES), 1.0)

    def test_sbs_shapes_selects_in_the_fixed_order_and_refuses_unknown_names(self):
        self.assertEqual(shapes.select(None), shapes.SHAPES)
        self.assertEqual(shapes.select("all"), shapes.SHAPES)
        chosen = shapes.select("encrypt-batch-256, encrypt")
        self.assertEqual([s.name for s in chosen], ["encrypt", "encrypt-batch-256"])
        with self.assertRaisesRegex(ValueError, "unknown side-by-side shape.*encrypt-batch-512"):
            shapes.select("encrypt,encrypt-batch-512")
        with self.assertRaisesRegex(ValueError, "names no shape"):
            shapes.select(" , ")

    def test_vault_gets_a_body_for_each_shape_it_has_and_none_for_the_stream(self):
        p = vault_target.payloads(b"hi", "vault:v2:dec", "vault:v1:old")
        self.assertEqual(set(p), {s.name for s in shapes.SHAPES if s.has_vault})
        self.assertEqual(json.loads(p["decrypt-batch-256"])["batch_input"], [{"ciphertext": "vault:v2:dec"}] * 256)
        self.assertEqual(json.loads(p["reencrypt-batch-256"])["batch_input"][255], {"ciphertext": "vault:v1:old"})

    def test_vault_decrypt_reply_must_give_back_the_plaintext_for_every_item(self):
        shape, text = BY_NAME["decrypt-batch-256"], b"the payload"
        good = {"data": {"batch_results": [{"plaintext": base64.b64encode(text).decode()}] * 256}}
        self.assertEqual(vault_target.reply_problems(shape, good, text), [])
        wrong = {"data": {"batch_results": good["data"]["batch_results"][:255] + [{"plaintext": "AAAA"}]}}
        self.assertEqual(vault_target.reply_problems(shape, wrong, text), ["1 items decrypted to another plaintext"])
        failed = {
            "data": {
                "batch_results": good["data"]["batch_results"][:255]
                + [{"error": "cipher: message authentication failed"}]
            }
        }
        found = vault_target.reply_problems(shape, failed, text)
        self.assertIn("1 items failed, first: cipher: message authentication failed", found)

    def test_vault_rewrap_and_encrypt_replies(self):
        rewrap = BY_NAME["reencrypt-batch-256"]
        self.assertEqual(
            vault_target.reply_problems(rewrap, {"data": {"batch_results": [{"ciphertext": "vault:v2:x"}] * 256}}, b""),
            [],
        )
        self.assertEqual(
            vault_target.reply_problems(rewrap, {"data": {"batch_results": [{}] * 256}}, b""),
            ["256 items failed, first: no ciphertext"],
        )
        self.assertEqual(
            vault_target.reply_problems(BY_NAME["encrypt"], {"data": {"ciphertext": "vault:v1:x"}}, b""),
            ["no vault:v2 ciphertext in the reply"],
        )


@unittest.skipUnless(HAVE_PROTOC, "needs grpcio-tools (the runner's venv)")
class ProtoBodiesTest(unittest.TestCase):
    def setUp(self):
        from lt.sidebyside import cipherd_target, protos

        self.cs = protos.pb()[0]
        self.subject_cts = [f"<sbs-enc/s:gcm>{i:044d}" for i in range(256)]
        self.messages = cipherd_target.messages(b"p" * 100, "<sbs-enc/v1:gcm>" + "B" * 172, CT, self.subject_cts)

    def test_each_shape_has_its_messages(self):
        self.assertEqual(set(self.messages), set(shapes.NAMES))
        for s in shapes.SHAPES:
            self.assertEqual(len(self.messages[s.name]), 256 if s.streaming else 1, s.name)

    def test_without_subject_ciphertexts_there_are_no_subject_shapes(self):
        from lt.sidebyside import cipherd_target

        plain = cipherd_target.messages(b"p" * 100, "<sbs-enc/v1:gcm>" + "B" * 172, CT)
        self.assertEqual(set(plain), {s.name for s in shapes.SHAPES if not s.subjects})

    def test_subject_batches_name_256_distinct_subjects_and_ciphertexts(self):
        (enc,) = self.messages["encrypt-batch-256-subjects"]
        req = self.cs.EncryptBatchRequest.FromString(enc)
        self.assertEqual(req.key_name, shapes.ENC_KEY)
        self.assertEqual([i.subject for i in req.items], shapes.subject_ids())
        self.assertEqual([i.reference for i in req.items], [str(i) for i in range(256)])
        (dec,) = self.messages["decrypt-batch-256-subjects"]
        items = self.cs.DecryptBatchRequest.FromString(dec).items
        self.assertEqual([i.ciphertext for i in items], self.subject_cts)

    def test_subject_settings_only_when_subject_bound_data_is_measured(self):
        from types import SimpleNamespace

        from lt.sidebyside import cipherd_target

        plain = SimpleNamespace(sbs_shapes=shapes.select("encrypt"), sbs_cold_subjects=0, sbs_subject_cache_size=1000)
        self.assertEqual(cipherd_target.subject_args(plain), [])
        warm = SimpleNamespace(**{**vars(plain), "sbs_shapes": shapes.select("decrypt-batch-256-subjects")})
        self.assertEqual(cipherd_target.subject_args(warm), ["--subject-creation-rate=0", "--subject-cache-size=1000"])
        cold = SimpleNamespace(**{**vars(plain), "sbs_cold_subjects": 5000})
        self.assertTrue(cipherd_target.measures_subjects(cold))

    def test_decrypt_batch_carries_256_referenced_ciphertexts(self):
        (msg,) = self.messages["decrypt-batch-256"]
        req = self.cs.DecryptBatchRequest.FromString(msg)
        self.assertEqual([i.reference for i in req.items], [str(i) for i in range(256)])
        self.assertEqual({i.ciphertext for i in req.items}, {"<sbs-enc/v1:gcm>" + "B" * 172})

    def test_the_stream_body_is_256_length_prefixed_requests(self):
        body = bodies.frames(self.messages["reencrypt-stream-256"])
        reqs = [self.cs.ReEncryptStreamRequest.FromString(m) for m in bodies.unframe_all(body)]
        self.assertEqual(len(reqs), 256)
        self.assertEqual([r.reference for r in reqs], [str(i) for i in range(256)])
        self.assertEqual({(r.ciphertext, r.key_name) for r in reqs}, {(CT, shapes.REWRAP_KEY)})

    def test_outline_of_the_new_answers(self):
        from lt.sidebyside import responses

        cs = self.cs
        dec = cs.DecryptBatchResponse(
            results=[cs.DecryptBatchResult(reference=str(i), plaintext=b"x" * 100, key_version=1) for i in range(256)]
        )
        self.assertEqual(
            responses.outline("DecryptBatch", [dec]),
            {
                "results": 256,
                "references_echoed": True,
                "plaintext_lens": [100],
                "errors": 0,
                "key_versions": [1],
                "source_versions": [0],
            },
        )
        stream = [
            cs.ReEncryptStreamResponse(
                result=cs.ReEncryptBatchResult(reference=str(i), ciphertext=CT, key_version=2, source_key_version=1)
            )
            for i in range(256)
        ]
        stream[7].result.error.message = "failed"
        got = responses.outline("ReEncryptStream", stream)
        self.assertEqual(
            (got["results"], got["errors"], got["key_versions"], got["source_versions"]), (256, 1, [2], [1])
        )


if __name__ == "__main__":
    unittest.main()


class GrpcSpecsTest(unittest.TestCase):
    def test_a_sitting_without_subject_shapes_has_no_specs_for_them(self):
        # --sbs-shapes encrypt,encrypt-batch-256 writes no subject bodies: their specs are left out rather
        # than failing the sitting with a KeyError before its first run (as it did).
        from lt.sidebyside import target

        files = {s.name: Path(f"/tmp/{s.name}.bin") for s in shapes.SHAPES if not s.subjects}
        args = options.parse(["--side-by-side-only", "--sbs-shapes", "encrypt,encrypt-batch-256"])
        specs = target.grpc_specs("127.0.0.1:1", files, args)
        self.assertEqual(set(specs), set(files))
        self.assertTrue(any(s.subjects for s in shapes.SHAPES))
