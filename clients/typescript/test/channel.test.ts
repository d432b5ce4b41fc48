// Which transport a client picks: plaintext only for loopback targets or when asked for, else TLS.
import assert from "node:assert/strict";
import { test } from "node:test";
import { channelCredentials, isLoopback } from "../src/channel.js";

test("isLoopback is true only for this machine", () => {
  for (const target of ["127.0.0.1:50051", "127.9.8.7:50051", "[::1]:50051", "localhost:50051"]) {
    assert.equal(isLoopback(target), true, target);
  }
  for (const target of [
    "cipherd.prod.svc:443",
    "10.0.0.7:50051",
    "127.0.0.1",
    "dns:///cipherd:50051",
    "1127.0.0.1:1",
  ]) {
    assert.equal(isLoopback(target), false, target);
  }
});

test("without tls: plaintext on loopback, TLS with the system roots elsewhere", () => {
  assert.equal(channelCredentials("127.0.0.1:50051", {})._isSecure(), false);
  assert.equal(channelCredentials("cipherd.prod.svc:443", {})._isSecure(), true);
});

test("insecure allows plaintext to a remote target, but not together with tls", () => {
  assert.equal(channelCredentials("10.0.0.7:50051", { insecure: true })._isSecure(), false);
  assert.throws(() => channelCredentials("10.0.0.7:50051", { insecure: true, tls: {} }), /conflicts/);
});
