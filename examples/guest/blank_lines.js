// A lint rule: runs of blank lines in Markdown files become one blank line.
// It reports each run it finds and writes the fixed text into its own
// filesystem. Whether that reaches a real file is the host's word
// (`--copy-rw`), not this program's: it has no way to ask for it.
import fs from "fs";

function* markdownFiles(folder) {
  for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
    const path = `${folder === "/" ? "" : folder}/${entry.name}`;
    if (entry.isDirectory()) yield* markdownFiles(path);
    else if (path.endsWith(".md")) yield path;
  }
}

let findings = 0;
for (const path of markdownFiles("/src")) {
  const lines = fs.readFileSync(path, "utf8").split("\n");
  const kept = [];
  let blanks = 0;
  lines.forEach((line, index) => {
    blanks = line.trim() === "" ? blanks + 1 : 0;
    if (blanks === 2) {
      console.log(`${path}:${index + 1}: more than one blank line`);
      findings += 1;
    }
    if (blanks < 2) kept.push(line);
  });
  const fixed = kept.join("\n");
  if (fixed !== lines.join("\n")) fs.writeFileSync(path, fixed);
}
console.log(`${findings} finding(s)`);
