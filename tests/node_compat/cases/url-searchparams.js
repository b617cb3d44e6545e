const p = new URLSearchParams('a=1&b=2&a=3&c=%20x+y');
console.log(p.get('a'), p.getAll('a'), p.get('c'), p.has('b'), p.get('nope'));
p.set('a', 'z'); p.delete('b'); p.append('d', 'é&=');
console.log(p.toString());
p.sort();
console.log([...p.keys()].join(','), [...p.entries()].length);
console.log(new URLSearchParams({ k: 'v', n: 1 }).toString());
