const fs = require('fs');
if (fs.globSync) {
  console.log(fs.globSync('src/*.js').sort());
  console.log(fs.globSync('**/*.json', { cwd: 'node_modules' }).sort());
} else {
  console.log('no glob');
}
