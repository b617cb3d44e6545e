// Fan-out: one child sandbox per approach, each seeded from the parent in
// O(1), run in parallel off the JavaScript thread, and the winner merged
// back by the host. Run: node/test/run-examples.mjs.
import { Sandbox } from "goccia";

await using parent = new Sandbox({
  files: { "/work/data.txt": "3\n1\n2\n" },
});
const approaches = ["sort -n data.txt > out.txt", "sort -rn data.txt | tac > out.txt", "awk '{print}' data.txt | sort > out.txt"];
const children = await Promise.all(approaches.map(() => parent.child(["/work"])));
const runs = await Promise.all(
  children.map((child, i) => child.runShell(`cd /work && ${approaches[i]} && cat out.txt`)),
);
runs.forEach((run, i) => console.log(`${approaches[i]} -> ${JSON.stringify(run.stdout)}`));
const winner = runs.findIndex((run) => run.ok && run.stdout === "1\n2\n3\n");
const report = await parent.merge(children[winner]);
console.log("merged:", JSON.stringify(report));
console.log(await parent.readFile("/work/out.txt"));
for (const child of children) await child.close();
