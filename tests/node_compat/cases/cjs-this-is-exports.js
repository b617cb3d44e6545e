this.answer = 42;
console.log(this === module.exports, JSON.stringify(exports));
process.nextTick(() => console.log('tick'));
Promise.resolve().then(() => console.log('job'));
