// The TypeScript client as a command for the cross-language test: `encrypt ADDR KEY CONTEXT` reads the
// plaintext from stdin and prints the ciphertext; `decrypt ADDR CONTEXT` reads the ciphertext from
// stdin and writes the plaintext; `inspect` prints the locally parsed header as "name version mode".
import { CipherdClient, parseCiphertext } from "../typescript/dist/index.js";

const [command, ...args] = process.argv.slice(2);
const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const input = Buffer.concat(chunks);

if (command === "inspect") {
  const e = parseCiphertext(input.toString("ascii").trim());
  process.stdout.write(`${e.keyName} ${e.keyVersion} ${e.mode}\n`);
} else {
  const client = new CipherdClient(args[0], { timeoutMs: 20_000 });
  try {
    if (command === "encrypt") {
      process.stdout.write(await client.encrypt(args[1], input, { context: Buffer.from(args[2]) }));
    } else if (command === "decrypt") {
      process.stdout.write(await client.decrypt(input.toString("ascii").trim(), { context: Buffer.from(args[1]) }));
    } else {
      throw new Error(`unknown command ${command}`);
    }
  } finally {
    client.close();
  }
}
