import fs from "fs";
fs.mkdirSync("/a/b", { recursive: true });
fs.writeFileSync("/a/b/c.txt", "hello");
fs.appendFileSync("/a/b/c.txt", new Uint8Array([1, 2, 3]));
console.log(fs.readdirSync("/a", { withFileTypes: true }).map(e => e.name), fs.statSync("/a/b/c.txt").size);
fs.renameSync("/a/b/c.txt", "/a/d.txt"); fs.copyFileSync("/a/d.txt", "/e"); fs.rmSync("/a", { recursive: true });
