class MyErr extends Error { constructor(m) { super(m); this.name = 'MyErr'; } }
const first = (e) => e.stack.split('\n')[0];
console.log(first(new Error('plain')), '|', first(new MyErr('custom')), '|', first(new RangeError('r')));
const later = new Error('a');
later.message = 'b';
console.log(first(later));
const set = new Error('x');
set.stack = 'replaced';
console.log(set.stack);
function where() { return new Error('here').stack.split('\n')[1].trim(); }
console.log(where().startsWith('at where ('), where().includes('errors-stack.js:10:'));
try { JSON.parse('{'); } catch (e) { console.log(e.name, e instanceof SyntaxError); }
