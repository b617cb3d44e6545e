const b = Buffer.from('{"a":[1,2,3]}');
const parsed = JSON.parse(b);
console.log(parsed.a.length, String(b), `${Buffer.from('x')}`, b + '');
