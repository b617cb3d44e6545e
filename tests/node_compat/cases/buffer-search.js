const b = Buffer.from('a needle in a haystack with a needle');
console.log(b.indexOf('needle'), b.lastIndexOf('needle'), b.indexOf('needle', 5), b.includes('hay'), b.indexOf(Buffer.from('with')), b.indexOf(97), b.indexOf('zzz'));
