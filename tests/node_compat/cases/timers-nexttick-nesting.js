Promise.resolve().then(() => { console.log('p1'); process.nextTick(() => console.log('tick in p1')); Promise.resolve().then(() => console.log('p1.1')); });
process.nextTick(() => { console.log('t1'); Promise.resolve().then(() => console.log('p in t1')); process.nextTick(() => console.log('t in t1')); });
setTimeout(() => { process.nextTick(() => console.log('tick in timeout')); Promise.resolve().then(() => console.log('p in timeout')); }, 0);
setTimeout(() => console.log('timeout2'), 0);
const t = setTimeout(() => console.log('unref never runs'), 100);
t.unref();
const i = setInterval(() => {}, 1000);
i.unref();
