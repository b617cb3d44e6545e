const fs = require('fs');
fs.writeFile('cb.txt', 'callback', (err) => {
  console.log('written', err);
  fs.readFile('cb.txt', 'utf8', (err2, data) => {
    console.log(err2, data);
    fs.readFile('missing', (err3, d3) => console.log(err3.code, d3));
  });
});
