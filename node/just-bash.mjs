// ESM entry point of goccia/just-bash.
import justBash from "./just-bash.cjs";

export const { Bash } = justBash;
export default justBash;
