// A first goccia program: it sees only the sandbox filesystem.
import fs from "fs";

const files = fs.readdirSync("/");
console.log(`hello from the sandbox; / holds: ${files.join(", ")}`);
fs.writeFileSync("/greeting.txt", "written inside the sandbox\n");
