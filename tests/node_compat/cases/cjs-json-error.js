require('fs').writeFileSync('broken.json', '{ not json');
try { require('./broken.json'); } catch (e) { console.log(e instanceof SyntaxError, e.message.includes('broken.json')); }
