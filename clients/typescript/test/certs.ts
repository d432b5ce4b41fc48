/** A throwaway CA, a server certificate for 127.0.0.1/localhost and client certificates, made with the openssl CLI. */
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export interface Pem {
  cert: string;
  key: string;
}

export const read = (path: string): Buffer => readFileSync(path);

function openssl(args: string[]): void {
  try {
    execFileSync("openssl", args, { stdio: ["ignore", "ignore", "pipe"] });
  } catch (e) {
    throw new Error(`openssl ${args[0]} failed (the TLS tests need the openssl CLI): ${String(e)}`);
  }
}

/** A CA that signs leaf certificates for the tests. */
export class Authority {
  readonly pem: Pem;

  constructor(
    private readonly dir: string,
    readonly stem = "ca",
  ) {
    this.pem = { cert: join(dir, `${stem}.crt`), key: join(dir, `${stem}.key`) };
    // -newkey ec writes PKCS#8, the only private key format the server reads.
    openssl([
      "req",
      "-x509",
      "-newkey",
      "ec",
      "-pkeyopt",
      "ec_paramgen_curve:prime256v1",
      "-nodes",
      "-days",
      "1",
      "-subj",
      `/CN=${stem}`,
      "-keyout",
      this.pem.key,
      "-out",
      this.pem.cert,
    ]);
  }

  issue(stem: string, dns: string, server = false): Pem {
    const pem = { cert: join(this.dir, `${stem}.crt`), key: join(this.dir, `${stem}.key`) };
    const csr = join(this.dir, `${stem}.csr`);
    const ext = join(this.dir, `${stem}.ext`);
    writeFileSync(ext, `subjectAltName=DNS:${dns}${server ? ",IP:127.0.0.1" : ""}\n`);
    openssl([
      "req",
      "-new",
      "-newkey",
      "ec",
      "-pkeyopt",
      "ec_paramgen_curve:prime256v1",
      "-nodes",
      "-subj",
      `/CN=${dns}`,
      "-keyout",
      pem.key,
      "-out",
      csr,
    ]);
    openssl([
      "x509",
      "-req",
      "-in",
      csr,
      "-CA",
      this.pem.cert,
      "-CAkey",
      this.pem.key,
      "-CAcreateserial",
      "-days",
      "1",
      "-extfile",
      ext,
      "-out",
      pem.cert,
    ]);
    return pem;
  }
}
