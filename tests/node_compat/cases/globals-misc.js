console.log(typeof globalThis, typeof global, global === globalThis);
console.log(typeof setTimeout, typeof setImmediate, typeof queueMicrotask, typeof structuredClone);
console.log(typeof Buffer, typeof process, typeof URL, typeof URLSearchParams, typeof TextEncoder);
console.log(typeof require, typeof module, typeof exports, typeof __filename, typeof __dirname);
console.log(atob(btoa('hello')), btoa('\x00\xff'));
