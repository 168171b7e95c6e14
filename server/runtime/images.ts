// Names of the images `npm run images` builds (images/build.ts) and the runtime starts.
export const BASE_IMAGE = process.env.FAULTLINE_BASE_IMAGE ?? "faultline/base:latest";
export const INPUTS_LABEL = "faultline.inputs-hash";

export function challengeImage(slug: string) {
  return `faultline/challenge-${slug}:latest`;
}
