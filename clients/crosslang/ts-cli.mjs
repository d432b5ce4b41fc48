// The TypeScript client as a command for the cross-language test: `encrypt ADDR KEY CONTEXT [SUBJECT]`
// reads the plaintext from stdin and prints the ciphertext (sealed under SUBJECT's key when given);
// `decrypt ADDR CONTEXT` reads the ciphertext from stdin and writes the plaintext, or, when its subject
// was erased, prints "subject erased at TIME" on stderr and exits 3 (SubjectErasedError); `erase ADDR
// KEY SUBJECT` erases a subject and prints the outcome; `inspect` prints the locally parsed header as
// "name version mode subject_bound payload_bytes"; `fpe-encrypt ADDR KEY CONTEXT` reads a value from stdin
// and prints "VALUE<TAB>KEY_VERSION" of its format-preserving ciphertext, `fpe-decrypt ADDR KEY CONTEXT`
// reads such a line and writes the plaintext.
import { CipherdClient, SubjectErasedError, parseCiphertext } from "../typescript/dist/index.js";

const [command, ...args] = process.argv.slice(2);
const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const input = Buffer.concat(chunks);

if (command === "inspect") {
  const e = parseCiphertext(input.toString("ascii").trim());
  process.stdout.write(`${e.keyName} ${e.keyVersion} ${e.mode} ${e.subjectBound} ${e.payload.length}\n`);
} else {
  const client = new CipherdClient(args[0], { timeoutMs: 20_000 });
  try {
    if (command === "encrypt") {
      const subject = args[3] === undefined ? {} : { subject: args[3] };
      process.stdout.write(await client.encrypt(args[1], input, { context: Buffer.from(args[2]), ...subject }));
    } else if (command === "decrypt") {
      try {
        process.stdout.write(await client.decrypt(input.toString("ascii").trim(), { context: Buffer.from(args[1]) }));
      } catch (e) {
        if (!(e instanceof SubjectErasedError)) throw e;
        process.stderr.write(`subject erased at ${e.eraseTime?.toISOString()}\n`);
        process.exitCode = 3;
      }
    } else if (command === "fpe-encrypt") {
      const ct = await client.encryptFormatted(args[1], input.toString("utf8"), { context: Buffer.from(args[2]) });
      process.stdout.write(`${ct.value}\t${ct.keyVersion}`);
    } else if (command === "fpe-decrypt") {
      const [value, version] = input.toString("utf8").trimEnd().split("\t");
      const ciphertext = { value, keyVersion: Number(version) };
      process.stdout.write(await client.decryptFormatted(args[1], ciphertext, { context: Buffer.from(args[2]) }));
    } else if (command === "erase") {
      process.stdout.write(`${(await client.eraseSubject(args[1], args[2])).outcome}\n`);
    } else {
      throw new Error(`unknown command ${command}`);
    }
  } finally {
    client.close();
  }
}
