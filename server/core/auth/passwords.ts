// argon2id with OWASP's recommended parameters (19 MiB memory, 2 iterations, 1 lane).
import { hash, verify } from "@node-rs/argon2";

const OWASP = { algorithm: 2 /* Argon2id */, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export const hashPassword = (password: string) => hash(password, OWASP);

export async function verifyPassword(stored: string | null, password: string): Promise<boolean> {
  // With no stored hash, still spend the same time so a wrong username is not faster to learn.
  if (!stored) {
    await hash(password, OWASP);
    return false;
  }
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}
