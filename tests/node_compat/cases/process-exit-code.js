console.log('working');
process.exitCode = 3;
