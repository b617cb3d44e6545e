const { Readable } = require('stream');
const r = new Readable({ read() { this.destroy(new Error('broken')); } });
r.on('error', (e) => console.log('error:', e.message));
r.on('close', () => console.log('closed'));
r.resume();
