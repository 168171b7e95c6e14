// The single URL map of the web.
import { index, route, type RouteConfig } from "@react-router/dev/routes";

export default [
  index("routes/home.tsx"),

  // Sign-in
  route("auth", "routes/auth-redirect.tsx"),
  route("login", "routes/login.tsx", { id: "login" }),
  route("register", "routes/login.tsx", { id: "register" }),
  route("login/2fa", "routes/login-2fa.tsx"),
  route("login/2fa/recover", "routes/login-2fa-recover.tsx"),
  route("logout", "routes/logout.tsx"),
  route("register/success", "routes/register-success.tsx"),
  route("verify-email", "routes/verify-email.tsx"),
  route("forgot-password", "routes/forgot-password.tsx"),
  route("reset-password", "routes/reset-password.tsx"),
  route("confirm-email", "routes/confirm-email.tsx"),
  route("unsubscribe", "routes/unsubscribe.tsx"),
  route("auth/oauth/:provider/login", "routes/oauth-login.tsx"),
  route("auth/oauth/:provider/callback", "routes/oauth-callback.tsx"),
  route("theme", "routes/theme.tsx"),

  // Player pages
  route("challenges", "routes/challenges.tsx"),
  route("challenges/:id", "routes/challenge.tsx"),
  route("challenges/:id/status", "routes/challenge-status.tsx"),
  route("challenges/:id/reset", "routes/challenge-reset.tsx"),
  route("banner/dismiss", "routes/banner-dismiss.tsx"),
  route("leaderboard", "routes/leaderboard.tsx"),
  route("submit_challenge", "routes/submit-challenge.tsx"),
  route("profile", "routes/profile-own.tsx"),
  route("profile/settings", "routes/settings.tsx"),
  route("profile/export", "routes/account-export.tsx"),
  route("profile/:username", "routes/profile-public.tsx"),
  route("admin", "routes/admin.tsx"),
  route("admin/logs/export", "routes/admin-logs-export.tsx"),
  route("admin/recordings/:id/cast", "routes/admin-recording-cast.tsx"),
  route("recordings/:id/cast", "routes/recording-cast.tsx"),

  // Information
  route("pricing", "routes/pricing.tsx"),
  route("billing", "routes/billing.tsx"),
  route("faq", "routes/faq.tsx"),
  route("docs", "routes/docs.tsx"),
  route("docs/api", "routes/docs-api.tsx"),
  route("status", "routes/status.tsx"),
  route(":page", "routes/info-page.tsx", { id: "info-page" }),
  route("unauthorized", "routes/unauthorized.tsx"),
  route("404", "routes/not-found.tsx", { id: "not-found-page" }),
  route("*", "routes/not-found.tsx", { id: "not-found-splat" }),
] satisfies RouteConfig;
