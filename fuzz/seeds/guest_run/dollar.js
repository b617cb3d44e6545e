import { $ } from "goccia";
const out = await $`echo ${"a b"} ${["c", "d"]} | tr a-z A-Z`.text();
const r = await $`false`.nothrow();
console.log(out, r.exitCode, (await $`seq 3`.lines()).length);
try { await $`exit 3` } catch (e) { console.log(e.exitCode) }
await $`ls /`.cwd("/tmp").env({ X: "1" }).quiet();
