const a = []; let s = "x";
for (let i = 0; i < 40; i++) { s += s; a.push(new ArrayBuffer(1 << 20)) }
JSON.parse("[".repeat(100000));
/(a+)+$/.test("a".repeat(40) + "b");
