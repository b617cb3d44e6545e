const v = await new Promise((r) => setTimeout(() => r('late'), 2));
console.log(v);
