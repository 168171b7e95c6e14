// Personal API tokens over HTTP (shared/contract/personal-tokens.ts): list, make, revoke. Only a
// sign-in's token reaches these (no operation here declares a `personalToken` scope, so the
// access guard refuses a personal token with 403). Transport only: one service call each.
import { operations } from "#shared/contract/operations.ts";
import type { PersonalTokens } from "#server/core/auth/personal-tokens.ts";
import type { BaseCtx, Router } from "./router.ts";

export function personalTokenRoutes(r: Router, { personalTokens, userId }: { personalTokens: PersonalTokens; userId(c: BaseCtx): Promise<string> }) {
  r.handle(operations.listPersonalTokens, async (c) => personalTokens.list(await userId(c)));
  r.handle(operations.createPersonalToken, async (c) => personalTokens.create(await userId(c), c.body));
  r.handle(operations.revokePersonalToken, async (c) => personalTokens.revoke(await userId(c), c.params.id));
}
