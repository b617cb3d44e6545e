const s = 'héllo wörld ✓';
for (const enc of ['utf8', 'hex', 'base64', 'base64url', 'latin1', 'ascii', 'utf16le']) {
  const b = Buffer.from(s, enc === 'utf8' ? 'utf8' : undefined);
  console.log(enc, b.toString(enc));
}
console.log(Buffer.from('68656c6c6f', 'hex').toString(), Buffer.from('aGVsbG8', 'base64').toString(), Buffer.from('aGk_-w', 'base64url'));
