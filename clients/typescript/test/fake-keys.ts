/**
 * A stand-in for cipherd's data-key calls, for testing the file helpers without a server: it hands out
 * random data keys under opaque wrapped keys and unwraps only those, with their context.
 */
import { randomBytes } from "node:crypto";
import { DataKey, DecryptionFailedError, type CallOptions, type Rewrapped } from "../src/index.js";

export class FakeKeys {
  private readonly keys = new Map<string, { key: Buffer; context: string }>();
  calls = 0;

  private wrap(version: number, key: Buffer, context: Uint8Array | undefined): string {
    const wrapped = `<files/v${version}:gcm>${randomBytes(60).toString("base64")}`;
    this.keys.set(wrapped, { key, context: Buffer.from(context ?? []).toString("hex") });
    return wrapped;
  }

  async generateDataKey(_keyName: string, options: CallOptions & { context?: Uint8Array } = {}): Promise<DataKey> {
    this.calls++;
    const key = randomBytes(32);
    return new DataKey(Buffer.from(key), this.wrap(1, key, options.context), 1);
  }

  async decrypt(ciphertext: string, options: CallOptions & { context?: Uint8Array } = {}): Promise<Uint8Array> {
    this.calls++;
    const entry = this.keys.get(ciphertext);
    if (entry === undefined || entry.context !== Buffer.from(options.context ?? []).toString("hex")) {
      throw new DecryptionFailedError("decryption failed");
    }
    return Buffer.from(entry.key);
  }

  async reEncrypt(ciphertext: string, options: CallOptions & { context?: Uint8Array } = {}): Promise<Rewrapped> {
    this.calls++;
    const entry = this.keys.get(ciphertext);
    if (entry === undefined) throw new DecryptionFailedError("decryption failed");
    const sourceKeyVersion = Number(/\/v(\d+):/.exec(ciphertext)![1]);
    return {
      ciphertext: this.wrap(sourceKeyVersion + 1, entry.key, options.context),
      keyVersion: sourceKeyVersion + 1,
      sourceKeyVersion,
    };
  }
}
