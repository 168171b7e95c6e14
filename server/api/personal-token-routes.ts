// Personal API tokens over HTTP (shared/contract/personal-tokens.ts): list, make, revoke. Only a
// sign-in's token reaches these (they declare no `personalToken` scope, so the access guard
// refuses a personal token with 403). The one exception is the other way round: GET
// /tokens/current describes the personal token a request is made with (a sign-in's token has no
// such thing: 404). Transport only: one service call each.
import { operations } from "#shared/contract/operations.ts";
import type { PersonalTokens } from "#server/core/auth/personal-tokens.ts";
import type { BaseCtx, Router } from "./router.ts";

export function personalTokenRoutes(
  r: Router,
  {
    personalTokens,
    userId,
    personalTokenId,
  }: {
    personalTokens: PersonalTokens;
    userId(c: BaseCtx): Promise<string>;
    /** The id of the personal token the request is made with, or 404 for a sign-in's token. */
    personalTokenId(c: BaseCtx): Promise<string>;
  },
) {
  r.handle(operations.listPersonalTokens, async (c) => personalTokens.list(await userId(c)));
  r.handle(operations.createPersonalToken, async (c) => personalTokens.create(await userId(c), c.body));
  r.handle(operations.revokePersonalToken, async (c) => personalTokens.revoke(await userId(c), c.params.id));
  r.handle(operations.getCurrentPersonalToken, async (c) => personalTokens.current(await personalTokenId(c)));
}
