try { await import('./nope.mjs'); } catch (e) { console.log(e.code); }
try { await import('no-such-pkg'); } catch (e) { console.log(e.code); }
