try { await fetch("http://127.0.0.1:1/x", { method: "POST", body: "b", redirect: "follow" }) } catch (e) { console.log(e.message) }
console.log(new TextEncoder().encode("é"), new TextDecoder().decode(new Uint8Array([104, 105])));
console.log(atob(btoa("hi")), typeof process, typeof require, globalThis.goccia);
