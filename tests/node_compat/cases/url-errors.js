try { new URL('not a url'); } catch (e) { console.log(e.code, e instanceof TypeError); }
console.log(URL.canParse ? URL.canParse('http://x') : true);
