#!/usr/bin/env node
// The `faultline` command (package.json "bin"): the player CLI is TypeScript (cli/main.ts), run
// through tsx as the repository's other programs are (`tsx server/cli.ts`). tsx is registered
// from here, so it is found beside this file (the repository's node_modules) from any directory.
import { register } from "tsx/esm/api";

register();
await import("./main.ts");
