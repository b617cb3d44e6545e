const b = Buffer.from('hi!');
const j = JSON.stringify(b);
console.log(j, Buffer.from(JSON.parse(j)).toString(), JSON.stringify({ data: Buffer.from([1, 2]) }));
console.log(Buffer.byteLength('héllo'), Buffer.byteLength('aGk=', 'base64'), Buffer.isEncoding('UTF-8'), Buffer.isEncoding('nope'));
