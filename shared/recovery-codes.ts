// Two-factor recovery codes as both sides read them (the API's zod schemas, the web's forms):
// 16 characters of Crockford's base32 (80 bits), shown in four groups of four. Typing is
// forgiving: any case, with or without the dashes and spaces, and the letters Crockford reads as
// digits (i and l as 1, o as 0).
export const RECOVERY_CODE_ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz";
export const RECOVERY_CODE_LENGTH = 16;
export const RECOVERY_CODE_RULE = "Enter a recovery code: 16 letters and digits, as printed (the dashes are optional)";

/** The code as stored (its 16 characters), or null when it cannot be a recovery code. */
export function normalizeRecoveryCode(typed: string): string | null {
  const v = typed.toLowerCase().replace(/[\s-]/g, "").replace(/[il]/g, "1").replace(/o/g, "0");
  if (v.length !== RECOVERY_CODE_LENGTH) return null;
  for (const ch of v) if (!RECOVERY_CODE_ALPHABET.includes(ch)) return null;
  return v;
}

/** "abcdefghjkmnpqrs" → "abcd-efgh-jkmn-pqrs". */
export const formatRecoveryCode = (code: string) => code.match(/.{1,4}/g)!.join("-");
