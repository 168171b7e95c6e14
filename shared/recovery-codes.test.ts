import { describe, expect, it } from "vitest";
import { formatRecoveryCode, normalizeRecoveryCode } from "./recovery-codes.ts";

describe("recovery codes as typed", () => {
  it("takes any case, with or without dashes and spaces, and Crockford's look-alikes", () => {
    for (const typed of ["abcd-efgh-jkmn-pq10", "ABCD EFGH JKMN PQ10", "abcdefghjkmnpq10", " abcd-efgh-jkmn-pqlo ", "abcd-efgh-jkmn-pqIO"]) {
      expect(normalizeRecoveryCode(typed), typed).toBe("abcdefghjkmnpq10");
    }
  });

  it("refuses anything else", () => {
    for (const typed of [
      "",
      "abcd",
      "abcd-efgh-jkmn-pqr",
      "abcd-efgh-jkmn-pqrs-t",
      "abcd-efgh-jkmn-pqu0",
      "abcd_efgh_jkmn_pq10",
      "12345678901234567",
      "ábcd-efgh-jkmn-pq10",
    ]) {
      expect(normalizeRecoveryCode(typed), typed).toBeNull();
    }
  });

  it("shows four groups of four", () => {
    expect(formatRecoveryCode("abcdefghjkmnpq10")).toBe("abcd-efgh-jkmn-pq10");
  });
});
