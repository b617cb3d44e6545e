const { types } = require('util');
console.log(types.isPromise(Promise.resolve()), types.isRegExp(/x/), types.isDate(new Date()), types.isMap(new Map()));
console.log(types.isTypedArray(new Uint8Array()), types.isUint8Array(Buffer.alloc(1)), types.isAsyncFunction(async () => {}), types.isGeneratorFunction(function* () {}));
console.log(types.isNativeError(new TypeError()), types.isArrayBuffer(new ArrayBuffer(1)), types.isBoxedPrimitive(new String('x')), types.isSet([]));
