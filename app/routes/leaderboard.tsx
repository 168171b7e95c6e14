import { ComingSoon } from "../components/coming-soon.tsx";

export function meta() {
  return [{ title: "leaderboard | faultline" }];
}

export default function Leaderboard() {
  return <ComingSoon title="sort -rn leaderboard" what="Rankings by points for all time, this month, this week and today." />;
}
