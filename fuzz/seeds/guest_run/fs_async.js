import fs, { promises } from "fs";
fs.readFile("/missing", (err, data) => console.log(err && err.code));
await promises.writeFile("/p", "x".repeat(100));
console.log(await promises.readFile("/p", "utf8"));
try { fs.readFileSync("/p/child") } catch (e) { console.log(e.code, e.syscall) }
