const enc = new TextEncoder();
const bytes = enc.encode('héllo €');
console.log(bytes.length, Array.from(bytes.slice(0, 3)));
console.log(new TextDecoder().decode(bytes));
console.log(new TextDecoder('utf-8').decode(new Uint8Array([0xe2, 0x82, 0xac])));
