try { require('./nope'); } catch (e) { console.log(e.code, e.message.split('\n')[0]); }
try { require('no-such-package'); } catch (e) { console.log(e.code, e.message.split('\n')[0]); }
