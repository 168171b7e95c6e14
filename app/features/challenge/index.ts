// The challenge page (/challenges/:id) as one feature folder: its components, its pure rules and
// their tests sit together here, so a newcomer finds the whole page in one place, and the route
// module (app/routes/challenge.tsx) keeps only loader, action, meta and the default export.
// Why app/features/ and not app/components/challenge/: app/components/ holds pieces many pages
// share (nav bar, footer, fields) and app/lib/ helpers of several pages; this folder holds one
// page's every part, rules included, which fits neither.
//
//   components/  one React component per file (the page's screen, its panels, badges, countdown)
//   rules/       free of React and of the network, each with its test beside it: status
//                controls, countdown, ssh command, live view, reconnect policy, live
//                controller, texts, the success screen's formats, the forms' schema
//
// Code outside the folder imports from this index, except the page's two hooks
// (app/hooks/use-countdown.ts, use-deployment-live.ts): the components here import them, so they
// take the rules modules directly rather than close a cycle through this file. The API's shapes
// and the status enum are shared/contract/deployments.ts; the limits and sentences the API
// shares, shared/rules.ts.
export { Countdown } from "./components/countdown.tsx";
export { StatusDot } from "./components/badges.tsx";
export { ChallengeScreen, type ChallengePageData } from "./components/challenge-screen.tsx";
export { LoadError } from "./components/load-error.tsx";
export { castUrl } from "./components/compare.tsx";
export { Replay } from "./components/replay.tsx";
export { hintSchema, isIntent, type Outcome, submitSchema } from "./rules/form.ts";
export { STATUS_LABELS } from "./rules/status.ts";
export { extendErrorText, loadErrorText, startErrorText, submitErrorText, TEXT, terminateErrorText } from "./rules/texts.ts";
