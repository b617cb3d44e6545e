import * as fs from "node:fs";
import { readFileSync } from "fs";
const m = await import("/nope.js").catch(e => e.message);
console.log(m, typeof readFileSync, Object.keys(fs).length);
export default { ok: true, list: [1, "2", null] };
