import e, { kind, add } from 'exported';
import feature from 'exported/feature';
console.log(kind, add(1, 2), e.kind, feature());
