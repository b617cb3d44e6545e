let n = 0;
const id = setInterval(() => { if (++n > 3) clearInterval(id) }, 10);
await new Promise(resolve => setTimeout(resolve, 50));
queueMicrotask(() => console.log("micro"));
console.log(n, new URL("https://a.b/c?d=e").searchParams.get("d"), structuredClone({ a: [1] }));
