try { process.exit(5); } catch (e) { console.log('caught?'); } finally { console.log('finally?'); }
