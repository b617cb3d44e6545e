console.log(Buffer.from('aGVsbG8', 'base64').toString(), Buffer.from('aGk_Pz8-', 'base64url').toString('hex'));
console.log(Buffer.from('hi??>').toString('base64url'), Buffer.byteLength('aGVsbG8=', 'base64'));
console.log(Buffer.from('zz', 'hex').length, Buffer.from('abc', 'hex').length);
console.log(Buffer.from('héllo', 'latin1').toString('latin1'), Buffer.from('héllo', 'ascii').length);
console.log(Buffer.from('ab', 'utf16le'), Buffer.from([0x61, 0, 0x62, 0]).toString('ucs2'));
