import { data } from "react-router";

export function meta() {
  return [{ title: "permission denied | faultline" }];
}

export function loader() {
  return data(null, { status: 403 });
}

export default function Unauthorized() {
  return (
    <section className="panel mx-auto max-w-2xl" data-testid="permission-denied">
      <p className="prompt text-sm">sudo cat /admin</p>
      <h1 className="mt-4 text-2xl font-bold text-red-700 dark:text-term-red">Permission Denied</h1>
      <p className="mt-2">You don't have sufficient permissions to access this resource. Please authenticate or request access from an administrator.</p>
      {/* The back button: a link home without JavaScript; with it, back where the person came
          from (home when this page opened a fresh tab, which has nothing to go back to). */}
      <a
        href="/"
        className="btn-ghost mt-6"
        data-testid="back-button"
        onClick={(e) => {
          if (window.history.length <= 1) return;
          e.preventDefault();
          window.history.back();
        }}
      >
        cd - (go back)
      </a>
    </section>
  );
}
