import { ComingSoon } from "../components/coming-soon.tsx";

export function meta() {
  return [{ title: "challenges | faultline" }];
}

export default function Challenges() {
  return <ComingSoon title="ls challenges/" what="The catalogue of broken systems to fix: Linux, networking, storage, security and Kubernetes." />;
}
