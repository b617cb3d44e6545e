import fs from "fs";
import { runScript } from "goccia";
fs.writeFileSync("/child.js", "import fs from 'fs'; fs.writeFileSync('/out', 'o'); export default 7");
const shared = await runScript("/child.js");
const child = await runScript("/child.js", { sandbox: true, seed: ["/child.js", { path: "/t", text: "t" }], diff: true, diffFormat: "unified" });
console.log(shared.ok, child.diff, child.result);
