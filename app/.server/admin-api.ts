// The admin console's calls to the API (/api/v1/admin/...), through the same in-process
// dispatch as the rest of the web (api-client.ts), with the signed-in admin's token. Kept apart
// from the player's client: only the admin routes import it. `raw` hands back the API's own
// Response (the log export streams JSON lines, which are not one JSON document).
import type { RouterContextProvider } from "react-router";
import type {
  AdminUsersPage,
  AdminUserView,
  AuditPage,
  ChallengeFigures,
  ReloadReport,
  SystemFigures,
  SystemNotice,
  SystemSettings,
  SystemSettingsWithLimits,
} from "../../shared/contract/admin.ts";
import type { ApiResult } from "./api-client.ts";
import { platformContext } from "./context.ts";

const BASE = "http://internal/api/v1";

export type AuditQuery = Partial<Record<"action" | "actor" | "user" | "from" | "to" | "page", string>>;

const qs = (params: Record<string, string | number | undefined | null>) => {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== "") q.set(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : "";
};

export function adminApi(context: Readonly<RouterContextProvider>, token?: string) {
  const { dispatch, clientIp } = context.get(platformContext);

  function raw(method: string, path: string, body?: unknown): Promise<Response> {
    const headers: Record<string, string> = { accept: "application/json" };
    if (token) headers.authorization = `Bearer ${token}`;
    if (body !== undefined) headers["content-type"] = "application/json";
    return dispatch(new Request(BASE + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }), { clientIp });
  }

  async function call<T>(method: string, path: string, body?: unknown): Promise<ApiResult<T>> {
    const res = await raw(method, path, body);
    const data = (await res.json().catch(() => ({}))) as any;
    if (res.ok) return { ok: true, status: res.status, data: data as T };
    return { ok: false, status: res.status, detail: typeof data?.detail === "string" ? data.detail : "" };
  }

  const user = (id: string) => `/admin/users/${encodeURIComponent(id)}`;

  return {
    notice: () => call<SystemNotice>("GET", "/system/notice"),
    users: (q: { search?: string; page?: string | number }) => call<AdminUsersPage>("GET", `/admin/users${qs(q)}`),
    createUser: (body: { username: string; email: string; password: string }) => call<AdminUserView>("POST", "/admin/users", body),
    verify: (id: string) => call<AdminUserView>("POST", `${user(id)}/verify`, {}),
    setAdmin: (id: string, is_admin: boolean) => call<AdminUserView>("PUT", `${user(id)}/admin`, { is_admin }),
    setPlan: (id: string, plan: "free" | "pro", until: number | null) =>
      call<AdminUserView>("POST", `${user(id)}/plan`, { plan, plan_until: until === null ? null : new Date(until * 1000).toISOString() }),
    disable: (id: string) => call<AdminUserView>("POST", `${user(id)}/disable`, {}),
    enable: (id: string) => call<AdminUserView>("POST", `${user(id)}/enable`, {}),
    resetTwoFactor: (id: string) => call<AdminUserView>("POST", `${user(id)}/2fa/reset`, {}),
    challenges: () => call<{ challenges: ChallengeFigures[] }>("GET", "/admin/challenges"),
    setHidden: (id: string, hidden: boolean) =>
      call<{ id: string; hidden: boolean }>("PUT", `/admin/challenges/${encodeURIComponent(id)}/visibility`, { hidden }),
    reload: () => call<ReloadReport>("POST", "/admin/challenges/reload", {}),
    system: () => call<SystemFigures>("GET", "/admin/system"),
    settings: () => call<SystemSettingsWithLimits>("GET", "/admin/settings"),
    saveSettings: (body: Partial<SystemSettings>) => call<SystemSettings>("PUT", "/admin/settings", body),
    audit: (q: AuditQuery) => call<AuditPage>("GET", `/admin/audit${qs(q)}`),
    exportAudit: (q: AuditQuery) => raw("GET", `/admin/audit/export${qs({ ...q, page: undefined })}`),
  };
}
export type AdminApi = ReturnType<typeof adminApi>;
