const t = setTimeout(() => console.log('never'), 5);
clearTimeout(t);
let n = 0;
const i = setInterval(() => { n++; if (n === 3) { clearInterval(i); console.log('interval', n); } }, 1);
const im = setImmediate(() => console.log('never immediate'));
clearImmediate(im);
setTimeout((a, b) => console.log('args', a, b), 1, 'x', 'y');
