import { data, useLocation } from "react-router";
import { NotFound } from "#app/components/not-found.tsx";

export function meta() {
  return [{ title: "404 | faultline" }];
}

export function loader() {
  return data(null, { status: 404 });
}

export default function NotFoundPage() {
  return <NotFound path={useLocation().pathname} />;
}
